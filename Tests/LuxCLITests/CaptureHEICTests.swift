import Foundation
import LuxTestSupport
import Testing

/// HEIC and JPEG photos from `lux capture` (a preview as their thumbnail) and HEIC Live Photo stills, judged by
/// heif-info, exiftool and djpeg.
@Suite struct CaptureHEICTests {
    @Test(
        "lux capture --format heic with a preview: heif-info reads the photo with the preview as its thumbnail, exiftool the Display P3 profile",
        .needsLux, .needs("heif-info", "exiftool"))
    func heicWithPreview() throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try ExternalTool.temporaryFolder("lux-capture-heic")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try LuxExecutable.run(
            lux,
            [
                "capture", "--format", "heic", "--sensor", "640x480", "--preview", "160x160", "--color-space", "p3",
                "--prioritization", "speed", "-o", dir.path,
            ])
        try #require(r.status == 0, "\(r.errorText)")
        let files = try CLIFixtures.files(in: dir)
        let still = try #require(files.first { $0.hasSuffix(".heic") }, "\(files)")
        let path = dir.appendingPathComponent(still).path
        let info = try ExternalTool.capture("heif-info", [path])
        #expect(info.status == 0 && info.text.contains("image: 480x360"), "\(info.text)")
        // A 640 × 480 sensor gives 480 × 360 photos (3/4 size without high resolution); the default thumbnail has a
        // long side of 320, so a 160 × 120 one is the 160 × 160 preview.
        #expect(info.text.contains("thumbnail: 160x120"), "\(info.text)")
        let tags = try ExternalTool.capture("exiftool", ["-s3", "-ProfileDescription", "-Orientation#", path])
        #expect(tags.text.split(separator: "\n") == ["Display P3", "1"], "\(tags.text)")
    }

    @Test(
        "lux capture --format jpeg with a preview: exiftool extracts it from IFD1 (160 × 120, decoded by djpeg) and validates the file",
        .needsLux, .needs("exiftool", "djpeg"))
    func jpegWithPreview() throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try ExternalTool.temporaryFolder("lux-capture-jpeg")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try LuxExecutable.run(
            lux,
            [
                "capture", "--format", "jpeg", "--sensor", "640x480", "--preview", "160x160", "--prioritization",
                "speed", "-o", dir.path,
            ])
        try #require(r.status == 0, "\(r.errorText)")
        let files = try CLIFixtures.files(in: dir)
        let still = dir.appendingPathComponent(try #require(files.first { $0.hasSuffix(".jpg") }, "\(files)")).path
        let thumbnail = try ExternalTool.capture("exiftool", ["-b", "-ThumbnailImage", still]).stdout
        let thumbPath = dir.appendingPathComponent("thumb.jpg").path
        try thumbnail.write(to: URL(fileURLWithPath: thumbPath))
        let decoded = try NetpbmImage(ExternalTool.capture("djpeg", ["-pnm", thumbPath]).stdout)
        #expect(decoded.width == 160 && decoded.height == 120)
        let verdict = try ExternalTool.capture("exiftool", ["-validate", "-warning", "-a", "-s3", still])
        #expect(verdict.text.split(separator: "\n").first == "OK", "\(verdict.text)")
    }

    @Test(
        "an iPhone Live Photo still converted to HEIC keeps the content identifier in its maker note (exiftool's MediaGroupUUID) and pairs with the movie",
        .needsLux, .needs("exiftool"))
    func liveHEICStill() throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try ExternalTool.temporaryFolder("lux-live-heic")
        defer { try? FileManager.default.removeItem(at: dir) }
        let movie = dir.appendingPathComponent("IMG_0001.MOV")
        try FileManager.default.copyItem(
            atPath: try TestData.path("livephoto/iphone6s_livephoto_train.mov"), toPath: movie.path)
        let still = dir.appendingPathComponent("IMG_0001.HEIC").path
        let r = try LuxExecutable.run(
            lux,
            [
                "convert", try TestData.path("livephoto/iphone6s_livephoto_train.jpg"), "-o", still, "--size",
                "640x640",
            ])
        try #require(r.status == 0, "\(r.errorText)")
        let ids = try ExternalTool.capture(
            "exiftool", ["-s3", "-MediaGroupUUID", "-ContentIdentifier", still, movie.path])
        let values = ids.text.split(separator: "\n").filter { !$0.hasPrefix("=") && !$0.contains("files read") }
        #expect(values.count == 2 && values[0] == values[1], "\(ids.text)")
        let info = try LuxExecutable.run(lux, ["info", still])
        #expect(info.text.contains("paired with IMG_0001.MOV"), "\(info.text)")
    }
}
