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
        "a planar CMYK TIFF (tiffcp -p separate) and a CMYK TIFF with alpha (vips) match tificc's conversion, alpha kept",
        .needs("vips", "tificc", "tiffcp"))
    func planarAndAlphaCMYKTIFF() throws {
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let photo = try Self.photo(in: dir)
        let cmyk = dir.appendingPathComponent("cmyk.tif").path
        try Self.run("vips", ["icc_transform", photo, cmyk, "cmyk", "--intent", "relative"])
        let planar = dir.appendingPathComponent("planar.tif").path
        try Self.run("tiffcp", ["-p", "separate", cmyk, planar])
        let green = dir.appendingPathComponent("green.v").path
        try Self.run("vips", ["extract_band", photo, green, "1"])
        let withAlpha = dir.appendingPathComponent("cmyka.tif").path
        try Self.run("vips", ["bandjoin", "\(cmyk) \(green)", withAlpha])

        for path in [planar, withAlpha] {
            let name = URL(fileURLWithPath: path).lastPathComponent
            let file = try ImageFile.read(url: URL(fileURLWithPath: path))
            #expect(file.pixels.format == .rgba8 && file.metadata.iccProfile == nil, "\(name)")
            let decoded = dir.appendingPathComponent(name + ".lux.png")
            try ImageFile.write(file.pixels, to: decoded)
            // tificc 2.14 writes planar input as a planar RGB file with empty strips: it converts tiffcp's source,
            // which holds the same samples interleaved.
            let tificc = dir.appendingPathComponent(name + ".tificc.tif").path
            try Self.run("tificc", ["-t1", "-w8", path == planar ? cmyk : path, tificc])
            let rgb = dir.appendingPathComponent(name + ".tificc.ppm").path
            try Self.run("vips", ["extract_band", tificc, rgb, "0", "--n", "3"])
            let d = try Self.meanDifference(decoded.path, reference: rgb)
            #expect(d <= 1.5, "\(name): mean |d| against tificc: \(d)")
            if path == withAlpha {
                // tificc copies the alpha as it is; it is the photograph's green channel.
                let alpha = dir.appendingPathComponent("alpha.pgm").path
                try Self.run("vips", ["extract_band", tificc, alpha, "3"])
                let expected = try NetpbmImage(Data(contentsOf: URL(fileURLWithPath: alpha)))
                let ours = (0..<file.pixels.height).flatMap { y in
                    (0..<file.pixels.width).map { x in UInt16(file.pixels.pixel(x: x, y: y)[3] * 255 + 0.5) }
                }
                #expect(ours == expected.samples, "alpha differs from the file's")
                #expect(try ImageFile.info(url: URL(fileURLWithPath: path)).hasAlpha)
            }
        }
    }

    @Test(
        "an old-style JPEG TIFF (compression 6) is refused with a typed error saying so",
        .needs("vips"))
    func oldStyleJPEG() throws {
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let tiff = dir.appendingPathComponent("jpeg.tif").path
        try Self.run("vips", ["tiffsave", try Self.photo(in: dir), tiff, "--compression", "jpeg"])
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: tiff)))
        // vips writes little-endian TIFF: IFD0's Compression entry (tag 259, SHORT) gets the value 6.
        #expect(bytes[0] == UInt8(ascii: "I"))
        func u16(_ i: Int) -> Int { Int(bytes[i]) | Int(bytes[i + 1]) << 8 }
        let ifd = u16(4) | u16(6) << 16
        let entry = try #require((0..<u16(ifd)).map { ifd + 2 + 12 * $0 }.first { u16($0) == 259 })
        #expect(u16(entry + 8) == 7)
        bytes[entry + 8] = 6
        let old = dir.appendingPathComponent("old.tif")
        try Data(bytes).write(to: old)
        #expect {
            try ImageFile.read(url: old)
        } throws: { error in
            guard case CodecError.unsupported(let what, _) = error else { return false }
            return what.contains("old-style JPEG")
        }
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
