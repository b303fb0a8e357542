import Foundation
import LuxPixels
import LuxTestSupport
import Testing

@testable import LuxCodecs

/// JPEGs and PNGs read by the region reader are decoded top to bottom as regions ask for rows; the rows equal
/// djpeg's and vips' decodes.
@Suite struct RowWindowTests {
    /// A JPEG vips writes from the Live Photo still (no restart markers, so it is decoded by rows).
    static func makeJPEG(_ variant: String, in dir: URL) throws -> URL {
        let url = dir.appendingPathComponent("\(variant).jpg")
        let still = try TestData.path("livephoto/iphone6s_livephoto_train.jpg")
        let small = dir.appendingPathComponent("small.v")
        let resize = try ExternalTool.capture("vips", ["resize", still, small.path, "0.25"])
        #expect(resize.status == 0, "\(resize.errorText)")
        var source = small.path
        if variant == "gray" {
            let gray = dir.appendingPathComponent("gray.v")
            _ = try ExternalTool.capture("vips", ["colourspace", small.path, gray.path, "b-w"])
            source = gray.path
        }
        let options = ["--Q", "85"] + (variant == "progressive" ? ["--interlace"] : [])
        let save = try ExternalTool.capture("vips", ["jpegsave", source, url.path] + options)
        #expect(save.status == 0, "\(save.errorText)")
        return url
    }

    /// djpeg's decode as (width, height, channels, samples).
    static func djpeg(_ url: URL) throws -> (Int, Int, Int, [UInt8]) {
        let out = url.deletingPathExtension().appendingPathExtension("pnm")
        let run = try ExternalTool.capture("djpeg", ["-pnm", "-outfile", out.path, url.path])
        #expect(run.status == 0, "\(run.errorText)")
        let bytes = [UInt8](try Data(contentsOf: out))
        // "P6\nW H\n255\n" (or P5 for gray), then the samples.
        var fields: [String] = []
        var i = 0
        while fields.count < 4 {
            while bytes[i] == 0x20 || bytes[i] == 0x0A { i += 1 }
            var field = ""
            while bytes[i] != 0x20 && bytes[i] != 0x0A {
                field.append(Character(UnicodeScalar(bytes[i])))
                i += 1
            }
            fields.append(field)
        }
        return (Int(fields[1])!, Int(fields[2])!, fields[0] == "P5" ? 1 : 3, Array(bytes[(i + 1)...]))
    }

    @Test(
        "regions read in strip order, backwards and at random equal djpeg's decode", .needs("vips"), .needs("djpeg"),
        arguments: ["baseline", "progressive", "gray"])
    func matchesDjpeg(_ variant: String) throws {
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = try Self.makeJPEG(variant, in: dir)
        let (width, height, channels, samples) = try Self.djpeg(url)
        let reader = try ImageRegionReader(url: url)
        #expect(reader.width == width && reader.height == height)
        #expect(reader.pixelFormat == (channels == 1 ? .gray8 : .rgba8))
        // Strips of 100 rows with 20 rows of overlap, as a streaming blur asks; then back to the top (a restart),
        // then regions anywhere.
        var regions: [(Int, Int, Int, Int)] = []
        for y in stride(from: 0, to: height, by: 100) {
            let top = max(0, y - 20)
            regions.append((0, top, width, min(height, y + 120) - top))
        }
        regions += ImageRegionReaderTests.regions(width: width, height: height)
        let stride = reader.pixelFormat.bytesPerPixel()
        for (x, y, w, h) in regions {
            let ours = try reader.read(x: x, y: y, width: w, height: h).components(as: UInt8.self)
            var mismatches = 0
            for r in 0..<h {
                for c in 0..<w {
                    for k in 0..<channels
                    where ours[(r * w + c) * stride + k] != samples[((y + r) * width + x + c) * channels + k] {
                        mismatches += 1
                    }
                }
            }
            #expect(mismatches == 0, "region \(x),\(y) \(w)×\(h): \(mismatches) samples differ")
        }
    }

