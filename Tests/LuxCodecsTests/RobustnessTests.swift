import Foundation
import LuxPixels
import LuxTestSupport
import Testing

@testable import LuxCodecs

/// Hostile input: truncated and bit-flipped files, absurd headers, and writers that must not leave debris.
@Suite struct RobustnessTests {
    /// Small limits keep corrupted headers from making the test slow (they are still refused or bounded).
    static let fuzzOptions = DecodingOptions(limits: DecodingLimits(maxPixelCount: 16_000_000), threads: 2)

    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 11
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(n, 1))) }
    }

    /// Every file of the test data, plus small files Lux writes in each format.
    static var corpus: [String] {
        [
            "livephoto/iphone6s_livephoto_train.jpg", "livephoto/iphone6s_livephoto_train.mov", "raw/kodak_dc50.kdc",
            "raw/kodak_c330_headerless.raw",
        ] + Fixtures.genuineDNGs + Fixtures.syntheticDNGs + Fixtures.metadataOnly
            + [
                "generated.jpg", "generated-progressive.jpg", "generated.png", "generated-16.png", "generated.tiff",
                "generated-deflate-tiles.tiff", "generated-lj92.dng", "generated-uncompressed.dng",
                "generated-linear.dng",
            ]
    }

    static func bytes(of name: String) throws -> [UInt8] {
        let image = TestImages.gradient(width: 96, height: 64)
        switch name {
        case "generated.jpg": return try JPEG.encode(image)
        case "generated-progressive.jpg": return try JPEG.encode(image, options: EncodingOptions(isProgressive: true))
        case "generated.png": return try PNG.encode(image)
        case "generated-16.png": return try PNG.encode(image.converted(to: .rgba16))
        case "generated.tiff": return try TIFF.encode(image)
        case "generated-deflate-tiles.tiff":
            return try TIFF.encode(
                image.converted(to: .rgba16), options: EncodingOptions(tiffCompression: .deflate, tiffTileSize: 32))
        case "generated-lj92.dng": return try DNG.encode(SyntheticRaw.image(width: 96, height: 64))
        case "generated-uncompressed.dng":
            return try DNG.encode(
                SyntheticRaw.image(width: 96, height: 64),
                options: EncodingOptions(dng: .init(compression: .uncompressed)))
        case "generated-linear.dng":
            var rgb = image.converted(to: .rgba16)
            rgb.colorSpace = .sRGB
            return try ImageFile(pixels: rgb).encoded(as: .dng)
        default: return try Fixtures.bytes(name)
        }
    }

    /// Decodes `bytes`; a result must be self-consistent.
    static func decodeOrThrow(_ bytes: [UInt8]) -> Bool {
        do {
            let file = try ImageFile.read(data: bytes, options: fuzzOptions)
            #expect(file.pixels.width > 0 && file.pixels.height > 0)
            _ = try? ImageFile.info(data: bytes)
            return true
        } catch {
            #expect(!error.description.isEmpty)
            return false
        }
    }

    @Test("truncated and bit-flipped files never crash: they throw or decode to a consistent image", arguments: corpus)
    func mutations(_ name: String) throws {
        let original = try Self.bytes(of: name)
        let big = original.count > 1_000_000
        // A stable seed (String.hashValue changes per process), so a failure reproduces.
        let seed = name.utf8.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
        var rng = Generator(state: seed | 1)
        let decodesWhole = Self.decodeOrThrow(original)
        // Truncations: a few near the start (headers), then spread over the file.
        let cuts = big ? 6 : 24
        var decodedTruncations = 0
        for k in 0..<cuts {
            let at = k < cuts / 3 ? rng.below(min(original.count, 4096)) : rng.below(original.count)
            if Self.decodeOrThrow(Array(original.prefix(at))) { decodedTruncations += 1 }
        }
        // A truncated copy of a file that decodes must not silently decode (image data is never padded)…
        // except when the cut only removes bytes after the image data (TIFF/DNG may store metadata last).
        if decodesWhole, name.hasSuffix(".jpg") || name.hasSuffix(".png") {
            #expect(decodedTruncations == 0, "\(name): \(decodedTruncations) truncated copies decoded")
        }
        // Bit flips, mostly in the first 64 KiB where the structure is.
        // LUX_FUZZ_ITERATIONS raises the count for a longer local run; the long searches are Fuzz/'s harnesses.
        let scale = Int(ProcessInfo.processInfo.environment["LUX_FUZZ_ITERATIONS"] ?? "") ?? 60
        let flips = big ? 8 : scale
        for k in 0..<flips {
            var copy = original
            let region = k % 4 == 3 ? copy.count : min(copy.count, 65536)
            for _ in 0..<(1 + rng.below(3)) {
                let i = rng.below(region)
                copy[i] ^= UInt8(1 << rng.below(8))
            }
            _ = Self.decodeOrThrow(copy)
        }
    }

    @Test("a truncated 12 MP lossless-JPEG DNG throws instead of returning a partly empty image")
    func truncatedBigDNG() throws {
        let bytes = try Fixtures.bytes(Fixtures.syntheticDNGs[1])
        for fraction in [0.25, 0.5, 0.99] {
            let cut = Array(bytes.prefix(Int(Double(bytes.count) * fraction)))
            #expect(throws: CodecError.self) { _ = try ImageFile.read(data: cut) }
        }
    }

    // MARK: Limits

    static func tiff(width: Int, height: Int, tile: Int? = nil) -> [UInt8] {
        var d = TIFFOutputDirectory()
        d[TIFFTag.imageWidth] = .longs([UInt32(width)])
        d[TIFFTag.imageLength] = .longs([UInt32(height)])
        d[TIFFTag.bitsPerSample] = .shorts([8])
        d[TIFFTag.photometric] = .shorts([1])
        d[TIFFTag.samplesPerPixel] = .shorts([1])
        if let tile {
            d[TIFFTag.tileWidth] = .longs([UInt32(tile)])
            d[TIFFTag.tileLength] = .longs([UInt32(tile)])
            d[TIFFTag.tileOffsets] = .longs([8])
            d[TIFFTag.tileByteCounts] = .longs([1])
        } else {
            d[TIFFTag.stripOffsets] = .longs([8])
            d[TIFFTag.stripByteCounts] = .longs([1])
        }
        return TIFFEncoder.encode(d)
    }

    func expectLimit(_ bytes: [UInt8], _ what: String) {
        do {
            _ = try ImageFile.read(data: bytes)
            Issue.record("\(what) decoded")
        } catch .limitExceeded {
        } catch {
            Issue.record("\(what): expected limitExceeded, got \(error)")
        }
    }

    @Test("headers claiming 100 000 × 100 000 pixels are refused before any allocation")
    func hugeDimensions() throws {
        expectLimit(Self.tiff(width: 100_000, height: 100_000), "TIFF 100000×100000")
        expectLimit(Self.tiff(width: 60_000, height: 60_000), "TIFF 60000×60000")
        // JPEG SOF 65535 × 65535.
        var jpeg = try JPEG.encode(TestImages.gradient(width: 8, height: 8))
        let sof = try #require((0..<(jpeg.count - 1)).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 })
        jpeg.replaceSubrange((sof + 5)..<(sof + 9), with: [0xFF, 0xFF, 0xFF, 0xFF])
        expectLimit(jpeg, "JPEG 65535×65535")
        // PNG IHDR 100 000 × 100 000 (the header parser does not check the CRC; libpng is never reached).
        var png = try PNG.encode(TestImages.gradient(width: 8, height: 8))
        png.replaceSubrange(16..<24, with: PNGTests.be32(100_000) + PNGTests.be32(100_000))
        expectLimit(png, "PNG 100000×100000")
    }

    @Test("a tiled image claiming a hundred million tiles is refused")
    func billionsOfTiles() {
        expectLimit(Self.tiff(width: 10_000, height: 10_000, tile: 1), "TIFF with 1×1 tiles")
    }

    @Test("limits are configurable")
    func configurableLimits() throws {
        let bytes = try PNG.encode(TestImages.gradient(width: 100, height: 100))
        #expect(throws: CodecError.self) {
            _ = try ImageFile.read(data: bytes, options: DecodingOptions(limits: DecodingLimits(maxPixelCount: 9_999)))
        }
        #expect(
            try ImageFile.read(data: bytes, options: DecodingOptions(limits: DecodingLimits(maxPixelCount: 10_000)))
                .pixels.width == 100)
    }

    // MARK: Atomic writes

    @Test("a failed write leaves the original file untouched and no temporary file behind")
    func failedWriteKeepsOriginal() throws {
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("photo.jpg")
        try Data("original".utf8).write(to: url)
        let bayer = PixelBuffer(width: 8, height: 8, format: .bayer16(.rggb))
        #expect(throws: CodecError.self) { try ImageFile.write(bayer, to: url) }
        #expect(try Data(contentsOf: url) == Data("original".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["photo.jpg"])
        // A missing folder fails cleanly too.
        #expect(throws: CodecError.self) {
            try ImageFile.write(
                TestImages.gradient(width: 4, height: 4), to: dir.appendingPathComponent("no/such/dir/x.png"))
        }
    }

    @Test("an empty file is refused as an unknown format (and read without leaking under LeakSanitizer)")
    func emptyFile() throws {
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("empty.jpg")
        #expect(FileManager.default.createFile(atPath: url.path, contents: nil))
        #expect(throws: CodecError.unknownFormat(signature: [])) { _ = try ImageFile.read(url: url) }
        #expect(throws: CodecError.unknownFormat(signature: [])) { _ = try ImageFile.info(url: url) }
    }

    @Test("an endless stream (/dev/zero) is read only up to the memory limit, then refused")
    func endlessStream() throws {
        let options = DecodingOptions(limits: DecodingLimits(maxByteCount: 1 << 20))
        let zero = URL(fileURLWithPath: "/dev/zero")
        let error = #expect(throws: CodecError.self) { _ = try ImageFile.read(url: zero, options: options) }
        guard case .limitExceeded(_, let value, let limit)? = error else {
            Issue.record("expected limitExceeded, got \(String(describing: error))")
            return
        }
        #expect(limit == 1 << 20 && value > limit)
        #expect(throws: CodecError.self) { _ = try ImageFile.info(url: zero, limits: options.limits) }
    }

    @Test("a named pipe is read to its end and decodes like the file it carries")
    func namedPipe() throws {
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let png = try PNG.encode(TestImages.gradient(width: 64, height: 48))
        let fifo = dir.appendingPathComponent("pipe.png")
        try #require(mkfifo(fifo.path, 0o600) == 0)
        let writer = Thread {
            guard let handle = FileHandle(forWritingAtPath: fifo.path) else {
                // Let the reader's open return (and then read nothing) instead of waiting for a writer forever.
                close(open(fifo.path, O_RDWR | O_NONBLOCK))
                return
            }
            handle.write(Data(png))
            try? handle.close()
        }
        writer.start()
        let piped = try ImageFile.read(url: fifo)
        let direct = try ImageFile.read(data: png)
        #expect(piped.pixels.width == 64 && piped.pixels.height == 48)
        #expect(piped.pixels.components(as: UInt8.self) == direct.pixels.components(as: UInt8.self))
    }

    @Test("a successful write replaces the file in one step")
    func successfulWrite() throws {
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("photo.png")
        try Data("original".utf8).write(to: url)
        try ImageFile.write(TestImages.gradient(width: 4, height: 4), to: url)
        #expect(try ImageFile.read(url: url).pixels.width == 4)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["photo.png"])
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        // Readable by others, like a normal file.
        #expect((attributes[.posixPermissions] as? Int).map { $0 & 0o044 } == 0o044)
    }
}

@Suite struct FormatDetectionTests {
    @Test("formats are detected from their bytes")
    func detect() throws {
        let image = TestImages.gradient(width: 8, height: 8)
        #expect(ImageFormat.detect(try JPEG.encode(image)) == .jpeg)
        #expect(ImageFormat.detect(try PNG.encode(image)) == .png)
        #expect(ImageFormat.detect(try TIFF.encode(image)) == .tiff)
        #expect(ImageFormat.detect(try DNG.encode(SyntheticRaw.image(width: 32, height: 32))) == .dng)
        #expect(ImageFormat.detect([0, 1, 2, 3]) == nil)
        #expect(ImageFormat(fileExtension: "JPG") == .jpeg && ImageFormat(fileExtension: "tif") == .tiff)
        #expect(throws: CodecError.self) { _ = try ImageFile.read(data: [0x46, 0x55, 0x4A, 0x49]) }
    }
}
