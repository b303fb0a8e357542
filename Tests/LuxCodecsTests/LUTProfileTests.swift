import Foundation
import LuxCodecs
import LuxColor
import LuxPixels
import LuxTestSupport
import Testing

/// RGB and gray files carrying a LUT-based ICC profile (A2B tags holding a CLUT, no colorants or tone curves) written by
/// Little CMS itself, decoded by Lux to sRGB and compared with `jpgicc`'s, `tificc`'s and vips's conversions.
@Suite("LUT-based RGB and gray profiles")
struct LUTProfileTests {
    /// Writes the LUT profile (`Tests/Data/reference/lut_rgb_profile.py`: sRGB with its channels rotated) in `dir`.
    ///
    /// With `gray`, the gray LUT profile (device gray v is the sRGB gray v^0.6).
    static func lutProfile(in dir: URL, gray: Bool = false) throws -> String {
        let path = dir.appendingPathComponent(gray ? "lut-gray.icc" : "lut.icc").path
        try CMYKJPEGTests.run(
            "python3", [TestData.root + "/reference/lut_rgb_profile.py"] + (gray ? ["--gray"] : []) + [path])
        return path
    }

    @Test(
        "a gray JPEG and PNG with a LUT-based gray profile match jpgicc's and vips's sRGB conversions",
        .needs("python3", "vips", "jpgicc"))
    func lutGray() throws {
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let profile = try Self.lutProfile(in: dir, gray: true)
        // A horizontal ramp 0…255 made by vips, saved with the profile embedded.
        let ramp = dir.appendingPathComponent("ramp.v").path
        try CMYKJPEGTests.run("vips", ["xyz", ramp + ".xy.v", "256", "48"])
        try CMYKJPEGTests.run("vips", ["extract_band", ramp + ".xy.v", ramp + ".x.v", "0"])
        try CMYKJPEGTests.run("vips", ["cast", ramp + ".x.v", ramp, "uchar"])
        let jpeg = dir.appendingPathComponent("gray.jpg").path
        let png = dir.appendingPathComponent("gray.png").path
        try CMYKJPEGTests.run("vips", ["jpegsave", ramp, jpeg, "--Q", "100", "--profile", profile])
        try CMYKJPEGTests.run("vips", ["pngsave", ramp, png, "--profile", profile])
        #expect(try ImageFile.info(url: URL(fileURLWithPath: png)).iccProfileDescription == "Lux test LUT gray")

        func decoded(_ path: String) throws -> String {
            let file = try ImageFile.read(url: URL(fileURLWithPath: path))
            #expect(file.metadata.iccProfile == nil, "the profile is applied, not carried")
            let out = path + ".lux.png"
            try ImageFile.write(file.pixels, to: URL(fileURLWithPath: out))
            return out
        }
        let jpgicc = dir.appendingPathComponent("jpgicc.jpg").path
        try CMYKJPEGTests.run("jpgicc", ["-t1", "-q100", "-o", "*sRGB", jpeg, jpgicc])
        let jpgiccPPM = jpgicc + ".ppm"
        try CMYKJPEGTests.run("vips", ["copy", jpgicc, jpgiccPPM])
        let j = try CMYKJPEGTests.meanDifference(try decoded(jpeg), reference: jpgiccPPM)
        #expect(j <= 1.5, "JPEG: mean |d| against jpgicc: \(j)")

        let vips = dir.appendingPathComponent("vips.ppm").path
        try CMYKJPEGTests.run("vips", ["icc_transform", png, vips, "srgb", "--embedded", "--intent", "relative"])
        let luxPNG = try decoded(png)
        let v = try CMYKJPEGTests.meanDifference(luxPNG, reference: vips)
        #expect(v <= 1.5, "PNG: mean |d| against vips: \(v)")

        // The profile matters: the ramp read as sRGB gray is far from the conversion (up to 40 levels at mid-grey).
        let unconverted = dir.appendingPathComponent("ramp.ppm").path
        try CMYKJPEGTests.run("vips", ["colourspace", ramp, unconverted, "srgb"])
        let ignored = try CMYKJPEGTests.meanDifference(luxPNG, reference: unconverted)
        #expect(ignored > 10, "mean |d| between the conversion and the unconverted ramp: \(ignored)")
    }

