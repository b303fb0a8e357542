import Foundation
import LuxColor
import LuxPixels
import LuxTestSupport
import Testing

@testable import LuxCodecs

/// Raw storage variants other writers use: packed 10/12/14-bit samples, Deflate with predictors, float data,
/// big-endian files, strips; checked against dcraw where it reads them and against values built by hand.
@Suite struct DNGStorageTests {
    /// A minimal CFA DNG directory around the given strip, or around `chunks`: strips of `rowsPerStrip` rows, or
    /// tiles of `tile` size when it is given.
    static func dng(
        width: Int, height: Int, bits: Int, compression: Int, strip: [UInt8] = [], predictor: Int? = nil,
        sampleFormat: Int? = nil, bigEndian: Bool = false, chunks: [[UInt8]]? = nil, rowsPerStrip: Int? = nil,
        tile: (width: Int, height: Int)? = nil
    ) -> [UInt8] {
        var d = TIFFOutputDirectory()
        d[TIFFTag.newSubfileType] = .longs([0])
        d[TIFFTag.imageWidth] = .longs([UInt32(width)])
        d[TIFFTag.imageLength] = .longs([UInt32(height)])
        d[TIFFTag.bitsPerSample] = .shorts([UInt16(bits)])
        d[TIFFTag.compression] = .shorts([UInt16(compression)])
        d[TIFFTag.photometric] = .shorts([32803])
        d[TIFFTag.samplesPerPixel] = .shorts([1])
        if let tile {
            d[TIFFTag.tileWidth] = .longs([UInt32(tile.width)])
            d[TIFFTag.tileLength] = .longs([UInt32(tile.height)])
        } else {
            d[TIFFTag.rowsPerStrip] = .longs([UInt32(rowsPerStrip ?? height)])
        }
        if let predictor { d[TIFFTag.predictor] = .shorts([UInt16(predictor)]) }
        if let sampleFormat { d[TIFFTag.sampleFormat] = .shorts([UInt16(sampleFormat)]) }
        d[TIFFTag.cfaRepeatPatternDim] = .shorts([2, 2])
        d[TIFFTag.cfaPattern] = .bytes([1, 0, 2, 1])  // GRBG
        d[TIFFTag.make] = .ascii("Lux")
        d[TIFFTag.model] = .ascii("Packed")
        d[TIFFTag.dngVersion] = .bytes([1, 4, 0, 0])
        d[TIFFTag.uniqueCameraModel] = .ascii("Lux Packed")
        d[TIFFTag.colorMatrix1] = .signedRationals(
            SyntheticRaw.xyzToCamera.entries.map { Rational(Int64($0 * 10000), 10000) })
        d[TIFFTag.calibrationIlluminant1] = .shorts([21])
        d[TIFFTag.whiteLevel] = .longs([UInt32(min((1 << bits) - 1, 65535))])
        d.data = TIFFImageData(
            offsetsTag: tile == nil ? TIFFTag.stripOffsets : TIFFTag.tileOffsets,
            countsTag: tile == nil ? TIFFTag.stripByteCounts : TIFFTag.tileByteCounts,
            blobs: (chunks ?? [strip]).map { .bytes($0) })
        return TIFFEncoder.encode(d, bigEndian: bigEndian)
    }

    /// MSB-first bit packing with each row starting on a byte (TIFF 6.0 / DNG).
    static func pack(_ values: [UInt16], width: Int, bits: Int) -> [UInt8] {
        var out: [UInt8] = []
        for row in stride(from: 0, to: values.count, by: width) {
            var acc = 0
            var n = 0
            for v in values[row..<(row + width)] {
                acc = acc << bits | Int(v)
                n += bits
                while n >= 8 {
                    out.append(UInt8((acc >> (n - 8)) & 255))
                    n -= 8
                }
            }
            if n > 0 { out.append(UInt8((acc << (8 - n)) & 255)) }
        }
        return out
    }

    static func values(width: Int, height: Int, bits: Int) -> [UInt16] {
        (0..<(width * height)).map { UInt16(($0 * 7919 + $0 / width * 31) % (1 << bits)) }
    }

    @Test("packed samples decode to the values dcraw reads", .needs("dcraw"), arguments: [10, 12, 14])
    func packed(_ bits: Int) throws {
        let (w, h) = (45, 24)  // odd width: rows end mid-byte; dcraw needs ≥ 22 × 22
        let v = Self.values(width: w, height: h, bits: bits)
        let bytes = Self.dng(width: w, height: h, bits: bits, compression: 1, strip: Self.pack(v, width: w, bits: bits))
        let file = try DNG.decode(bytes)
        #expect(file.pixels.format == .bayer16(.grbg))
        #expect(file.pixels.components(as: UInt16.self) == v)
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("p\(bits).dng")
        try Data(bytes).write(to: url)
        let run = try ExternalTool.capture("dcraw", ["-D", "-4", "-c", url.path])
        #expect(run.status == 0, "\(run.errorText)")
        let pgm = try NetpbmImage(run.stdout)
        #expect(pgm.samples == v)
    }

