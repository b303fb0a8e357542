import LuxPixels
import Testing

@testable import LuxCodecs

/// Decompression bombs: small files whose headers make a decoder allocate or work far more than the file holds.
///
/// Each is refused before the allocation with ``CodecError/limitExceeded(what:value:limit:)``, and the per-decode
/// memory limit (``DecodingLimits/maxByteCount``) is honoured both ways.
@Suite struct DecodingLimitsTests {
    func expectLimit(_ what: String, _ body: () throws -> Void) {
        do {
            try body()
            Issue.record("\(what) decoded")
        } catch let error as CodecError {
            guard case .limitExceeded = error else {
                Issue.record("\(what): expected limitExceeded, got \(error)")
                return
            }
        } catch {
            Issue.record("\(what): expected a CodecError, got \(error)")
        }
    }

    /// A gray TIFF with one Deflate strip or tile holding `data`.
    static func tiff(
        width: Int, height: Int, tile: (Int, Int)? = nil, samples: Int = 1, bits: Int = 8, data: [UInt8]
    ) -> [UInt8] {
        var d = TIFFOutputDirectory()
        d[TIFFTag.imageWidth] = .longs([UInt32(width)])
        d[TIFFTag.imageLength] = .longs([UInt32(height)])
        d[TIFFTag.bitsPerSample] = .shorts(Array(repeating: UInt16(bits), count: samples))
        d[TIFFTag.photometric] = .shorts([samples == 1 ? 1 : 2])
        d[TIFFTag.samplesPerPixel] = .shorts([UInt16(samples)])
        d[TIFFTag.compression] = .shorts([8])
        if let (tw, tl) = tile {
            d[TIFFTag.tileWidth] = .longs([UInt32(tw)])
            d[TIFFTag.tileLength] = .longs([UInt32(tl)])
            d.data = TIFFImageData(
                offsetsTag: TIFFTag.tileOffsets, countsTag: TIFFTag.tileByteCounts, blobs: [.bytes(data)])
        } else {
            d[TIFFTag.rowsPerStrip] = .longs([UInt32(height)])
            d.data = TIFFImageData(
                offsetsTag: TIFFTag.stripOffsets, countsTag: TIFFTag.stripByteCounts, blobs: [.bytes(data)])
        }
        return TIFFEncoder.encode(d)
    }

    /// zlib data for `count` zero bytes (a few kilobytes for megabytes of output).
    static func zeros(_ count: Int) throws -> [UInt8] {
        try TIFFDecompression.deflate([UInt8](repeating: 0, count: count), level: 9)
    }

    @Test("a 16 × 16 TIFF whose one tile claims 65 535 × 65 535 pixels is refused before the tile is allocated")
    func tileLargerThanImage() throws {
        // Before: the tile's 4 GiB of decompressed samples were allocated for a 256-pixel image.
        let bomb = Self.tiff(width: 16, height: 16, tile: (65_535, 65_535), data: try Self.zeros(4096))
        expectLimit("TIFF tile 65535×65535") { _ = try ImageFile.read(data: bomb) }
        // The same tile is fine when it is as small as the image.
        let sane = Self.tiff(width: 16, height: 16, tile: (16, 16), data: try Self.zeros(256))
        #expect((try? ImageFile.read(data: sane))?.pixels.width == 16)
    }