    @Test("a JPEG cut short opens and fails with a typed error when the missing rows are read", .needs("vips"))
    func truncated() throws {
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = try Self.makeJPEG("baseline", in: dir)
        var bytes = [UInt8](try Data(contentsOf: url))
        bytes.removeLast(bytes.count / 2)
        let cut = dir.appendingPathComponent("cut.jpg")
        try Data(bytes).write(to: cut)
        let reader = try ImageRegionReader(url: cut)
        _ = try reader.read(x: 0, y: 0, width: reader.width, height: 8)
        #expect(throws: CodecError.self) {
            _ = try reader.read(x: 0, y: reader.height - 8, width: reader.width, height: 8)
        }
    }

    /// A PNG vips writes from the Live Photo still in `variant`, and vips' own decode of it as raw samples (16-bit
    /// in host order) with its size and band count.
    static func makePNG(_ variant: String, in dir: URL) throws -> (URL, width: Int, height: Int, bands: Int, [UInt8]) {
        let still = try TestData.path("livephoto/iphone6s_livephoto_train.jpg")
        let small = dir.appendingPathComponent("small.v")
        #expect(try ExternalTool.capture("vips", ["resize", still, small.path, "0.2"]).status == 0)
        var source = small.path
        var options: [String] = []
        func step(_ name: String, _ args: [String]) throws {
            let out = dir.appendingPathComponent("\(name).v")
            let run = try ExternalTool.capture("vips", [args[0], source] + [out.path] + args.dropFirst())
            #expect(run.status == 0, "\(run.errorText)")
            source = out.path
        }
        switch variant {
        case "gray": try step("gray", ["colourspace", "b-w"])
        case "rgb16": try step("rgb16", ["colourspace", "rgb16"])
        case "gray16": try step("grey16", ["colourspace", "grey16"])
        case "palette": options = ["--palette"]
        case "interlaced": options = ["--interlace"]
        case "alpha": try step("alpha", ["bandjoin_const", "200"])
        default: break
        }
        let url = dir.appendingPathComponent("\(variant).png")
        let save = try ExternalTool.capture("vips", ["pngsave", source, url.path] + options)
        #expect(save.status == 0, "\(save.errorText)")
        let raw = dir.appendingPathComponent("\(variant).raw")
        #expect(try ExternalTool.capture("vips", ["rawsave", url.path, raw.path]).status == 0)
        func header(_ field: String) throws -> Int {
            Int(
                String(decoding: try ExternalTool.capture("vipsheader", ["-f", field, url.path]).stdout, as: UTF8.self)
                    .trimmingCharacters(
                        in: .whitespacesAndNewlines)) ?? 0
        }
        return (url, try header("width"), try header("height"), try header("bands"), [UInt8](try Data(contentsOf: raw)))
    }

    @Test(
        "PNG regions read in strip order, backwards and at random equal vips' decode; opaque non-interlaced PNGs go by rows",
        .needs("vips"), .needs("vipsheader"),
        arguments: ["rgb8", "rgb16", "gray", "gray16", "palette", "interlaced", "alpha"])
    func pngMatchesVips(_ variant: String) throws {
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (url, width, height, bands, samples) = try Self.makePNG(variant, in: dir)
        let reader = try ImageRegionReader(url: url)
        #expect(reader.width == width && reader.height == height && reader.format == .png)
        #expect(reader.decodesByRows == !["interlaced", "alpha"].contains(variant))
        let sampleBytes = variant.hasSuffix("16") ? 2 : 1
        let channels = reader.pixelFormat.channelCount
        #expect(channels == (bands == 1 ? 1 : 4))
        var regions: [(Int, Int, Int, Int)] = []
        for y in stride(from: 0, to: height, by: 64) {
            let top = max(0, y - 16)
            regions.append((0, top, width, min(height, y + 80) - top))
        }
        regions += ImageRegionReaderTests.regions(width: width, height: height)
        let pixelBytes = reader.pixelFormat.bytesPerPixel()
        for (x, y, w, h) in regions {
            let ours = try reader.read(x: x, y: y, width: w, height: h).components(as: UInt8.self)
            var mismatches = 0
            for r in 0..<h {
                for c in 0..<w {
                    for k in 0..<channels {
                        // A missing alpha band is opaque: all ones.
                        let pixel: Int = ((y + r) * width + x + c) * bands + k
                        let start: Int = pixel * sampleBytes
                        let expected: [UInt8] =
                            k < bands
                            ? Array(samples[start..<(start + sampleBytes)])
                            : [UInt8](repeating: 255, count: sampleBytes)
                        let at: Int = (r * w + c) * pixelBytes + k * sampleBytes
                        if Array(ours[at..<(at + sampleBytes)]) != expected { mismatches += 1 }
                    }
                }
            }
            #expect(mismatches == 0, "\(variant) region \(x),\(y) \(w)×\(h): \(mismatches) samples differ")
        }
    }

    @Test(
        "a PNG damaged in its second half opens and fails with a typed error when the damaged rows are read",
        .needs("vips"), .needs("vipsheader"))
    func damagedPNG() throws {
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (url, _, _, _, _) = try Self.makePNG("rgb8", in: dir)
        var bytes = [UInt8](try Data(contentsOf: url))
        // Overwrite a stretch of compressed data near the end (chunk lengths are left alone, so the chunk list
        // still parses; libpng finds the CRC or the deflate stream wrong when it gets there).
        for i in (bytes.count * 3 / 4)..<(bytes.count * 3 / 4 + 64) { bytes[i] ^= 0x5A }
        let bad = dir.appendingPathComponent("bad.png")
        try Data(bytes).write(to: bad)
        let reader = try ImageRegionReader(url: bad)
        #expect(reader.decodesByRows)
        _ = try reader.read(x: 0, y: 0, width: reader.width, height: 8)
        #expect(throws: CodecError.self) {
            _ = try reader.read(x: 0, y: reader.height - 8, width: reader.width, height: 8)
        }
    }

    @Test(
        "CMYK JPEGs (vips, with a profile, Adobe-inverted; ImageMagick YCCK without one) are converted by rows: regions equal the whole decode and jpgicc / ImageMagick within 1.5 levels",
        .needs("vips", "jpgicc", "convert"), arguments: ["vips", "magick"])
    func cmykByRows(_ writer: String) throws {
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let photo = try CMYKJPEGTests.photo(in: dir)
        let cmyk = dir.appendingPathComponent("cmyk.jpg").path
        let reference = dir.appendingPathComponent("reference.ppm").path
        if writer == "vips" {
            try CMYKJPEGTests.run("vips", ["icc_transform", photo, cmyk, "cmyk", "--intent", "relative"])
            let jpgicc = dir.appendingPathComponent("jpgicc.jpg").path
            try CMYKJPEGTests.run("jpgicc", ["-t1", "-q100", cmyk, jpgicc])
            try CMYKJPEGTests.run("vips", ["copy", jpgicc, reference])
        } else {
            try CMYKJPEGTests.run("convert", [photo, "-colorspace", "CMYK", "-strip", "-quality", "95", cmyk])
            try CMYKJPEGTests.run("convert", [cmyk, "-colorspace", "sRGB", reference])
        }
        let url = URL(fileURLWithPath: cmyk)
        let reader = try ImageRegionReader(url: url)
        #expect(reader.decodesByRows && reader.colorSpace == .sRGB && reader.metadata.iccProfile == nil)
        // Bands of 16 rows top to bottom: each converted as it arrives.
        var image = PixelBuffer(width: reader.width, height: reader.height, format: .rgba8)
        let plane = image.unsafeSharedMutablePlane()
        for y in stride(from: 0, to: reader.height, by: 16) {
            let h = min(16, reader.height - y)
            try reader.read(
                x: 0, y: y, width: reader.width, height: h,
                into: MutableRawPlane(
                    baseAddress: plane.row(y), bytesPerRow: plane.bytesPerRow, width: reader.width, height: h))
        }
        image.colorSpace = .sRGB
        let whole = try ImageFile.read(url: url).pixels
        #expect(image.components(as: UInt8.self) == whole.components(as: UInt8.self))
        let ours = dir.appendingPathComponent("rows.png")
        try ImageFile.write(image, to: ours)
        let d = try CMYKJPEGTests.meanDifference(ours.path, reference: reference)
        #expect(d <= 1.5, "mean |d| against \(writer == "vips" ? "jpgicc" : "ImageMagick"): \(d)")
    }
}