    @Test("16-bit samples in a big-endian file decode correctly (dcraw agrees)", .needs("dcraw"))
    func bigEndian16() throws {
        let (w, h) = (32, 24)
        let v = Self.values(width: w, height: h, bits: 16)
        let strip = v.flatMap { [UInt8($0 >> 8), UInt8($0 & 255)] }
        let bytes = Self.dng(width: w, height: h, bits: 16, compression: 1, strip: strip, bigEndian: true)
        #expect(try DNG.decode(bytes).pixels.components(as: UInt16.self) == v)
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("be.dng")
        try Data(bytes).write(to: url)
        #expect(try NetpbmImage(ExternalTool.capture("dcraw", ["-D", "-4", "-c", url.path]).stdout).samples == v)
    }

    @Test(
        "Deflate with horizontal differencing (predictors 2 and 34892) decodes to the original values",
        arguments: [2, 34892])
    func deflateInteger(_ predictor: Int) throws {
        let (w, h) = (24, 6)
        let v = Self.values(width: w, height: h, bits: 16)
        let stride = predictor == 2 ? 1 : 2
        var differenced = v
        for y in 0..<h {
            for x in Swift.stride(from: w - 1, through: stride, by: -1) {
                differenced[y * w + x] = v[y * w + x] &- v[y * w + x - stride]
            }
        }
        let raw = differenced.flatMap { [UInt8($0 & 255), UInt8($0 >> 8)] }
        let strip = try TIFFDecompression.deflate(raw)
        let bytes = Self.dng(width: w, height: h, bits: 16, compression: 8, strip: strip, predictor: predictor)
        #expect(try DNG.decode(bytes).pixels.components(as: UInt16.self) == v)
    }

    @Test("32-bit float data with the floating-point predictor decodes to the original values")
    func deflateFloat() throws {
        let (w, h) = (16, 4)
        let v: [Float] = (0..<(w * h)).map { Float($0) / 37 - 0.25 }
        // Predictor 3: per row, bytes regrouped most significant first, then byte-differenced.
        var rows: [UInt8] = []
        for y in 0..<h {
            var planes = [UInt8](repeating: 0, count: w * 4)
            for x in 0..<w {
                let bits = v[y * w + x].bitPattern
                for b in 0..<4 { planes[b * w + x] = UInt8((bits >> UInt32(24 - 8 * b)) & 255) }
            }
            for i in Swift.stride(from: planes.count - 1, through: 1, by: -1) { planes[i] = planes[i] &- planes[i - 1] }
            rows += planes
        }
        let bytes = Self.dng(
            width: w, height: h, bits: 32, compression: 8, strip: try TIFFDecompression.deflate(rows), predictor: 3,
            sampleFormat: 3)
        let file = try DNG.decode(bytes)
        #expect(file.pixels.format == .grayFloat)
        #expect(file.pixels.components(as: Float.self) == v)
    }

    @Test("the preview Lux embeds is the one exiftool extracts, and lux's extraction matches it", .needs("exiftool"))
    func previews() throws {
        var raw = SyntheticRaw.image(width: 128, height: 96)
        var rendered = PixelBuffer(width: 400, height: 300, format: .rgba8, colorSpace: .sRGB)
        for y in 0..<300 {
            for x in 0..<400 { rendered.setPixel(SIMD4(Float(x) / 400, 0.5, Float(y) / 300, 1), x: x, y: y) }
        }
        raw.renderedPreview = rendered
        let bytes = try DNG.encode(raw)
        let back = try #require(try DNG.decode(bytes).rawImage)
        #expect(back.previews.count == 2)
        let large = try #require(back.largestPreview)
        #expect(large.encoding == .jpeg && large.width == 400 && large.height == 300)
        let decoded = try large.image()
        let p = decoded.pixel(x: 200, y: 150)
        #expect(abs(p.x - 0.5) < 0.05 && abs(p.y - 0.5) < 0.05 && abs(p.z - 0.5) < 0.05)
        let thumb = try #require(back.previews.first { $0.encoding == .uncompressed })
        #expect(try thumb.image().width == thumb.width)
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("preview.dng")
        try Data(bytes).write(to: url)
        let extracted = try ExternalTool.capture("exiftool", ["-b", "-PreviewImage", url.path]).stdout
        let same = [UInt8](extracted) == large.data
        #expect(same, "exiftool extracted \(extracted.count) bytes, Lux \(large.data?.count ?? 0)")
    }
}