    /// A one-directory CFA DNG header of `width` × `height` with `tile` × `tile` tiles (one listed).
    static func dngHeader(width: Int, height: Int, tile: Int) throws -> [UInt8] {
        var d = TIFFOutputDirectory()
        d[TIFFTag.newSubfileType] = .longs([0])
        d[TIFFTag.imageWidth] = .longs([UInt32(width)])
        d[TIFFTag.imageLength] = .longs([UInt32(height)])
        d[TIFFTag.bitsPerSample] = .shorts([16])
        d[TIFFTag.compression] = .shorts([7])
        d[TIFFTag.photometric] = .shorts([32803])
        d[TIFFTag.samplesPerPixel] = .shorts([1])
        d[TIFFTag.cfaRepeatPatternDim] = .shorts([2, 2])
        d[TIFFTag.cfaPattern] = .bytes([0, 1, 1, 2])
        d[TIFFTag.dngVersion] = .bytes([1, 4, 0, 0])
        d[TIFFTag.tileWidth] = .longs([UInt32(tile)])
        d[TIFFTag.tileLength] = .longs([UInt32(tile)])
        d.data = TIFFImageData(
            offsetsTag: TIFFTag.tileOffsets, countsTag: TIFFTag.tileByteCounts, blobs: [.bytes(try Self.zeros(64))])
        return TIFFEncoder.encode(d)
    }

    func expectLimit(_ what: String, naming phrase: String, _ body: () throws -> Void) {
        do {
            try body()
            Issue.record("\(what) decoded")
        } catch let error as CodecError {
            guard case .limitExceeded(let name, _, _) = error, name.contains(phrase) else {
                Issue.record("\(what): expected limitExceeded naming \(phrase), got \(error)")
                return
            }
        } catch {
            Issue.record("\(what): expected a CodecError, got \(error)")
        }
    }

    @Test("DNG and TIFF headers claiming 100 000 × 100 000 pixels or billions of tiles are refused")
    func hugeHeaders() throws {
        let unlimitedSize = DecodingOptions(
            limits: DecodingLimits(maxPixelCount: .max, maxDimension: .max, maxByteCount: .max))
        // 100 000 × 100 000: 10^10 pixels, 20 GB of 16-bit samples.
        let huge = try Self.dngHeader(width: 100_000, height: 100_000, tile: 256)
        expectLimit("DNG 100000×100000", naming: "dimension") { _ = try ImageFile.read(data: huge) }
        expectLimit("DNG 60000×60000", naming: "pixel count") {
            _ = try ImageFile.read(data: try Self.dngHeader(width: 60_000, height: 60_000, tile: 256))
        }
        // 65 535 × 65 535 pixels in 1 × 1 tiles: 4.29 billion tiles, refused by the tile count even when
        // the size limits are lifted.
        let tiles = try Self.dngHeader(width: 65_535, height: 65_535, tile: 1)
        expectLimit("DNG with 4.29 billion tiles", naming: "tile count") {
            _ = try ImageFile.read(data: tiles, options: unlimitedSize)
        }
        let tiffTiles = Self.tiff(width: 65_535, height: 65_535, tile: (1, 1), data: try Self.zeros(64))
        expectLimit("TIFF with 4.29 billion tiles", naming: "tile count") {
            _ = try ImageFile.read(data: tiffTiles, options: unlimitedSize)
        }
        // Header reads never allocate pixels and still describe the file.
        #expect((try? ImageFile.info(data: huge))?.width == 100_000)
    }

    @Test("the total memory of a decode honours maxByteCount: image plus one strip must fit")
    func totalAllocationLimit() throws {
        // 512 × 512 RGB 16-bit in one Deflate strip: the output is 2 MiB of RGBA16, one strip decompresses to
        // 1.5 MiB of bytes and 1.5 MiB of samples — 5 MiB in all.
        let width = 512
        let file = Self.tiff(width: width, height: width, samples: 3, bits: 16, data: try Self.zeros(width * width * 6))
        let output = width * width * 8
        let strip = width * width * 6 * 2 + width
        func read(_ bytes: Int) throws(CodecError) -> PixelBuffer {
            try ImageFile.read(data: file, options: DecodingOptions(limits: DecodingLimits(maxByteCount: bytes))).pixels
        }
        expectLimit("5 MiB decode under a 4 MiB limit") { _ = try read(4 << 20) }
        expectLimit("one byte short") { _ = try read(output + strip - 1) }
        #expect(try read(output + strip).width == width)
        // The pixels alone (the check every decoder made before) are not enough.
        expectLimit("pixels only") { _ = try read(output) }
    }

