import Foundation
import LuxCodecs
import LuxColor
import LuxPixels
import LuxTestSupport
import Testing

/// CMYK and YCCK JPEGs and CMYK TIFFs written by vips and ImageMagick, decoded to sRGB and compared with lcms2's and the writers'
/// own conversions (mean |d| ≤ 1.5 levels).
@Suite("CMYK JPEG and TIFF")
struct CMYKJPEGTests {
    /// A 96 × 64 photograph cut from a sample by vips, written in `dir`.
    static func photo(in dir: URL) throws -> String {
        let path = dir.appendingPathComponent("photo.png").path
        let cut = try ExternalTool.capture(
            "vips", ["extract_area", try TestData.path("heic/iphone8plus.heic"), path, "600", "600", "96", "64"])
        try #require(cut.status == 0, "vips: \(cut.errorText)")
        return path
    }

    /// The mean absolute difference in levels between Lux's decode of `path` and the PPM/PGM `reference`.
    static func meanDifference(_ path: String, reference: String) throws -> Double {
        let ours = try ImageFile.read(url: URL(fileURLWithPath: path)).pixels
        let theirs = try NetpbmImage(Data(contentsOf: URL(fileURLWithPath: reference)))
        try #require(ours.width == theirs.width && ours.height == theirs.height && theirs.channels == 3)
        let rgba = ours.converted(to: .rgba8)
        var total = 0
        rgba.withUnsafePlane { plane in
            for y in 0..<ours.height {
                let row = plane.row(y, as: UInt8.self)
                for x in 0..<ours.width {
                    for c in 0..<3 {
                        total += abs(Int(row[4 * x + c]) - Int(theirs.samples[(y * ours.width + x) * 3 + c]))
                    }
                }
            }
        }
        return Double(total) / Double(3 * ours.width * ours.height)
    }

    /// Runs a tool and requires success.
    static func run(_ tool: String, _ arguments: [String]) throws {
        let r = try ExternalTool.capture(tool, arguments)
        try #require(r.status == 0, "\(tool): \(r.errorText)")
    }

    @Test(
        "a vips CMYK JPEG with its profile (Adobe-inverted) matches jpgicc's sRGB conversion for two intents, and vips's for relative",
        .needs("vips", "jpgicc"), arguments: [RenderingIntent.relativeColorimetric, .perceptual])
    func vipsCMYK(_ intent: RenderingIntent) throws {
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let cmyk = dir.appendingPathComponent("cmyk.jpg").path
        try Self.run("vips", ["icc_transform", try Self.photo(in: dir), cmyk, "cmyk", "--intent", "relative"])
        let header = try JPEGHeader(bytes: [UInt8](Data(contentsOf: URL(fileURLWithPath: cmyk))))
        #expect(header.isCMYK && header.adobeTransform != nil && header.iccProfile != nil)

        var options = DecodingOptions()
        options.renderingIntent = intent
        let file = try ImageFile.read(url: URL(fileURLWithPath: cmyk), options: options)
        #expect(file.pixels.colorSpace == .sRGB && file.metadata.iccProfile == nil)
        let decoded = dir.appendingPathComponent("lux.png")
        try ImageFile.write(file.pixels, to: decoded)

        if intent == .relativeColorimetric {
            // vips's perceptual rendering to its own sRGB profile differs from lcms2's (2.4 levels), so only
            // jpgicc — Little CMS itself — is the oracle for that intent.
            let vips = dir.appendingPathComponent("vips.ppm").path
            try Self.run("vips", ["icc_transform", cmyk, vips, "srgb", "--embedded", "--intent", intent.rawValue])
            let d = try Self.meanDifference(decoded.path, reference: vips)
            #expect(d <= 1.5, "mean |d| against vips: \(d)")
        }

        let jpgicc = dir.appendingPathComponent("jpgicc.jpg").path
        try Self.run("jpgicc", ["-t\(intent.iccValue)", "-q100", cmyk, jpgicc])
        let jpgiccPPM = dir.appendingPathComponent("jpgicc.ppm").path
        try Self.run("vips", ["copy", jpgicc, jpgiccPPM])
        let j = try Self.meanDifference(decoded.path, reference: jpgiccPPM)
        #expect(j <= 1.5, "mean |d| against jpgicc: \(j)")
    }

    @Test(
        "a vips CMYK TIFF (8 and 16 bits) with its profile matches tificc's and vips's sRGB conversions",
        .needs("vips", "tificc"), arguments: [8, 16])
    func vipsCMYKTIFF(_ depth: Int) throws {
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let cmyk = dir.appendingPathComponent("cmyk.tif").path
        try Self.run(
            "vips",
            ["icc_transform", try Self.photo(in: dir), cmyk, "cmyk", "--intent", "relative", "--depth", "\(depth)"])
        let info = try ImageFile.info(url: URL(fileURLWithPath: cmyk))
        #expect(info.colorModel == .cmyk && info.bitsPerSample == depth && info.iccProfile?.dataColorSpace == .cmyk)
        let file = try ImageFile.read(url: URL(fileURLWithPath: cmyk))
        #expect(file.pixels.format == (depth == 8 ? .rgba8 : .rgba16) && file.metadata.iccProfile == nil)
        let decoded = dir.appendingPathComponent("lux.png")
        try ImageFile.write(file.pixels.converted(to: .rgba8), to: decoded)

        let vips = dir.appendingPathComponent("vips.ppm").path
        try Self.run(
            "vips", ["icc_transform", cmyk, vips, "srgb", "--embedded", "--intent", "relative", "--depth", "8"])
        let d = try Self.meanDifference(decoded.path, reference: vips)
        #expect(d <= 1.5, "mean |d| against vips: \(d)")

        let tificc = dir.appendingPathComponent("tificc.tif").path
        try Self.run("tificc", ["-t1", "-w8", cmyk, tificc])
        let tificcPPM = dir.appendingPathComponent("tificc.ppm").path
        try Self.run("vips", ["copy", tificc, tificcPPM])
        let t = try Self.meanDifference(decoded.path, reference: tificcPPM)
        #expect(t <= 1.5, "mean |d| against tificc: \(t)")
    }

