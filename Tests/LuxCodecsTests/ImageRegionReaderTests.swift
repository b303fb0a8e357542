import Foundation
import LuxColor
import LuxPixels
import LuxTestSupport
import Testing

@testable import LuxCodecs

/// Region reads agree with whole-image decodes in every TIFF layout libtiff writes, and with vips' crop.
@Suite struct ImageRegionReaderTests {
    static let variants: [(String, [String])] = [
        ("strips", []), ("one row per strip", ["-r", "1"]), ("tiles 48", ["-t", "-w", "48", "-l", "48"]),
        ("LZW tiles 32", ["-c", "lzw", "-t", "-w", "32", "-l", "32"]), ("Deflate + predictor", ["-c", "zip:2"]),
        ("planar", ["-p", "separate"]), ("big-endian", ["-B"]),
    ]

    /// Rectangles crossing chunk edges, single pixels, whole rows and the whole image.
    static func regions(width: Int, height: Int) -> [(Int, Int, Int, Int)] {
        var generator = SplitMix(seed: 7)
        var out = [(0, 0, width, height), (width - 1, height - 1, 1, 1), (0, 17, width, 3), (5, 0, 1, height)]
        for _ in 0..<20 {
            let x = Int(generator.next() % UInt64(width))
            let y = Int(generator.next() % UInt64(height))
            let w = 1 + Int(generator.next() % UInt64(width - x))
            let h = 1 + Int(generator.next() % UInt64(height - y))
            out.append((x, y, w, h))
        }
        return out
    }

    /// Every layout in every format, except planar files in formats other than RGBA8 (tiffcp makes planar files from
    /// 8-bit RGB only).
    static let layoutsAndFormats: [(String, PixelFormat)] = variants.map(\.0).flatMap { variant in
        [PixelFormat.rgba8, .rgba16, .gray8].filter { variant != "planar" || $0 == .rgba8 }.map { (variant, $0) }
    }

    @Test(
        "regions of TIFFs rewritten by tiffcp match the whole decode", .needs("tiffcp"),
        arguments: layoutsAndFormats)
    func regionsMatchWholeDecode(_ variant: String, _ format: PixelFormat) throws {
        let args = Self.variants.first { $0.0 == variant }!.1
        let image = TestImages.gradient(width: 141, height: 93, format: format, alpha: format == .rgba8)
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let src = dir.appendingPathComponent("src.tif")
        let dst = dir.appendingPathComponent("dst.tif")
        try ImageFile.write(image, to: src)
        let run = try ExternalTool.capture("tiffcp", args + [src.path, dst.path])
        #expect(run.status == 0, "\(run.errorText)")
        let whole = try ImageFile.read(url: dst).pixels
        // A cache smaller than one chunk row still works (it keeps one row).
        let reader = try ImageRegionReader(url: dst, cacheLimit: 1)
        #expect(reader.width == 141 && reader.height == 93 && reader.pixelFormat == whole.format)
        for (x, y, w, h) in Self.regions(width: 141, height: 93) {
            let region = try reader.read(x: x, y: y, width: w, height: h)
            let expected = try whole.view(x: x, y: y, width: w, height: h).converted(to: whole.format)
            let same = region.components(as: UInt8.self) == expected.components(as: UInt8.self)
            #expect(same, "\(variant) \(format): region \(x),\(y) \(w)×\(h)")
        }
    }

    @Test(
        "uncompressed strips over 256 KiB are read in pieces and still match the whole decode", .needs("tiffcp"),
        arguments: [
            ("one strip", ["-r", "120"]), ("37-row strips", ["-r", "37"]),
            ("planar, one strip", ["-p", "separate", "-r", "120"]),
        ])
    func largeStripsAreReadByRows(_ variant: String, _ args: [String]) throws {
        // 3000 × 120 RGBA8: one strip is 1.4 MB (cut into 21-row pieces); 37-row strips into rows (37 is prime);
        // the planes of a planar file into 87-row pieces.
        let image = TestImages.gradient(width: 3000, height: 120, format: .rgba8, alpha: true)
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let src = dir.appendingPathComponent("src.tif")
        let dst = dir.appendingPathComponent("dst.tif")
        try ImageFile.write(image, to: src)
        let run = try ExternalTool.capture("tiffcp", args + ["-c", "none", src.path, dst.path])
        try #require(run.status == 0, "\(run.errorText)")
        let whole = try ImageFile.read(url: dst).pixels
        let reader = try ImageRegionReader(url: dst, cacheLimit: 1)
        for (x, y, w, h) in Self.regions(width: 3000, height: 120) {
            let region = try reader.read(x: x, y: y, width: w, height: h)
            let expected = try whole.view(x: x, y: y, width: w, height: h).converted(to: whole.format)
            let same = region.components(as: UInt8.self) == expected.components(as: UInt8.self)
            #expect(same, "\(variant): region \(x),\(y) \(w)×\(h)")
        }
    }

