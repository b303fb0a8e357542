import Foundation
import LuxTestSupport
import Testing

/// `lux live info/edit/extract` on the real iPhone 6s pair (H.264 movie), checked with ffprobe and exiftool.
@Suite struct LiveCommandTests {
    /// The real pair copied into a fresh folder as IMG_0001.JPG/.MOV, with an adjustment sidecar from Photos.
    static func applePair() throws -> URL {
        let dir = try ExternalTool.temporaryFolder("lux-cli-live")
        let source = TestData.root + "/livephoto/iphone6s_livephoto_train"
        try FileManager.default.copyItem(
            atPath: source + ".jpg", toPath: dir.appendingPathComponent("IMG_0001.JPG").path)
        try FileManager.default.copyItem(
            atPath: source + ".mov", toPath: dir.appendingPathComponent("IMG_0001.MOV").path)
        let plist: [String: Any] = [
            "adjustmentFormatIdentifier": "com.apple.photo", "adjustmentFormatVersion": "1.4",
            "adjustmentData": Data([1, 2, 3]), "adjustmentEditorBundleID": "com.apple.mobileslideshow",
            "adjustmentBaseVersion": 0,
        ]
        try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
            .write(to: dir.appendingPathComponent("IMG_0001.AAE"))
        return dir
    }

    /// exiftool `-j -n` of `path` as a dictionary.
    static func exiftool(_ path: String, _ extra: [String] = []) throws -> [String: Any] {
        let out = try ExternalTool.capture("exiftool", ["-j", "-n"] + extra + [path])
        return (try JSONSerialization.jsonObject(with: out.stdout) as? [[String: Any]])?.first ?? [:]
    }

    @Test(
        "live info says the H.264 movie is editable and reports Photos' .AAE; live edit writes H.264 + AAC, .luxedit",
        .needsLux, .needs("ffprobe", "exiftool"))
    func editApplePair() throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try Self.applePair()
        defer { try? FileManager.default.removeItem(at: dir) }
        let aae = dir.appendingPathComponent("IMG_0001.AAE")
        let before = try Data(contentsOf: aae)

        let info = try LuxExecutable.run(
            lux, ["live", "info", dir.appendingPathComponent("IMG_0001.JPG").path, "--json"])
        try #require(info.status == 0, "\(info.errorText)")
        let json = try #require(try JSONSerialization.jsonObject(with: info.stdout) as? [String: Any])
        #expect(json["movieEditable"] as? Bool == true)
        let photosEdit = json["photosEdit"] as? [String: Any] ?? [:]
        #expect(photosEdit["format"] as? String == "com.apple.photo")
        #expect(photosEdit["editor"] as? String == "com.apple.mobileslideshow")

