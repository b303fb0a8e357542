import Foundation
import LuxTestSupport
import Testing

/// `lux convert` and `lux filter` keep the input's channels: opaque stays opaque, gray stays gray, 16 bits stay 16
/// bits, and no output carries a profile of another colour model (checked by pngcheck, vipsheader and exiftool).
@Suite("Channels kept")
struct ChannelsKeptTests {
    /// vipsheader's field `name` of `path`.
    static func header(_ path: String, _ name: String) throws -> String {
        let r = try ExternalTool.capture("vipsheader", ["-f", name, path])
        try #require(r.status == 0, "vipsheader: \(r.errorText)")
        return r.text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs a command and requires success.
    static func run(_ tool: String, _ arguments: [String]) throws {
        let r = try ExternalTool.capture(tool, arguments)
        try #require(r.status == 0, "\(tool): \(r.errorText)")
    }

    /// The mean absolute difference of two images in levels, by vips.
    static func meanDifference(_ a: String, _ b: String, in dir: URL) throws -> Double {
        try ConvertCommandTests.difference(a, b, in: dir).mean
    }

    /// A 96 × 64 photograph cut by vips from a sample and saved as `name` (any format vips writes).
    static func input(_ name: String, in dir: URL) throws -> String {
        let path = dir.appendingPathComponent(name).path
        try run("vips", ["extract_area", try TestData.path("heic/iphone8plus.heic"), path, "600", "600", "96", "64"])
        return path
    }

    @Test(
        "lux filter keeps alpha for an opaque input when the chain uncovers corners (a rotation), not when it clamps (Straighten)",
        .needsLux, .needs("vips", "vipsheader", "pngcheck"))
    func rotationKeepsAlpha() throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try ExternalTool.temporaryFolder("lux-channels")
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try Self.input("in.jpg", in: dir)
        let rotated = dir.appendingPathComponent("rotated.png").path
        // 30° about the origin: the corners of the bounding box lie outside the picture.
        let r = try LuxExecutable.run(
            lux,
            ["filter", input, "--chain", "AffineTransform transform=0.866025,0.5,-0.5,0.866025,0,0", "-o", rotated])
        try #require(r.status == 0, "\(r.errorText)")
        #expect(try Self.header(rotated, "bands") == "4")
        let check = try ExternalTool.capture("pngcheck", [rotated])
        #expect(check.status == 0 && check.text.contains("RGB+alpha"), "\(check.text)")
        func alpha(_ x: Int, _ y: Int) throws -> Double? {
            let p = try ExternalTool.capture("vips", ["getpoint", rotated, "\(x)", "\(y)"])
            return p.text.split(separator: " ").compactMap {
                Double($0.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            .last
        }
        let width = try #require(Int(try Self.header(rotated, "width")))
        let height = try #require(Int(try Self.header(rotated, "height")))
        #expect(try alpha(0, 0) == 0, "top-left corner is outside the rotated picture")
        #expect(try alpha(width / 2, height / 2) == 255, "the centre is inside it")

        let straightened = dir.appendingPathComponent("straightened.png").path
        let s = try LuxExecutable.run(
            lux, ["filter", input, "--chain", "StraightenFilter angle=0.2", "-o", straightened])
        try #require(s.status == 0, "\(s.errorText)")
        #expect(try Self.header(straightened, "bands") == "3", "Straighten clamps its edges: nothing is uncovered")
    }

    @Test(
        "an opaque JPEG or RGB PNG gives a PNG and a TIFF without alpha (pngcheck: 24-bit RGB; vipsheader: 3 bands)",
        .needsLux, .needs("vips", "vipsheader", "pngcheck"), arguments: ["in.jpg", "in.png"])
    func opaqueStaysOpaque(_ name: String) throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try ExternalTool.temporaryFolder("lux-channels")
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try Self.input(name, in: dir)
        for (command, ext) in [("convert", "png"), ("convert", "tif"), ("filter", "png")] {
            let out = dir.appendingPathComponent("\(command).\(ext)").path
            let arguments =
                command == "convert"
                ? ["convert", input, "-o", out] : ["filter", input, "--chain", "ExposureAdjust ev=0", "-o", out]
            let r = try LuxExecutable.run(lux, arguments)
            try #require(r.status == 0, "\(r.errorText)")
            #expect(try Self.header(out, "bands") == "3", "\(command) → \(ext)")
            if ext == "png" {
                let check = try ExternalTool.capture("pngcheck", [out])
                #expect(check.status == 0 && check.text.contains("24-bit RGB"), "\(check.text)")
            }
        }
    }

    @Test(
        "a gray PNG stays one gray channel with a gray profile, within 1.5 levels of the input; --color-space srgb gives RGB",
        .needsLux, .needs("vips", "vipsheader", "pngcheck", "exiftool"))
    func grayStaysGray() throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try ExternalTool.temporaryFolder("lux-channels")
        defer { try? FileManager.default.removeItem(at: dir) }
        let cut = try Self.input("cut.png", in: dir)
        let input = dir.appendingPathComponent("gray.png").path
        try Self.run("vips", ["colourspace", cut, input, "b-w"])
        try #require(try Self.header(input, "bands") == "1")

        for ext in ["png", "tif"] {
            let out = dir.appendingPathComponent("out.\(ext)").path
            let r = try LuxExecutable.run(lux, ["convert", input, "-o", out])
            try #require(r.status == 0, "\(r.errorText)")
            #expect(try Self.header(out, "bands") == "1")
            let tags = try ExternalTool.capture("exiftool", ["-s3", "-ColorSpaceData", out]).text
            #expect(tags.trimmingCharacters(in: .whitespacesAndNewlines) == "GRAY", "profile colour space: \(tags)")
            let d = try Self.meanDifference(out, input, in: dir)
            #expect(d <= 1.5, "mean |d| against the input: \(d)")
        }
        let check = try ExternalTool.capture("pngcheck", [dir.appendingPathComponent("out.png").path])
        #expect(check.status == 0 && check.text.contains("grayscale"), "\(check.text)")

        let rgb = dir.appendingPathComponent("rgb.png").path
        let r = try LuxExecutable.run(lux, ["convert", input, "-o", rgb, "--color-space", "srgb"])
        try #require(r.status == 0, "\(r.errorText)")
        #expect(try Self.header(rgb, "bands") == "3")
        let tags = try ExternalTool.capture("exiftool", ["-s3", "-ColorSpaceData", rgb]).text
        #expect(!tags.contains("GRAY"))
        let vips = dir.appendingPathComponent("vips.png").path
        try Self.run("vips", ["colourspace", input, vips, "srgb"])
        let d = try Self.meanDifference(rgb, vips, in: dir)
        #expect(d <= 1.5, "mean |d| against vips's conversion: \(d)")
    }

