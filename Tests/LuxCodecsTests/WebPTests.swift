import Foundation
import LuxColor
import LuxPixels
import LuxTestSupport
import Testing

@testable import LuxCodecs

/// WebP reading and writing against libwebp's own tools (cwebp, dwebp, webpinfo, img2webp), vips and exiftool.
@Suite struct WebPTests {
    /// The mean absolute difference of the RGB samples of two 8-bit buffers of one size.
    static func meanDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
        let x = TestImages.rgbSamples(a.converted(to: .rgba8))
        let y = TestImages.rgbSamples(b.converted(to: .rgba8))
        precondition(x.count == y.count)
        return zip(x, y).reduce(0.0) { $0 + abs(Double($1.0) - Double($1.1)) } / Double(x.count)
    }

    /// dwebp's decode of `path` (RGB).
    static func dwebp(_ path: String, in dir: String) throws -> PixelBuffer {
        let out = dir + "/dwebp.ppm"
        let r = try ExternalTool.capture("dwebp", [path, "-ppm", "-o", out])
        try #require(r.status == 0, "dwebp: \(r.errorText)")
        return try NetPBM.readPPM(out)
    }

    @Test(
        "Files cwebp writes (lossy and lossless) decode within 1.5 levels of dwebp",
        .needs("cwebp", "dwebp", "djpeg", "convert"))
    func readsCwebpFiles() throws {
        let dir = try ExternalTool.temporaryDirectory()
        let crop = try TestImages.photoCrop(in: URL(fileURLWithPath: dir), width: 401, height: 301)
        for flags in [["-q", "80"], ["-lossless"]] {
            let path = dir + "/cwebp.webp"
            let r = try ExternalTool.capture("cwebp", flags + [crop.path, "-o", path])
            try #require(r.status == 0, "cwebp: \(r.errorText)")
            let file = try ImageFile.read(url: URL(fileURLWithPath: path))
            #expect(file.format == .webp)
            #expect(file.pixels.width == 401 && file.pixels.height == 301)
            let reference = try Self.dwebp(path, in: dir)
            let d = Self.meanDifference(file.pixels, reference)
            #expect(d <= 1.5, "\(flags): mean |d| \(d)")
            if flags == ["-lossless"] { #expect(d == 0) }
        }
    }

    @Test(
        "Lux's WebP files pass webpinfo, decode with dwebp as close to the source as cwebp's, and keep alpha only when needed",
        .needs("webpinfo", "dwebp", "cwebp"))
    func writesValidFiles() throws {
        let dir = try ExternalTool.temporaryDirectory()
        let opaque = TestImages.gradient(width: 160, height: 120)
        try TestImages.ppm(opaque).write(to: URL(fileURLWithPath: dir + "/source.ppm"))
        for lossless in [false, true] {
            var options = EncodingOptions(quality: 0.9)
            options.isLossless = lossless
            let path = dir + "/lux.webp"
            try ImageFile.write(opaque, to: URL(fileURLWithPath: path), options: options)
            let info = try ExternalTool.capture("webpinfo", [path])
            #expect(info.status == 0 && info.text.contains("No error detected"), "\(info.text)")
            #expect(!info.text.contains("ALPH"), "an opaque input gets no alpha")
            #expect(info.text.contains(lossless ? "VP8L" : "VP8 "))
            let d = Self.meanDifference(try Self.dwebp(path, in: dir), opaque)
            if lossless {
                #expect(d == 0, "lossless: mean |d| \(d)")
            } else {
                let theirs = dir + "/cwebp.webp"
                try #require(
                    try ExternalTool.capture("cwebp", ["-q", "90", dir + "/source.ppm", "-o", theirs]).status == 0)
                let reference = Self.meanDifference(try Self.dwebp(theirs, in: dir), opaque)
                #expect(abs(d - reference) <= 0.1, "lossy: mean |d| \(d), cwebp -q 90's \(reference)")
            }
        }
        let translucent = TestImages.gradient(width: 160, height: 120, alpha: true)
        let path = dir + "/alpha.webp"
        try ImageFile.write(translucent, to: URL(fileURLWithPath: path))
        let info = try ExternalTool.capture("webpinfo", [path])
        #expect(info.status == 0 && info.text.contains("Alpha: 1"), "\(info.text)")
    }

    @Test("exiftool and vips see the Exif and the ICC profile Lux writes", .needs("exiftool", "vipsheader"))
    func metadata() throws {
        let dir = try ExternalTool.temporaryDirectory()
        let path = dir + "/p3.webp"
        var metadata = ImageMetadata()
        metadata.exif.model = "Lux WebP Test"
        var pixels = TestImages.gradient(width: 64, height: 48)
        pixels.colorSpace = .displayP3
        try ImageFile.write(pixels, metadata: metadata, to: URL(fileURLWithPath: path))
        let tags = try Fixtures.exiftool(path)
        #expect(tags["Model"] as? String == "Lux WebP Test")
        #expect((tags["ProfileDescription"] as? String)?.contains("P3") == true, "\(tags["ProfileDescription"] ?? "-")")
        #expect(try ExternalTool.capture("vipsheader", [path]).status == 0)
        let back = try ImageFile.read(url: URL(fileURLWithPath: path))
        #expect(back.metadata.exif.model == "Lux WebP Test")
        #expect(back.pixels.colorSpace?.isColorimetricallyEqual(to: .displayP3) == true)
    }

    @Test("A frame of an img2webp animation is the frame dwebp-decoded stills give", .needs("img2webp", "cwebp"))
    func readsAnimationFrames() throws {
        let dir = try ExternalTool.temporaryDirectory()
        var frames: [PixelBuffer] = []
        for i in 0..<3 {
            var p = PixelBuffer(width: 40, height: 30, format: .rgba8, colorSpace: .sRGB)
            p.withUnsafeMutablePlane { plane in
                for y in 0..<30 {
                    let row = plane.row(y, as: UInt8.self)
                    for x in 0..<40 {
                        row[4 * x] = UInt8(60 * i + x)
                        row[4 * x + 1] = UInt8(y * 4)
                        row[4 * x + 2] = UInt8(200 - 50 * i)
                        row[4 * x + 3] = 255
                    }
                }
            }
            frames.append(p)
            try ImageFile.write(p, to: URL(fileURLWithPath: dir + "/f\(i).png"))
        }
        let path = dir + "/anim.webp"
        let r = try ExternalTool.capture(
            "img2webp", ["-lossless", "-d", "100", dir + "/f0.png", dir + "/f1.png", dir + "/f2.png", "-o", path])
        try #require(r.status == 0, "img2webp: \(r.errorText)")
        for i in 0..<3 {
            let file = try ImageFile.read(url: URL(fileURLWithPath: path), options: DecodingOptions(imageIndex: i))
            #expect(Self.meanDifference(file.pixels, frames[i]) == 0, "frame \(i)")
        }
        #expect(throws: CodecError.self) {
            try ImageFile.read(url: URL(fileURLWithPath: path), options: DecodingOptions(imageIndex: 3))
        }
        #expect(try ImageFile.info(url: URL(fileURLWithPath: path)).storage.contains("3 frames"))
    }

    @Test("An animated WebP from AnimationEncoder has its frames and durations (webpinfo)", .needs("webpinfo"))
    func writesAnimations() throws {
        let encoder = try AnimationEncoder(format: .webp, width: 48, height: 32)
        // Four different pictures (libwebp merges identical frames).
        for i in 0..<4 {
            var p = TestImages.gradient(width: 48, height: 32)
            p.withUnsafeMutablePlane { plane in
                for y in (8 * i)..<(8 * i + 8) {
                    plane.row(y).initializeMemory(as: UInt8.self, repeating: 255, count: 4 * 48)
                }
            }
            try encoder.append(p, duration: 0.125)
        }
        let dir = try ExternalTool.temporaryDirectory()
        try encoder.finish(writingTo: URL(fileURLWithPath: dir + "/a.webp"))
        let info = try ExternalTool.capture("webpinfo", [dir + "/a.webp"]).text
        #expect(info.components(separatedBy: "Chunk ANMF").count - 1 == 4, "\(info)")
        #expect(info.components(separatedBy: "Duration: 125").count - 1 == 4, "\(info)")
    }

    @Test("Truncated and corrupt WebP files give typed errors")
    func badInput() throws {
        let good = try WebP.encode(TestImages.gradient(width: 64, height: 48))
        for cut in [good.count / 2, 20, 12] {
            #expect(throws: CodecError.self) { try ImageFile.read(data: Array(good.prefix(cut))) }
        }
        // A chunk size past the end of the file.
        var corrupt = good
        corrupt.replaceSubrange(16..<20, with: [0xFF, 0xFF, 0xFF, 0x0F])
        #expect(throws: CodecError.self) { try ImageFile.read(data: corrupt) }
        // Garbage where the VP8 frame header belongs.
        var garbage = good
        for i in 20..<min(40, garbage.count) { garbage[i] = 0xA5 }
        #expect(throws: CodecError.self) { try ImageFile.read(data: garbage) }
    }
}