    @Test(
        "vips's JPEG-compressed TIFFs (tiles and strips, Y′CbCr 4:2:0 with JPEGTables; gray) decode like vips decodes them",
        .needs("vips", "tiffinfo"),
        arguments: [["--tile"], [], ["--tile", "--tile-width", "32", "--tile-height", "16"]])
    func jpegInTIFF(_ layout: [String]) throws {
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let photo = try Self.photo(in: dir)
        let tiff = dir.appendingPathComponent("jpeg.tif").path
        try Self.run("vips", ["tiffsave", photo, tiff, "--compression", "jpeg"] + layout)
        let fields = try ExternalTool.capture("tiffinfo", [tiff]).text
        #expect(fields.contains("JPEG") && fields.contains("YCbCr"), "\(fields)")
        #expect(try ImageFile.info(url: URL(fileURLWithPath: tiff)).storage.hasPrefix("JPEG"))
        let file = try ImageFile.read(url: URL(fileURLWithPath: tiff))
        let decoded = dir.appendingPathComponent("lux.png")
        try ImageFile.write(file.pixels, to: decoded)
        let reference = dir.appendingPathComponent("vips.ppm").path
        try Self.run("vips", ["copy", tiff, reference])
        let d = try Self.meanDifference(decoded.path, reference: reference)
        #expect(d <= 1.5, "mean |d| against vips: \(d)")
        // The region reader (lux convert's path) decodes the same tiles.
        let reader = try ImageRegionReader(url: URL(fileURLWithPath: tiff))
        var region = PixelBuffer(width: 40, height: 30, format: reader.pixelFormat)
        try region.withUnsafeMutablePlane { plane throws(CodecError) in
            try reader.read(x: 20, y: 10, width: 40, height: 30, into: plane)
        }
        #expect(region.pixel(x: 5, y: 5) == file.pixels.pixel(x: 25, y: 15))

        let gray = dir.appendingPathComponent("gray.tif").path
        let bw = dir.appendingPathComponent("bw.v").path
        try Self.run("vips", ["colourspace", photo, bw, "b-w"])
        try Self.run("vips", ["tiffsave", bw, gray, "--compression", "jpeg"] + layout)
        let grayFile = try ImageFile.read(url: URL(fileURLWithPath: gray))
        #expect(grayFile.pixels.format == .gray8)
        let grayReference = dir.appendingPathComponent("gray.pgm").path
        try Self.run("vips", ["copy", gray, grayReference])
        let expected = try NetpbmImage(Data(contentsOf: URL(fileURLWithPath: grayReference)))
        let ours = TestImages.rgbSamples(grayFile.pixels)
        #expect(ours.count == expected.samples.count)
        #expect(zip(ours, expected.samples).allSatisfy { abs(Int($0) - Int($1)) <= 1 })
    }

    @Test(
        "an ImageMagick YCCK JPEG without a profile reads as DeviceCMYK, like ImageMagick's own conversion",
        .needs("vips", "convert", "exiftool"))
    func imageMagickYCCK() throws {
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let cmyk = dir.appendingPathComponent("ycck.jpg").path
        try Self.run("convert", [try Self.photo(in: dir), "-colorspace", "CMYK", "-strip", "-quality", "95", cmyk])
        let header = try JPEGHeader(bytes: [UInt8](Data(contentsOf: URL(fileURLWithPath: cmyk))))
        #expect(header.isCMYK && header.adobeTransform == 2 && header.iccProfile == nil)
        let info = try ImageFile.info(url: URL(fileURLWithPath: cmyk))
        #expect(info.colorModel == .cmyk && info.storage.contains("YCCK"))

        let reference = dir.appendingPathComponent("magick.ppm").path
        try Self.run("convert", [cmyk, "-colorspace", "sRGB", reference])
        let d = try Self.meanDifference(cmyk, reference: reference)
        #expect(d <= 1.5, "mean |d| against ImageMagick: \(d)")
    }

    @Test(
        "a CMYK JPEG whose profile is damaged or not CMYK is refused with a typed error naming the file", .needs("vips")
    )
    func damagedProfile() throws {
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let cmyk = dir.appendingPathComponent("cmyk.jpg").path
        try Self.run("vips", ["icc_transform", try Self.photo(in: dir), cmyk, "cmyk", "--intent", "relative"])
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: cmyk)))
        // The profile's 'acsp' signature, 36 bytes into the profile, which starts 14 bytes after "ICC_PROFILE".
        let marker = Array("ICC_PROFILE".utf8)
        let start = try #require(
            (0..<(bytes.count - marker.count)).first { Array(bytes[$0..<$0 + marker.count]) == marker })
        let acsp = start + 14 + 36
        #expect(Array(bytes[acsp..<acsp + 4]) == Array("acsp".utf8))
        bytes[acsp] = UInt8(ascii: "x")
        let damaged = dir.appendingPathComponent("damaged.jpg")
        try Data(bytes).write(to: damaged)
        #expect {
            try ImageFile.read(url: damaged)
        } throws: { error in
            guard case CodecError.malformed(let what, _, _) = error else { return false }
            return what.contains("damaged.jpg") && what.contains("ICC profile")
        }
    }
}