    @Test("the budget is per decode: allocations that each fit the limit cannot add up past it")
    func budgetSumsAllocations() throws {
        // A 512 × 512 RGBA PNG (1 MiB of pixels) whose compressed XMP iTXt chunk inflates to 1 MiB.
        let side = 512
        let xmp = [UInt8](repeating: 0x20, count: 1 << 20)
        var chunk = Array("XML:com.adobe.xmp".utf8) + [0, 1, 0, 0, 0]
        chunk += try TIFFDecompression.deflate(xmp, level: 9)
        let png = Self.insertingChunk(
            "iTXt", chunk, into: try PNG.encode(TestImages.gradient(width: side, height: side)))
        #expect(png.count < 16 << 10)
        func read(_ limit: Int) throws(CodecError) -> ImageFile {
            try ImageFile.read(data: png, options: DecodingOptions(limits: DecodingLimits(maxByteCount: limit)))
        }
        let pixels = side * side * 4
        // Each allocation fits 1.5 MiB, both together (2 MiB, hand-added) do not: refused before the pixels.
        #expect(
            throws: CodecError.limitExceeded(
                what: "PNG image pixels: total decoding memory", value: xmp.count + pixels, limit: 3 << 19)
        ) { _ = try read(3 << 19) }
        let file = try read(xmp.count + pixels)
        #expect(file.metadata.xmp == xmp)
        #expect(file.pixels.width == side)
        // XMP that alone does not fit is dropped (metadata is optional), then the pixels are refused alone.
        #expect(throws: CodecError.limitExceeded(what: "PNG image byte count", value: pixels, limit: pixels - 1)) {
            _ = try read(pixels - 1)
        }
    }

    /// `png` with a chunk inserted after IHDR (CRC-32 computed bit by bit, ISO 3309 polynomial 0xEDB88320).
    static func insertingChunk(_ type: String, _ data: [UInt8], into png: [UInt8]) -> [UInt8] {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in Array(type.utf8) + data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        crc ^= 0xFFFF_FFFF
        func be(_ v: UInt32) -> [UInt8] {
            [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
        }
        let afterIHDR = 8 + 8 + 13 + 4
        return Array(png[..<afterIHDR]) + be(UInt32(data.count)) + Array(type.utf8) + data + be(crc)
            + Array(png[afterIHDR...])
    }

    @Test("decodes run fewer chunks in parallel rather than exceed the limit")
    func concurrencyShrinksToFit() throws {
        func chunks(_ output: Int, _ chunk: Int, threads: Int) throws(CodecError) -> Int {
            try DecodingBudget(limit: 1000).reserveChunkedDecode(
                outputBytes: output, chunkBytes: chunk, threads: threads, what: "t")
        }
        #expect(try chunks(400, 100, threads: 8) == 6)
        #expect(try chunks(400, 100, threads: 2) == 2)
        #expect(try chunks(900, 100, threads: 8) == 1)
        expectLimit("no room for one chunk") { _ = try chunks(901, 100, threads: 8) }
        expectLimit("overflow") { _ = try chunks(1, .max, threads: 1) }
        // A tiled image decoded with the memory for a single tile still decodes, and to the same pixels.
        let image = TestImages.gradient(width: 256, height: 128).converted(to: .rgba16)
        let tiled = try TIFF.encode(image, options: EncodingOptions(tiffCompression: .deflate, tiffTileSize: 32))
        let wide = try ImageFile.read(data: tiled, options: DecodingOptions(threads: 4)).pixels
        let tight = try ImageFile.read(
            data: tiled,
            options: DecodingOptions(limits: DecodingLimits(maxByteCount: 256 * 128 * 8 + 32 * 32 * 8 * 3), threads: 4)
        ).pixels
        #expect(wide.components(as: UInt16.self) == tight.components(as: UInt16.self))
        #expect(wide.components(as: UInt16.self) == image.components(as: UInt16.self))
    }

    @Test("progressive JPEGs: the scan count and libjpeg's coefficient memory are limited")
    func progressiveJPEG() throws {
        // libjpeg's standard progression for Y′CbCr has 10 scans (jcparam.c jpeg_simple_progression).
        let image = TestImages.gradient(width: 1000, height: 1000)
        let progressive = try JPEG.encode(
            image, options: EncodingOptions(chromaSubsampling: .none, isProgressive: true))
        func read(_ limits: DecodingLimits) throws(CodecError) -> PixelBuffer {
            try JPEG.decode(progressive, options: DecodingOptions(limits: limits)).pixels
        }
        expectLimit("10 scans with a limit of 9") { _ = try read(DecodingLimits(maxProgressiveScans: 9)) }
        #expect(try read(DecodingLimits(maxProgressiveScans: 10)).width == 1000)
        // The whole-image coefficient buffers: 3 components × 1000 × 1000 × 2 bytes ≈ 6 MB next to 4 MB of
        // RGBA output.
        let output = 1000 * 1000 * 4
        expectLimit("coefficients beyond the limit") { _ = try read(DecodingLimits(maxByteCount: output + (1 << 20))) }
        #expect(try read(DecodingLimits(maxByteCount: output + (16 << 20))).width == 1000)
        // A baseline JPEG needs no whole-image buffer: the same limit decodes it.
        let baseline = try JPEG.encode(image)
        #expect(
            try JPEG.decode(
                baseline, options: DecodingOptions(limits: DecodingLimits(maxByteCount: output + (1 << 20)))
            )
            .pixels.width == 1000)
    }

    @Test("an uncompressed preview claiming 4 billion × 4 billion pixels is refused instead of overflowing")
    func hugePreview() {
        let preview = EmbeddedPreview(
            width: 1 << 32, height: 1 << 32, encoding: .uncompressed, newSubfileType: 1, samplesPerPixel: 3,
            bitsPerSample: 8, previewColorSpace: nil, byteRanges: [], data: [1, 2, 3])
        expectLimit("preview 2^32 × 2^32") { _ = try preview.image() }
    }

    @Test("a lossy-JPEG DNG tile whose JPEG is far larger than the tile is refused")
    func lossyDNGTileBomb() throws {
        // A 16 × 16 Linear Raw DNG (Compression 34892) whose only tile is a 1000 × 600 JPEG.
        let jpeg = try JPEG.encode(TestImages.gradient(width: 1000, height: 600))
        var d = TIFFOutputDirectory()
        d[TIFFTag.newSubfileType] = .longs([0])
        d[TIFFTag.imageWidth] = .longs([16])
        d[TIFFTag.imageLength] = .longs([16])
        d[TIFFTag.bitsPerSample] = .shorts([8, 8, 8])
        d[TIFFTag.compression] = .shorts([34892])
        d[TIFFTag.photometric] = .shorts([34892])
        d[TIFFTag.samplesPerPixel] = .shorts([3])
        d[TIFFTag.tileWidth] = .longs([16])
        d[TIFFTag.tileLength] = .longs([16])
        d[TIFFTag.dngVersion] = .bytes([1, 4, 0, 0])
        d.data = TIFFImageData(
            offsetsTag: TIFFTag.tileOffsets, countsTag: TIFFTag.tileByteCounts, blobs: [.bytes(jpeg)])
        let bomb = TIFFEncoder.encode(d)
        do {
            _ = try ImageFile.read(data: bomb)
            Issue.record("decoded")
        } catch .malformed(_, _, let reason) {
            #expect(reason.contains("1000×600") && reason.contains("16×16"), "\(reason)")
        } catch {
            Issue.record("expected malformed, got \(error)")
        }
        // The same file with a tile-sized JPEG decodes.
        d.data = TIFFImageData(
            offsetsTag: TIFFTag.tileOffsets, countsTag: TIFFTag.tileByteCounts,
            blobs: [.bytes(try JPEG.encode(TestImages.gradient(width: 16, height: 16)))])
        #expect(try ImageFile.read(data: TIFFEncoder.encode(d)).pixels.width == 16)
    }
}