    @Test(
        "a JPEG, TIFF and PNG with a LUT-based RGB profile match jpgicc's, tificc's and vips's sRGB conversions",
        .needs("python3", "vips", "jpgicc", "tificc"))
    func lutRGB() throws {
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let photo = try CMYKJPEGTests.photo(in: dir)
        let profile = try Self.lutProfile(in: dir)
        let jpeg = dir.appendingPathComponent("lut.jpg").path
        let tiff = dir.appendingPathComponent("lut.tif").path
        let png = dir.appendingPathComponent("lut.png").path
        try CMYKJPEGTests.run("vips", ["jpegsave", photo, jpeg, "--Q", "95", "--profile", profile])
        try CMYKJPEGTests.run("vips", ["tiffsave", photo, tiff, "--profile", profile])
        try CMYKJPEGTests.run("vips", ["pngsave", photo, png, "--profile", profile])
        #expect(try ImageFile.info(url: URL(fileURLWithPath: jpeg)).iccProfileDescription == "Lux test LUT RGB")

        func decoded(_ path: String) throws -> String {
            let file = try ImageFile.read(url: URL(fileURLWithPath: path))
            #expect(file.pixels.colorSpace == .sRGB && file.metadata.iccProfile == nil)
            let out = dir.appendingPathComponent(URL(fileURLWithPath: path).lastPathComponent + ".lux.png").path
            try ImageFile.write(file.pixels, to: URL(fileURLWithPath: out))
            return out
        }
        func ppm(_ path: String) throws -> String {
            let out = path + ".ppm"
            try CMYKJPEGTests.run("vips", ["copy", path, out])
            return out
        }
        let jpgicc = dir.appendingPathComponent("jpgicc.jpg").path
        try CMYKJPEGTests.run("jpgicc", ["-t1", "-q100", jpeg, jpgicc])
        let j = try CMYKJPEGTests.meanDifference(try decoded(jpeg), reference: try ppm(jpgicc))
        #expect(j <= 1.5, "JPEG: mean |d| against jpgicc: \(j)")

        let tificc = dir.appendingPathComponent("tificc.tif").path
        try CMYKJPEGTests.run("tificc", ["-t1", "-w8", tiff, tificc])
        let luxTIFF = try decoded(tiff)
        let t = try CMYKJPEGTests.meanDifference(luxTIFF, reference: try ppm(tificc))
        #expect(t <= 1.5, "TIFF: mean |d| against tificc: \(t)")

        let vips = dir.appendingPathComponent("vips.ppm").path
        try CMYKJPEGTests.run("vips", ["icc_transform", png, vips, "srgb", "--embedded", "--intent", "relative"])
        let v = try CMYKJPEGTests.meanDifference(try decoded(png), reference: vips)
        #expect(v <= 1.5, "PNG: mean |d| against vips: \(v)")

        // The profile matters: the samples read as sRGB are far from the conversion.
        let ignored = try CMYKJPEGTests.meanDifference(luxTIFF, reference: try ppm(photo))
        #expect(ignored > 5, "mean |d| between the conversion and the unconverted samples: \(ignored)")

        // The region reader (lux convert's path for TIFF) converts through the profile too.
        let reader = try ImageRegionReader(url: URL(fileURLWithPath: tiff))
        var region = PixelBuffer(width: 8, height: 8, format: reader.pixelFormat)
        try region.withUnsafeMutablePlane { plane throws(CodecError) in
            try reader.read(x: 40, y: 30, width: 8, height: 8, into: plane)
        }
        let whole = try ImageFile.read(url: URL(fileURLWithPath: tiff)).pixels
        #expect(region.pixel(x: 3, y: 3) == whole.pixel(x: 43, y: 33))
    }

    @Test(
        "a damaged LUT-based RGB profile is refused with a typed error naming the file, by the reader and the region reader",
        .needs("python3", "vips"), arguments: ["jpg", "tif"])
    func damagedLUTProfile(_ suffix: String) throws {
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let profilePath = try Self.lutProfile(in: dir)
        var profile = [UInt8](try Data(contentsOf: URL(fileURLWithPath: profilePath)))
        // The tag count (offset 128) claims more tags than the profile holds. (libpng refuses to write such a
        // profile into a PNG, so only JPEG and TIFF carry it.)
        profile[128...131] = [0, 0, 0x10, 0]
        let damagedProfile = dir.appendingPathComponent("damaged.icc")
        try Data(profile).write(to: damagedProfile)
        let damaged = dir.appendingPathComponent("damaged.\(suffix)")
        try CMYKJPEGTests.run(
            "vips",
            [
                "\(suffix == "jpg" ? "jpeg" : "tiff")save", try CMYKJPEGTests.photo(in: dir),
                damaged.path, "--profile", damagedProfile.path,
            ])
        func namesTheFile(_ error: any Error) -> Bool {
            guard case CodecError.malformed(let what, _, _) = error else { return false }
            return what.contains("damaged.\(suffix)") && what.contains("ICC profile")
        }
        #expect(performing: { try ImageFile.read(url: damaged) }, throws: namesTheFile)
        if suffix == "tif" {
            #expect(performing: { try ImageRegionReader(url: damaged) }, throws: namesTheFile)
        }
    }
}