    @Test("a region equals vips' crop of the same file", .needs("vips"))
    func matchesVipsCrop() throws {
        let image = TestImages.gradient(width: 200, height: 150, format: .rgba16)
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let src = dir.appendingPathComponent("src.tif")
        try ImageFile.write(image, to: src, options: EncodingOptions(alpha: .discard, tiffCompression: .deflate))
        let raw = dir.appendingPathComponent("crop.raw")
        let crop = try ExternalTool.capture(
            "vips", ["crop", src.path, dir.appendingPathComponent("c.v").path, "37", "21", "90", "77"])
        #expect(crop.status == 0, "\(crop.errorText)")
        _ = try ExternalTool.capture("vips", ["rawsave", dir.appendingPathComponent("c.v").path, raw.path])
        let vipsBytes = [UInt8](try Data(contentsOf: raw))
        let ours = try ImageRegionReader(url: src).read(x: 37, y: 21, width: 90, height: 77).components(as: UInt16.self)
        // vips keeps RGB in host order; ours is RGBA.
        var rgb: [UInt16] = []
        for i in stride(from: 0, to: ours.count, by: 4) { rgb += ours[i..<i + 3] }
        let theirs = stride(from: 0, to: vipsBytes.count, by: 2).map {
            UInt16(vipsBytes[$0]) | UInt16(vipsBytes[$0 + 1]) << 8
        }
        #expect(rgb == theirs)
    }

    @Test("bad regions and files are refused with typed errors")
    func refusals() throws {
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("a.tif")
        try ImageFile.write(TestImages.gradient(width: 20, height: 10), to: url)
        let reader = try ImageRegionReader(url: url)
        #expect(throws: CodecError.self) { _ = try reader.read(x: 15, y: 0, width: 6, height: 1) }
        #expect(throws: CodecError.self) { _ = try reader.read(x: 0, y: -1, width: 1, height: 1) }
        #expect(throws: CodecError.self) { _ = try ImageRegionReader(url: dir.appendingPathComponent("none.tif")) }
        // A file cut short inside its pixel data fails when the missing strip is read, not before.
        var bytes = [UInt8](try Data(contentsOf: url))
        let cut = dir.appendingPathComponent("cut.tif")
        bytes.removeLast(bytes.count - 400)
        try Data(bytes).write(to: cut)
        if let short = try? ImageRegionReader(url: cut) {
            #expect(throws: CodecError.self) { _ = try short.read(x: 0, y: 0, width: 20, height: 10) }
        }
    }

    @Test(
        "a reader is opaque exactly when the file stores no alpha (tiffinfo's extra samples as the oracle)",
        .needs("tiffinfo"))
    func opacity() throws {
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        for alpha in [false, true] {
            let url = dir.appendingPathComponent("a\(alpha).tif")
            try ImageFile.write(TestImages.gradient(width: 20, height: 10, format: .rgba8, alpha: alpha), to: url)
            let reader = try ImageRegionReader(url: url)
            #expect(reader.isOpaque == !alpha)
            let info = try ExternalTool.capture("tiffinfo", [url.path])
            #expect(info.text.contains("Extra Samples") == alpha, "\(info.text)")
        }
        let jpeg = dir.appendingPathComponent("a.jpg")
        try ImageFile.write(TestImages.gradient(width: 20, height: 10), to: jpeg)
        #expect(try ImageRegionReader(url: jpeg).isOpaque)
    }

    @Test("PNG (decoded whole) and JPEG (decoded by rows) regions equal the whole decode")
    func otherFormats() throws {
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let image = TestImages.gradient(width: 64, height: 40)
        for name in ["a.png", "a.jpg"] {
            let url = dir.appendingPathComponent(name)
            try ImageFile.write(image, to: url)
            let whole = try ImageFile.read(url: url).pixels
            let region = try ImageRegionReader(url: url).read(x: 3, y: 5, width: 30, height: 20)
            let expected = try whole.view(x: 3, y: 5, width: 30, height: 20).converted(to: whole.format)
            #expect(region.components(as: UInt8.self) == expected.components(as: UInt8.self))
        }
    }
}
