import Foundation
import LuxTestSupport
import Testing

/// `lux convert` from JPEG to JPEG renders only what changes the picture.
///
/// An unchanged re-encode goes from the file's Y′CbCr planes to the encoder's; anything that changes the picture
/// (orientation, size, colour space) renders it. Judged by vips and exiftool.
@Suite struct ConvertReencodeTests {
    static let photo = "livephoto/iphone6s_livephoto_train.jpg"

    /// A quarter-size copy of the iPhone photo, written by vips (4:2:0, the photo's Exif).
    static func smallPhoto(in dir: URL) throws -> String {
        let out = dir.appendingPathComponent("small.jpg").path
        try ExternalTool.capture("vips", ["resize", try TestData.path(photo), out + "[Q=92]", "0.25"]).succeeded()
        return out
    }

    @Test(
        "the iPhone photo re-encoded at q90: ≥ 40 dB to libjpeg's decode of it (vips), its size, and its Exif and GPS as exiftool reads them",
        .needsLux, .needs("vips", "exiftool"))
    func unchangedReencode() throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try ExternalTool.temporaryFolder("lux-reencode")
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try TestData.path(Self.photo)
        let out = dir.appendingPathComponent("out.jpg").path
        try LuxExecutable.run(lux, ["convert", input, "-o", out, "--quality", "90"]).succeeded()
        let ours = try ConvertCommandTests.samples(out, in: dir)
        let theirs = try ConvertCommandTests.samples(input, in: dir)
        #expect(ours.width == 4032 && ours.height == 3024)
        #expect(psnr(ours.samples, theirs.samples, peak: 255) >= 40)
        func tags(_ path: String) throws -> [String: String] {
            let r = try ExternalTool.capture(
                "exiftool", ["-json", "-G1", "-n", "-IFD0:all", "-ExifIFD:all", "-GPS:all", path])
            let list = try JSONSerialization.jsonObject(with: r.stdout) as? [[String: Any]]
            return try #require(list?.first).filter { $0.key != "SourceFile" }.mapValues { "\($0)" }
        }
        let kept = try tags(out)
        let original = try tags(input)
        for key in [
            "IFD0:Make", "IFD0:Model", "ExifIFD:DateTimeOriginal", "ExifIFD:ExposureTime", "GPS:GPSLatitude",
            "GPS:GPSLongitude",
        ] {
            #expect(kept[key] != nil && kept[key] == original[key], "\(key)")
        }
    }

    @Test(
        "an orientation to apply, --size and --color-space p3 are rendered: upright and rotated as vips autorot, resized as vips (≥ 35 dB each), sRGB red converted as vips icc_transform to the profile written (3 levels)",
        .needsLux, .needs("vips", "exiftool"))
    func changesAreRendered() throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try ExternalTool.temporaryFolder("lux-reencode")
        defer { try? FileManager.default.removeItem(at: dir) }
        let small = try Self.smallPhoto(in: dir)
        let rotated = dir.appendingPathComponent("rotated.jpg").path
        try FileManager.default.copyItem(atPath: small, toPath: rotated)
        try ExternalTool.capture("exiftool", ["-q", "-overwrite_original", "-Orientation#=6", rotated]).succeeded()
        let upright = dir.appendingPathComponent("upright.jpg").path
        try ExternalTool.capture("vips", ["autorot", rotated, upright + "[Q=100]"]).succeeded()

        func convert(_ input: String, _ name: String, _ extra: [String]) throws -> String {
            let out = dir.appendingPathComponent(name).path
            try LuxExecutable.run(lux, ["convert", input, "-o", out, "--quality", "95"] + extra).succeeded()
            return out
        }
        func check(_ ours: String, _ reference: String, width: Int, height: Int) throws {
            let a = try ConvertCommandTests.samples(ours, in: dir)
            let b = try ConvertCommandTests.samples(reference, in: dir)
            #expect(a.width == width && a.height == height && b.width == width && b.height == height, "\(ours)")
            #expect(psnr(a.samples, b.samples, peak: 255) >= 35, "\(ours)")
        }
        try check(try convert(rotated, "rotated-out.jpg", []), upright, width: 756, height: 1008)

        let resized = dir.appendingPathComponent("resized.png").path
        try ExternalTool.capture("vips", ["resize", small, resized, "0.5", "--kernel", "lanczos3"]).succeeded()
        try check(try convert(small, "small-out.jpg", ["--size", "504x504"]), resized, width: 504, height: 378)

        // sRGB red becomes about (234, 51, 35) in Display P3: what vips icc_transform makes with the profile written.
        var ppm = Data("P6\n64 64\n255\n".utf8)
        for _ in 0..<(64 * 64) { ppm.append(contentsOf: [255, 0, 0]) }
        let redPPM = dir.appendingPathComponent("red.ppm")
        try ppm.write(to: redPPM)
        let red = dir.appendingPathComponent("red.jpg").path
        try ExternalTool.capture("vips", ["copy", redPPM.path, red + "[Q=95]"]).succeeded()
        let p3 = try convert(red, "red-p3.jpg", ["--color-space", "p3"])
        let profile = dir.appendingPathComponent("p3.icc")
        try ExternalTool.capture("exiftool", ["-b", "-icc_profile", p3]).succeeded().stdout.write(to: profile)
        let converted = dir.appendingPathComponent("red-vips.png").path
        try ExternalTool.capture("vips", ["icc_transform", red, converted, profile.path, "--intent", "relative"])
            .succeeded()
        let ours = try ConvertCommandTests.samples(p3, in: dir)
        let theirs = try ConvertCommandTests.samples(converted, in: dir)
        let centre = 3 * (32 * 64 + 32)
        for c in 0..<3 {
            #expect(abs(Int(ours.samples[centre + c]) - Int(theirs.samples[centre + c])) <= 3, "channel \(c)")
        }
        #expect(ours.samples[centre] < 245 && ours.samples[centre + 1] > 30)
    }

    @Test(
        "a truncated JPEG: a typed error naming the file, exit status 1, and no output file (nor a temporary one)",
        .needsLux, .needs("vips"))
    func truncatedInput() throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try ExternalTool.temporaryFolder("lux-reencode")
        defer { try? FileManager.default.removeItem(at: dir) }
        let small = try Self.smallPhoto(in: dir)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: small))
        let cut = dir.appendingPathComponent("cut.jpg")
        try bytes.prefix(bytes.count / 2).write(to: cut)
        let outDir = dir.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: outDir, withIntermediateDirectories: true)
        let r = try LuxExecutable.run(lux, ["convert", cut.path, "-o", outDir.appendingPathComponent("cut.jpg").path])
        #expect(r.status == 1)
        #expect(r.errorText.contains("cut.jpg") && r.errorText.contains("truncated"), "\(r.errorText)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outDir.path).isEmpty)
    }
}