        let out = dir.appendingPathComponent("edited")
        let edit = try LuxExecutable.run(
            lux,
            [
                "live", "edit", dir.appendingPathComponent("IMG_0001.JPG").path, "-o", out.path, "--chain",
                "SepiaTone intensity=1", "--preset", "ultrafast",
            ])
        try #require(edit.status == 0, "\(edit.errorText)")
        #expect(edit.text.contains("IMG_0001.AAE"), "the Photos edit is reported: \(edit.text)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: out.path).sorted() == [
                "IMG_E0001.JPG", "IMG_E0001.MOV", "IMG_E0001.luxedit",
            ])
        #expect(try Data(contentsOf: aae) == before)
        let probe = try ExternalTool.capture(
            "ffprobe",
            [
                "-v", "error", "-show_entries", "stream=codec_tag_string,width,height,nb_frames", "-of", "csv=p=0",
                out.appendingPathComponent("IMG_E0001.MOV").path,
            ]
        ).succeeded()
        let streams = probe.text.split(separator: "\n").map(String.init)
        #expect(streams.first == "avc1,1440,1080,22", "\(probe.text)")
        #expect(streams.dropFirst().first?.hasPrefix("mp4a") == true, "\(probe.text)")
        let still = try Self.exiftool(out.appendingPathComponent("IMG_E0001.JPG").path)
        let movie = try Self.exiftool(out.appendingPathComponent("IMG_E0001.MOV").path)
        let identifier = try #require(still["MediaGroupUUID"] as? String)
        #expect(identifier != "E905E6C6-C747-4805-942F-9904A0281F02")
        #expect(movie["ContentIdentifier"] as? String == identifier)

        // Photos' sidecar is not Lux's: re-applying it is refused with a message naming it.
        let reapply = try LuxExecutable.run(lux, ["live", "edit", "--reapply", aae.path, "-o", out.path])
        #expect(reapply.status != 0 && reapply.errorText.contains("IMG_0001.AAE"), "\(reapply.errorText)")
    }

    @Test(
        "live edit --square --slide-crop --watermark: a 240 × 240 preview with ImageMagick's magenta logo top left (read by vips); --slide-crop alone and a bad corner are refused",
        .needsLux, .needs("vips", "convert", "ffprobe"))
    func slidingCropAndWatermark() throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try Self.applePair()
        defer { try? FileManager.default.removeItem(at: dir) }
        let logo = dir.appendingPathComponent("logo.png").path
        try ExternalTool.capture("convert", ["-size", "40x20", "xc:#ff00ff", "PNG32:" + logo]).succeeded()
        let still = dir.appendingPathComponent("IMG_0001.JPG").path
        let out = dir.appendingPathComponent("edited")
        let edit = try LuxExecutable.run(
            lux,
            [
                "live", "edit", still, "-o", out.path, "--square", "--slide-crop", "--watermark", logo,
                "--watermark-corner", "top-left", "--watermark-width", "0.25", "--preview", "320x240", "--preset",
                "ultrafast",
            ])
        try #require(edit.status == 0, "\(edit.errorText)")
        // The 320 × 240 preview cropped to 240 × 240; the logo is 60 × 30 at (7.2, 7.2).
        let preview = out.appendingPathComponent("preview.JPG").path
        let size = try ExternalTool.capture("vipsheader", ["-f", "width", preview]).succeeded().text
        #expect(size.trimmingCharacters(in: .whitespacesAndNewlines) == "240")
        let point = try ExternalTool.capture("vips", ["getpoint", preview, "30", "20"]).succeeded().text
        let rgb = point.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        #expect(rgb.count == 3 && rgb[0] > 230 && rgb[1] < 30 && rgb[2] > 230, "\(point)")
        let probe = try ExternalTool.capture(
            "ffprobe",
            [
                "-v", "error", "-show_entries", "stream=width,height", "-of", "csv=p=0",
                out.appendingPathComponent("preview.MOV").path,
            ]
        ).succeeded()
        #expect(probe.text.hasPrefix("240,240"), "\(probe.text)")
        for bad in [["--slide-crop"], ["--watermark", logo, "--watermark-corner", "middle"]] {
            let refused = try LuxExecutable.run(lux, ["live", "edit", still, "-o", out.path] + bad)
            #expect(refused.status == 64, "\(bad): \(refused.errorText)")
        }
    }

    /// The mean absolute difference of two images shrunk by vips to 64 × 48 (8-bit RGB levels).
    static func difference(_ a: String, _ b: String, in dir: URL) throws -> Double {
        var shrunk: [[UInt8]] = []
        for (i, path) in [a, b].enumerated() {
            let out = dir.appendingPathComponent("small\(i).v").path
            _ = try ExternalTool.capture("vips", ["thumbnail", path, out, "64", "--height", "48", "--size", "force"])
                .succeeded()
            let raw = dir.appendingPathComponent("small\(i).raw").path
            _ = try ExternalTool.capture("vips", ["rawsave", out, raw]).succeeded()
            shrunk.append([UInt8](try Data(contentsOf: URL(fileURLWithPath: raw))))
        }
        try #require(shrunk[0].count == shrunk[1].count && !shrunk[0].isEmpty)
        return Double(zip(shrunk[0], shrunk[1]).map { abs(Int($0) - Int($1)) }.reduce(0, +)) / Double(shrunk[0].count)
    }

    @Test(
        "live edit --key-photo makes ffmpeg's frame at that time the still; outside the trim it is refused",
        .needsLux, .needs("ffmpeg", "vips"))
    func keyPhoto() throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try Self.applePair()
        defer { try? FileManager.default.removeItem(at: dir) }
        let original = dir.appendingPathComponent("IMG_0001.JPG").path
        let frame = dir.appendingPathComponent("frame.png").path
        _ = try ExternalTool.capture(
            "ffmpeg",
            [
                "-v", "error", "-ss", "1.2", "-i", dir.appendingPathComponent("IMG_0001.MOV").path, "-frames:v", "1",
                frame,
            ]
        ).succeeded()
        let out = dir.appendingPathComponent("edited")
        let edit = try LuxExecutable.run(
            lux, ["live", "edit", original, "-o", out.path, "--key-photo", "1.2", "--preset", "ultrafast"])
        try #require(edit.status == 0, "\(edit.errorText)")
        let still = out.appendingPathComponent("IMG_E0001.JPG").path
        let toFrame = try Self.difference(still, frame, in: dir)
        let toOriginal = try Self.difference(still, original, in: dir)
        #expect(toFrame < 3 && toFrame < toOriginal / 2, "to the frame \(toFrame), to the original \(toOriginal)")

        let refused = dir.appendingPathComponent("refused")
        let outside = try LuxExecutable.run(
            lux, ["live", "edit", original, "-o", refused.path, "--trim", "0.1,0.8", "--key-photo", "1.2"])
        #expect(outside.status != 0, "\(outside.text)")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: refused.path)) ?? []).isEmpty)
    }

    @Test("live extract decodes all 22 H.264 frames and the frame at the photo time", .needsLux, .needs("ffprobe"))
    func extractFrames() throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try Self.applePair()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("parts")
        let r = try LuxExecutable.run(
            lux,
            [
                "live", "extract", dir.appendingPathComponent("IMG_0001.MOV").path, "-o", out.path, "--frames",
                "--photo-frame",
            ])
        try #require(r.status == 0, "\(r.errorText)")
        let names = try FileManager.default.contentsOfDirectory(atPath: out.path)
        #expect(names.filter { $0.contains("-frame-") }.count == 22)
        // ffprobe: frame 8 shows from 0.4667 s to 0.5333 s, so the still (0.48 s) is frame 8.
        #expect(r.text.contains("(frame 8 at 0.467 s)"), "\(r.text)")
        #expect(names.contains("IMG_0001-photo-frame.jpg"))
    }

    @Test("a movie of noise: live edit saves the still alone, says so, and leaves the movie as it was", .needsLux)
    func damagedMovie() throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try Self.applePair()
        defer { try? FileManager.default.removeItem(at: dir) }
        let movieURL = dir.appendingPathComponent("IMG_0001.MOV")
        var bytes = [UInt8](try Data(contentsOf: movieURL))
        // The iPhone's movie starts ftyp (20 bytes), wide (8), mdat: overwrite the media data's first 200 KB.
        for i in 64..<200_000 { bytes[i] = UInt8(truncatingIfNeeded: i &* 2_654_435_761 >> 13) }
        try Data(bytes).write(to: movieURL)
        let out = dir.appendingPathComponent("edited")
        let r = try LuxExecutable.run(
            lux,
            ["live", "edit", dir.appendingPathComponent("IMG_0001.JPG").path, "-o", out.path, "--chain", "SepiaTone"])
        #expect(r.status == 0, "\(r.errorText)")
        #expect(r.text.contains("note: only the still was edited"), "\(r.text)")
        #expect(r.text.contains("IMG_0001.MOV"), "\(r.text)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path) == ["IMG_E0001.JPG"])
        #expect(try Data(contentsOf: movieURL) == Data(bytes))
    }

    /// The iPhone's H.264 frames come through untouched: FFmpeg reads the same packets (decode and presentation
    /// times, sizes, hashes) and the same pictures from the edited movie as from Apple's. (That a still-only chain
    /// edits the still: `UnchangedMovieTests`.)
    @Test("live edit --photo-chain edits the still and copies the iPhone's movie frames", .needsLux, .needs("ffmpeg"))
    func stillOnlyChainCopiesTheIPhoneFrames() throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try Self.applePair()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("edited")
        let edit = try LuxExecutable.run(
            lux,
            [
                "live", "edit", dir.appendingPathComponent("IMG_0001.JPG").path, "-o", out.path, "--photo-chain",
                "SepiaTone intensity=1",
            ])
        try #require(edit.status == 0, "\(edit.errorText)")
        let original = dir.appendingPathComponent("IMG_0001.MOV")
        let edited = out.appendingPathComponent("IMG_E0001.MOV")
        let packets = try ExternalTool.ffmpegFrameHashes(original, packets: true)
        #expect(packets.count == 22)
        #expect(try ExternalTool.ffmpegFrameHashes(edited, packets: true) == packets)
        #expect(
            try ExternalTool.ffmpegFrameHashes(edited, packets: false)
                == ExternalTool.ffmpegFrameHashes(original, packets: false))
    }
}