    @Test(
        "a 16-bit PNG gives a 16-bit PNG and TIFF by default",
        .needsLux, .needs("vips", "vipsheader", "pngcheck"))
    func sixteenBitsStay() throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try ExternalTool.temporaryFolder("lux-channels")
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try Self.input("deep.png", in: dir)
        let deep = dir.appendingPathComponent("deep16.png").path
        try Self.run("vips", ["colourspace", input, deep, "rgb16"])
        for ext in ["png", "tif"] {
            let out = dir.appendingPathComponent("out.\(ext)").path
            let r = try LuxExecutable.run(lux, ["convert", deep, "-o", out])
            try #require(r.status == 0, "\(r.errorText)")
            #expect(try Self.header(out, "format").contains("USHORT"))
            #expect(try Self.header(out, "bands") == "3")
        }
        let check = try ExternalTool.capture("pngcheck", [dir.appendingPathComponent("out.png").path])
        #expect(check.text.contains("48-bit RGB"), "\(check.text)")
    }

    @Test(
        "lux info reports a CMYK JPEG's colour model and its profile's class and colour space",
        .needsLux, .needs("vips"))
    func infoReportsColorModel() throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try ExternalTool.temporaryFolder("lux-channels")
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try Self.input("photo.png", in: dir)
        let cmyk = dir.appendingPathComponent("cmyk.jpg").path
        try Self.run("vips", ["icc_transform", input, cmyk, "cmyk"])
        let r = try LuxExecutable.run(lux, ["info", "--json", cmyk])
        try #require(r.status == 0, "\(r.errorText)")
        let json = try #require(try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any])
        let pixels = try #require(json["pixels"] as? [String: Any])
        #expect(pixels["colorModel"] as? String == "cmyk")
        #expect(pixels["samplesPerPixel"] as? Int == 4)
        let profile = try #require(json["iccProfile"] as? [String: Any])
        #expect(profile["deviceClass"] as? String == "output")
        #expect(profile["colorSpace"] as? String == "CMYK")
    }
}
