import Foundation
import LuxTestSupport
import Testing

/// `lux convert`, `lux filter` and `lux live export` with WebP, AVIF and GIF, judged by libwebp's, libheif's,
/// ImageMagick's and FFmpeg's tools.
@Suite struct WebFormatsCLITests {
    /// The Live Photo's still scaled by ImageMagick to 400 × 300 (a JPEG), so the tests stay fast.
    static func smallPhoto(in dir: URL) throws -> String {
        let out = dir.appendingPathComponent("small.jpg").path
        let r = try ExternalTool.capture(
            "convert", [try TestData.path("livephoto/iphone6s_livephoto_train.jpg"), "-resize", "400x300", out])
        try #require(r.status == 0, "convert: \(r.errorText)")
        return out
    }

    @Test(
        "A JPEG converts to WebP, AVIF and GIF by extension, with the photo's size and opaque (webpinfo, heif-info, gifsicle)",
        .needsLux, .needs("webpinfo", "heif-info", "gifsicle", "vips", "convert"))
    func convertByExtension() throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try ExternalTool.temporaryFolder("lux-webformats")
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try Self.smallPhoto(in: dir)
        for name in ["a.webp", "b.avif", "c.gif"] {
            let out = dir.appendingPathComponent(name).path
            let r = try LuxExecutable.run(lux, ["convert", input, "-o", out, "--size", "320x320", "--quality", "80"])
            try #require(r.status == 0, "\(name): \(r.errorText)")
            let header = try ExternalTool.capture("vipsheader", [out])
            #expect(header.status == 0, "\(name): \(header.errorText)")
        }
        let webp = try ExternalTool.capture("webpinfo", [dir.appendingPathComponent("a.webp").path]).text
        #expect(webp.contains("No error detected") && !webp.contains("ALPH"), "\(webp)")
        let avif = try ExternalTool.capture("heif-info", [dir.appendingPathComponent("b.avif").path]).text
        #expect(avif.contains("320x240"), "\(avif)")
        let gif = try ExternalTool.capture("gifsicle", ["--info", dir.appendingPathComponent("c.gif").path]).text
        #expect(gif.contains("1 image"), "\(gif)")
        // Back from WebP to PNG, losslessly through a lossless WebP.
        let lossless = dir.appendingPathComponent("l.webp").path
        try #require(try LuxExecutable.run(lux, ["convert", input, "-o", lossless, "--lossless"]).status == 0)
        #expect(try ExternalTool.capture("webpinfo", [lossless]).text.contains("VP8L"))
        let filtered = dir.appendingPathComponent("f.png").path
        let r = try LuxExecutable.run(lux, ["filter", lossless, "-o", filtered, "--chain", "SepiaTone intensity=0.5"])
        #expect(r.status == 0, "\(r.errorText)")
    }

    @Test("Truncated WebP, AVIF and GIF inputs fail naming the file and write nothing", .needsLux, .needs("convert"))
    func badInputs() throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try ExternalTool.temporaryFolder("lux-webformats-bad")
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try Self.smallPhoto(in: dir)
        for name in ["cut.webp", "cut.avif", "cut.gif"] {
            let whole = dir.appendingPathComponent("whole-" + name).path
            try #require(try LuxExecutable.run(lux, ["convert", input, "-o", whole, "--size", "64x64"]).status == 0)
            let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
            let cut = dir.appendingPathComponent(name)
            try bytes.prefix(bytes.count / 2).write(to: cut)
            let out = dir.appendingPathComponent(name + ".png").path
            let r = try LuxExecutable.run(lux, ["convert", cut.path, "-o", out])
            #expect(r.status != 0 && r.errorText.contains(name), "\(name): \(r.errorText)")
            #expect(!r.errorText.contains("Fatal error"))
            #expect(!FileManager.default.fileExists(atPath: out))
        }
    }

    @Test(
        "lux live export writes a looping GIF and a bouncing WebP with the frames and delays asked for (ffprobe, identify, webpinfo)",
        .needsLux, .needs("identify", "webpinfo", "ffprobe"))
    func liveExport() throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try ExternalTool.temporaryFolder("lux-live-export")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pair = try TestData.path("livephoto/iphone6s_livephoto_train.jpg")
        let probe = try ExternalTool.capture(
            "ffprobe",
            [
                "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=duration", "-of", "csv=p=0",
                try TestData.path("livephoto/iphone6s_livephoto_train.mov"),
            ])
        let duration = try #require(Double(probe.text.trimmingCharacters(in: .whitespacesAndNewlines)))
        // An animation frame every 1/fps s while the video lasts.
        func frameCount(fps: Double) -> Int { Int((duration * fps).rounded(.up)) }
        let gif = dir.appendingPathComponent("train.gif").path
        let r = try LuxExecutable.run(lux, ["live", "export", pair, "--gif", gif, "--size", "160", "--fps", "10"])
        try #require(r.status == 0, "\(r.errorText)")
        let frames = try ExternalTool.capture("identify", ["-format", "%T %w %h\n", gif]).text
            .split(separator: "\n")
        // 10 frames a second, 10 hundredths each, long side 160.
        #expect(frames.count == frameCount(fps: 10), "\(frames.count) frames for \(duration) s")
        #expect(frames.allSatisfy { $0.hasPrefix("10 ") && $0.contains("160") }, "\(frames.prefix(3))")

        let webp = dir.appendingPathComponent("train.webp").path
        let b = try LuxExecutable.run(
            lux, ["live", "export", pair, "--webp", webp, "--bounce", "--size", "120", "--fps", "5"])
        try #require(b.status == 0, "\(b.errorText)")
        let info = try ExternalTool.capture("webpinfo", [webp]).text
        let count = info.components(separatedBy: "Duration: 200").count - 1
        // Bouncing plays n frames forward and n − 2 back.
        let n = frameCount(fps: 5)
        #expect(count == 2 * n - 2, "\(count) frames for \(n) forward")
        let again = try LuxExecutable.run(lux, ["live", "export", pair, "--webp", webp])
        #expect(again.status != 0, "an existing output is kept without --overwrite")
    }

    @Test(
        "lux live export's GIF and WebP frames show the movie frame on screen at each frame's time, as ffmpeg extracts and scales it",
        .needsLux, .needs("ffmpeg", "ffprobe", "convert"), arguments: ["webp", "gif"])
    func liveExportPixels(_ format: String) throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try ExternalTool.temporaryFolder("lux-live-pixels")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pair = try TestData.path("livephoto/iphone6s_livephoto_train.jpg")
        let movie = try TestData.path("livephoto/iphone6s_livephoto_train.mov")
        let animation = dir.appendingPathComponent("train.\(format)").path
        let fps = 5.0
        let options = format == "gif" ? ["--no-dither"] : ["--quality", "100"]
        let r = try LuxExecutable.run(
            lux, ["live", "export", pair, "--\(format)", animation, "--size", "160", "--fps", "5"] + options)
        try #require(r.status == 0, "\(r.errorText)")
        // ImageMagick composes the animation's frames (GIF disposal, WebP sub-frames) into whole pictures.
        let coalesced = try ExternalTool.capture(
            "convert", [animation, "-coalesce", dir.appendingPathComponent("lux-%03d.ppm").path])
        try #require(coalesced.status == 0, "convert: \(coalesced.errorText)")
        // ffmpeg decodes every movie frame (presentation order, upright) and scales it with Lanczos to the same size.
        let first = try NetpbmImage(Data(contentsOf: dir.appendingPathComponent("lux-000.ppm")))
        let extracted = try ExternalTool.capture(
            "ffmpeg",
            [
                "-v", "error", "-i", movie, "-vf", "scale=\(first.width):\(first.height):flags=lanczos", "-fps_mode",
                "passthrough", dir.appendingPathComponent("movie-%03d.ppm").path,
            ])
        try #require(extracted.status == 0, "ffmpeg: \(extracted.errorText)")
        let times = try ExternalTool.capture(
            "ffprobe",
            ["-v", "error", "-select_streams", "v:0", "-show_entries", "frame=pts_time", "-of", "csv=p=0", movie]
        ).text.split(whereSeparator: \.isNewline).compactMap { Double($0.trimmingCharacters(in: [","])) }
        try #require(!times.isEmpty)

        var k = 0
        var worst = 0.0
        while FileManager.default.fileExists(atPath: dir.appendingPathComponent(String(format: "lux-%03d.ppm", k)).path)
        {
            // The movie frame on screen at k ÷ fps seconds: the last one presented at or before then.
            let t = Double(k) / fps
            let index = try #require(times.lastIndex { $0 <= t + 1e-6 })
            let ours = try NetpbmImage(
                Data(contentsOf: dir.appendingPathComponent(String(format: "lux-%03d.ppm", k))))
            let theirs = try NetpbmImage(
                Data(contentsOf: dir.appendingPathComponent(String(format: "movie-%03d.ppm", index + 1))))
            try #require(ours.width == theirs.width && ours.height == theirs.height && ours.channels == 3)
            let total = zip(ours.samples, theirs.samples).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
            let mean = Double(total) / Double(ours.samples.count)
            worst = max(worst, mean)
            k += 1
        }
        #expect(k >= 5, "\(k) frames compared (the count is checked by liveExport)")
        // Measured 1.5–1.7 (WebP at quality 100 keeps 4:2:0 chroma) and 1.7–1.9 (GIF: 256 colours, no dithering);
        // the neighbouring movie frames are ≥ 2.9 away, so a frame taken at the wrong time fails.
        #expect(worst <= (format == "gif" ? 2.5 : 2.0), "worst frame's mean |d| against ffmpeg: \(worst)")
    }
}
