import Foundation
import LuxColor
import LuxPixels
import LuxTestSupport
import Testing

@testable import LuxCodecs

/// TIFF reading and writing, with libtiff's tools as oracles.
@Suite struct TIFFTests {
    static let formats: [PixelFormat] = [.rgba8, .rgba16, .rgbaHalf, .rgbaFloat, .gray8, .gray16, .grayFloat]
    static let layouts: [(String, EncodingOptions)] = [
        ("strips", EncodingOptions()), ("tiles", EncodingOptions(tiffTileSize: 32)),
        ("deflate strips", EncodingOptions(tiffCompression: .deflate)),
        ("deflate tiles", EncodingOptions(tiffCompression: .deflate, tiffTileSize: 16)),
    ]

    @Test(
        "integer and float TIFFs round-trip exactly and tiffinfo accepts them", .needs("tiffinfo"), arguments: formats,
        layouts.map(\.0))
    func roundTrip(_ format: PixelFormat, _ layout: String) throws {
        let options = Self.layouts.first { $0.0 == layout }!.1
        var image = TestImages.gradient(width: 70, height: 37, format: format, alpha: format.hasAlpha)
        if format.isFloatingPoint { image.colorSpace = .extendedLinearSRGB }
        let bytes = try TIFF.encode(image, options: options)
        let back = try TIFF.decode(bytes)
        #expect(back.pixels.format == format)
        #expect(back.pixels.components(as: UInt8.self) == image.components(as: UInt8.self))
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("t.tiff")
        try Data(bytes).write(to: url)
        let info = try ExternalTool.capture("tiffinfo", ["-D", url.path])
        #expect(info.status == 0)
        #expect(!info.errorText.contains("Error"), "\(info.errorText)")
    }

    /// tiffcp rewrites a Lux TIFF in each layout; Lux must read the same pixels.
    static let tiffcpVariants: [(String, [String])] = [
        ("LZW", ["-c", "lzw"]), ("LZW + predictor 2", ["-c", "lzw:2"]), ("Deflate + predictor 2", ["-c", "zip:2"]),
        ("PackBits", ["-c", "packbits"]), ("tiles 48", ["-t", "-w", "48", "-l", "48"]), ("planar", ["-p", "separate"]),
        ("big-endian", ["-B"]), ("one row per strip", ["-r", "1"]), ("BigTIFF", ["-8"]),
    ]

    @Test(
        "TIFFs rewritten by tiffcp decode to the same pixels", .needs("tiffcp"), arguments: tiffcpVariants.map(\.0),
        [PixelFormat.rgba8, .rgba16, .gray16])
    func rewrittenByTiffcp(_ name: String, _ format: PixelFormat) throws {
        // tiffcp converts to planar storage for 8-bit samples only.
        if name == "planar", format != .rgba8 { return }
        let args = Self.tiffcpVariants.first { $0.0 == name }!.1
        let image = TestImages.gradient(width: 101, height: 67, format: format, alpha: format == .rgba8)
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let src = dir.appendingPathComponent("src.tiff")
        let dst = dir.appendingPathComponent("dst.tiff")
        try ImageFile.write(image, to: src)
        let run = try ExternalTool.capture("tiffcp", args + [src.path, dst.path])
        #expect(run.status == 0, "\(run.errorText)")
        let back = try ImageFile.read(url: dst)
        #expect(back.pixels.components(as: UInt8.self) == image.components(as: UInt8.self))
    }

    @Test(
        "float TIFFs rewritten by tiffcp (floating-point predictor, big-endian) decode exactly",
        .needs("tiffcp"), arguments: [PixelFormat.rgbaFloat, .rgbaHalf, .grayFloat])
    func floatPredictor(_ format: PixelFormat) throws {
        var image = TestImages.gradient(width: 50, height: 20, format: format)
        image.colorSpace = .extendedLinearSRGB
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let src = dir.appendingPathComponent("src.tiff")
        let dst = dir.appendingPathComponent("dst.tiff")
        try ImageFile.write(image, to: src)
        // (libtiff itself misreads the big-endian files tiffcp writes with the float predictor, so that
        // combination is no oracle.)
        for args in [["-c", "zip:3"], ["-B"]] {
            try? FileManager.default.removeItem(at: dst)
            let run = try ExternalTool.capture("tiffcp", args + [src.path, dst.path])
            #expect(run.status == 0, "\(run.errorText)")
            let back = try ImageFile.read(url: dst)
            #expect(back.pixels.format == format, "\(args)")
            let same = back.pixels.components(as: UInt8.self) == image.components(as: UInt8.self)
            #expect(same, "\(format) after tiffcp \(args)")
            if args.contains("zip:3") { #expect(try ImageFile.info(url: dst).storage.hasPrefix("Deflate")) }
        }
    }

    @Test("ImageMagick's 16-bit and float TIFFs decode to its own values", .needs("convert"))
    func imageMagickTIFF() throws {
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let src = dir.appendingPathComponent("in.ppm")
        try TestImages.ppm(TestImages.gradient(width: 33, height: 21)).write(to: src)
        for (name, args) in [
            ("sixteen.tiff", ["-depth", "16"]),
            ("float.tiff", ["-depth", "32", "-define", "quantum:format=floating-point"]),
        ] {
            let url = dir.appendingPathComponent(name)
            _ = try ExternalTool.capture("convert", [src.path] + args + [url.path])
            let ours = try ImageFile.read(url: url).pixels.converted(to: .rgba16).components(as: UInt16.self)
            let dump = try ExternalTool.capture("convert", [url.path, "-depth", "16", "rgba:-"]).stdout
            let reference = stride(from: 0, to: dump.count, by: 2).map { UInt16(dump[$0]) << 8 | UInt16(dump[$0 + 1]) }
            let maxError = zip(ours, reference).map { abs(Int($0) - Int($1)) }.max() ?? 99
            #expect(ours.count == reference.count && maxError <= 1, "\(name): max error \(maxError)")
        }
    }

    @Test("an embedded ICC profile and Exif IFD are written where exiftool finds them", .needs("exiftool"))
    func metadata() throws {
        var m = ImageMetadata()
        m.exif.make = "Lux"
        m.exif.isoSpeed = 100
        m.iccProfile = nil
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("m.tiff")
        try ImageFile.write(TestImages.gradient(width: 8, height: 8), metadata: m, to: url)
        let e = try Fixtures.exiftool(url.path)
        #expect(e["Make"] as? String == "Lux" && e["ISO"] as? Int == 100)
        #expect(try ImageFile.read(url: url).metadata.exif.isoSpeed == 100)
    }
}
