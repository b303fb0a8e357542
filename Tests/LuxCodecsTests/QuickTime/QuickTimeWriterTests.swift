import Foundation
import LuxColor
import LuxPixels
import LuxTestSupport
import Testing

@testable import LuxCodecs

/// Movies written by ``QuickTimeWriter`` as FFmpeg, exiftool and our reader see them.
@Suite struct QuickTimeWriterTests {
    @Test("ffprobe reports the streams, durations, codecs, frame count and metadata", .needs("ffprobe"))
    func ffprobeReadsTheMovie() throws {
        let dir = try MovieFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("IMG_0001.MOV")
        try MovieFixtures.write(to: url)
        let (streams, format) = try MovieFixtures.probe(url.path)
        try #require(streams.count == 3)
        let video = streams[0]
        #expect(video["codec_name"] as? String == "mjpeg")
        #expect(video["codec_tag_string"] as? String == "jpeg")
        #expect(video["width"] as? Int == 64 && video["height"] as? Int == 48)
        #expect(video["nb_frames"] as? String == "30")
        #expect(video["r_frame_rate"] as? String == "30/1")
        #expect(video["duration"] as? String == "1.000000")
        let audio = streams[1]
        #expect(audio["codec_name"] as? String == "pcm_s16le")
        #expect(audio["codec_tag_string"] as? String == "sowt")
        #expect(audio["sample_rate"] as? String == "44100")
        #expect(audio["channels"] as? Int == 1)
        #expect(audio["duration"] as? String == "1.000000")
        #expect(audio["duration_ts"] as? Int == 44_100)
        let data = streams[2]
        #expect(data["codec_type"] as? String == "data")
        #expect(data["codec_tag_string"] as? String == "mebx")
        #expect(MovieFixtures.double(format["duration"]) == 1.0)
        let tags = format["tags"] as? [String: Any] ?? [:]
        #expect(tags["com.apple.quicktime.content.identifier"] as? String == MovieFixtures.identifier)
        #expect(tags["com.apple.quicktime.author"] as? String == "Brad Ford")
        #expect(format["format_name"] as? String == "mov,mp4,m4a,3gp,3g2,mj2")
        // The still-image-time sample is presented at the still's time (edit list applied).
        let packets = try ExternalTool.capture(
            "ffprobe",
            [
                "-v", "error", "-select_streams", "d:0", "-show_entries", "packet=pts_time,size", "-of", "csv=p=0",
                url.path,
            ])
        #expect(packets.text.trimmingCharacters(in: .whitespacesAndNewlines) == "0.500000,9")
    }

    @Test(
        "ffmpeg decodes every frame and all audio without an error", .needs("ffmpeg", "ffprobe"),
        arguments: [false, true])
    func ffmpegDecodesEverything(fastStart: Bool) throws {
        let dir = try MovieFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("clip.mov")
        try MovieFixtures.write(to: url, frames: 45, channels: 2, fastStart: fastStart)
        let run = try ExternalTool.capture("ffmpeg", ["-v", "error", "-i", url.path, "-f", "null", "-"])
        #expect(run.status == 0)
        #expect(run.errorText.isEmpty, "ffmpeg: \(run.errorText)")
        let count = try ExternalTool.capture(
            "ffprobe",
            [
                "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries", "stream=nb_read_frames",
                "-of",
                "csv=p=0", url.path,
            ])
        #expect(count.text.trimmingCharacters(in: .whitespacesAndNewlines) == "45")
        // Atom order: fast start puts the movie header before the media data.
        let bytes = [UInt8](try Data(contentsOf: url))
        let secondAtom = String(decoding: bytes[24..<28], as: UTF8.self)
        #expect(secondAtom == (fastStart ? "moov" : "wide"))
    }

    @Test("FFmpeg's decoded frames and PCM match what was written", .needs("ffmpeg"))
    func ffmpegPixelsAndSamples() throws {
        let dir = try MovieFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("clip.mov")
        let samples = try MovieFixtures.write(to: url, frames: 12, channels: 2)
        // Frame 7 as RGB from FFmpeg vs the frame we encoded.
        let raw = try ExternalTool.capture(
            "ffmpeg",
            [
                "-v", "error", "-i", url.path, "-map", "0:v", "-vf", "select=eq(n\\,7)", "-frames:v", "1", "-f",
                "rawvideo",
                "-pix_fmt", "rgb24", "-",
            ])
        let theirs = [UInt8](raw.stdout)
        try #require(theirs.count == 64 * 48 * 3)
        let ours = TestImages.rgbSamples(MovieFixtures.frame(7))
        #expect(psnr(theirs.map(UInt16.init), ours, peak: 255) > 30)
        // The square moved: frame 7's square is at x = 18…25, rows 20…27.
        let centre = (24 * 64 + 21) * 3
        #expect(theirs[centre] > 220 && theirs[centre + 2] > 220)
        // Audio: bit-exact.
        let pcm = try ExternalTool.capture(
            "ffmpeg", ["-v", "error", "-i", url.path, "-map", "0:a", "-f", "s16le", "-"])
        let decoded = pcm.stdout.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }.map {
            Int16(littleEndian: $0)
        }
        #expect(decoded == samples)
    }

    @Test("exiftool reads the content identifier, the still-image time and the author", .needs("exiftool"))
    func exiftoolReadsTheKeys() throws {
        let dir = try MovieFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("IMG_0002.MOV")
        try MovieFixtures.write(to: url)
        let tags = try Fixtures.exiftool(url.path, ["-ee", "-G1"])
        #expect(tags["Keys:ContentIdentifier"] as? String == MovieFixtures.identifier)
        #expect(tags["Keys:Author"] as? String == "Brad Ford")
        #expect((tags["Track3:StillImageTime"] as? NSNumber)?.intValue == -1)
        #expect(MovieFixtures.double(tags["Track1:ImageWidth"]) == 64)
        #expect(MovieFixtures.double(tags["Track2:AudioSampleRate"]) == 44_100)
        #expect(MovieFixtures.double(tags["QuickTime:Duration"]) == 1)
        #expect(tags["Track3:MetaFormat"] as? String == "mebx")
    }

    @Test("our reader recovers tracks, times, frames, audio and metadata")
    func roundTrip() throws {
        let dir = try MovieFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("clip.mov")
        let samples = try MovieFixtures.write(
            to: url, frames: 30, channels: 2, stillTime: MediaTime(value: 7, timescale: 10))
        let movie = try QuickTimeMovie(contentsOf: url)
        #expect(movie.duration == MediaTime(value: 1, timescale: 1))
        #expect(movie.contentIdentifier == MovieFixtures.identifier)
        #expect(movie[.author]?.stringValue == "Brad Ford")
        #expect(movie.stillImageTime == MediaTime(value: 7, timescale: 10))
        #expect(movie.tracks.map(\.kind) == [.video, .audio, .timedMetadata])
        let video = try #require(movie.videoTrack)
        #expect(video.codec == "jpeg" && video.width == 64 && video.height == 48 && video.sampleCount == 30)
        #expect(video.colorSpace?.isColorimetricallyEqual(to: .sRGB) == true)
        let frames = try movie.samples(of: video)
        #expect(frames.map(\.time) == (0..<30).map { MediaTime(value: Int64($0), timescale: 30) })
        #expect(frames.allSatisfy { $0.duration == MediaTime(value: 1, timescale: 30) })
        for i in [0, 13, 29] {
            let decoded = try movie.decodeVideoFrame(frames[i], of: video)
            #expect(decoded.width == 64 && decoded.format == .rgba8)
            let psnr = LuxTestSupport.psnr(
                TestImages.rgbSamples(decoded), TestImages.rgbSamples(MovieFixtures.frame(i)), peak: 255)
            #expect(psnr > 30, "frame \(i): \(psnr) dB")
        }
        let audio = try movie.audioSamples()
        #expect(audio.sampleRate == 44_100 && audio.channelCount == 2 && audio.startTime == .zero)
        #expect(audio.samples == samples)
        let meta = try #require(movie.tracks.last)
        #expect(meta.metadataKeys == [.stillImageTime])
        #expect(meta.references["cdsc"] == [1])
        let groups = try movie.timedMetadata(in: meta)
        #expect(groups.count == 1 && groups[0].items == [MovieMetadataItem(key: .stillImageTime, value: .int8(-1))])
    }

    @Test(
        "the track matrix carries the orientation (ffprobe's display-matrix rotation)",
        .needs("ffprobe"), arguments: [Orientation.right, .left, .down])
    func orientation(_ orientation: Orientation) throws {
        let dir = try MovieFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("rotated.mov")
        try MovieFixtures.write(to: url, frames: 3, audio: false, stillTime: nil, orientation: orientation)
        #expect(try QuickTimeMovie(contentsOf: url).videoTrack?.orientation == orientation)
        let out = try ExternalTool.capture(
            "ffprobe",
            [
                "-v", "error", "-select_streams", "v:0", "-show_entries", "stream_side_data=rotation", "-of", "csv=p=0",
                url.path,
            ])
        // FFmpeg's rotation is counter-clockwise: Exif 6 (turn 90° clockwise to view) is −90.
        let want: Int =
            switch orientation {
            case .right: -90
            case .left: 90
            default: 180
            }
        let numbers = out.text.split(whereSeparator: { !"-0123456789".contains($0) }).compactMap { Int($0) }
        #expect(numbers.contains(want) || (want == 180 && numbers.contains(-180)), "ffprobe: \(out.text)")
    }

    @Test("timed metadata of several groups keeps its times and values")
    func timedGroups() throws {
        let dir = try MovieFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("groups.mov")
        let writer = try QuickTimeWriter(
            writingTo: url, settings: .init(video: .init(width: 16, height: 16), synchronizesFile: false))
        for i in 0..<10 {
            try writer.appendVideoFrame(
                MovieFixtures.frame(0, width: 16, height: 16), at: MediaTime(value: Int64(i), timescale: 10))
        }
        let score: MovieMetadataItem.Key = "org.lux.test.score"
        try writer.addTimedMetadata([
            TimedMetadataGroup(
                time: MediaTime(value: 1, timescale: 5), duration: MediaTime(value: 1, timescale: 5),
                items: [
                    MovieMetadataItem(key: score, value: .float32(0.25)), MovieMetadataItem(key: .title, value: "a"),
                ]),
            TimedMetadataGroup(
                time: MediaTime(value: 3, timescale: 5), duration: MediaTime(value: 2, timescale: 5),
                items: [
                    MovieMetadataItem(key: score, value: .float32(0.75))
                ]),
        ])
        try writer.finish()
        let movie = try QuickTimeMovie(contentsOf: url)
        let groups = try movie.timedMetadata(in: try #require(movie.tracks.first { $0.kind == .timedMetadata }))
        #expect(groups.map(\.time) == [MediaTime(value: 1, timescale: 5), MediaTime(value: 3, timescale: 5)])
        #expect(groups[0].items.count == 2 && groups[0].items[0].value == .float32(0.25))
        #expect(groups[0].items[1].value.stringValue == "a")
        // The gap between the groups is closed by stretching the first one.
        #expect(groups[0].duration == MediaTime(value: 2, timescale: 5))
        #expect(groups[1].items == [MovieMetadataItem(key: score, value: .float32(0.75))])
    }

    @Test("misuse throws, and a failed or cancelled movie leaves the destination untouched and no temporary file")
    func misuseLeavesNothing() throws {
        let dir = try MovieFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("keep.mov")
        try Data("original".utf8).write(to: url)
        let settings = QuickTimeWriter.Settings(video: .init(width: 64, height: 48), synchronizesFile: false)
        let writer = try QuickTimeWriter(writingTo: url, settings: settings)
        #expect(throws: CodecError.self) {
            try writer.appendVideoFrame(MovieFixtures.frame(0, width: 32, height: 48), at: .zero)
        }
        try writer.appendVideoFrame(MovieFixtures.frame(0), at: MediaTime(value: 1, timescale: 30))
        #expect(throws: CodecError.self) {
            try writer.appendVideoFrame(MovieFixtures.frame(1), at: MediaTime(value: 1, timescale: 30))
        }
        #expect(throws: CodecError.self) { try writer.appendAudio([1, 2, 3]) }
        #expect(throws: CodecError.self) {
            try writer.appendVideoFrame(
                try PreparedVideoFrame(jpegData: [0xFF, 0xD8, 0, 1]), at: MediaTime(value: 1, timescale: 1))
        }
        writer.cancel()
        #expect(throws: CodecError.self) { try writer.finish() }
        #expect(try String(contentsOf: url, encoding: .utf8) == "original")
        let empty = try QuickTimeWriter(writingTo: url, settings: settings)
        #expect(throws: CodecError.self) { try empty.finish() }  // a video track with no frames
        #expect(try String(contentsOf: url, encoding: .utf8) == "original")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["keep.mov"])
        #expect(throws: CodecError.self) {
            _ = try QuickTimeWriter(writingTo: url, settings: .init(video: .init(width: 0, height: 48)))
        }
        #expect(throws: CodecError.self) {
            _ = try QuickTimeWriter(writingTo: url, settings: .init(audio: .init(sampleRate: 44_100, channelCount: 0)))
        }
        #expect(throws: CodecError.self) { _ = try QuickTimeWriter(writingTo: url, settings: .init()) }
    }
}

/// Audio written as WAVE, read back by FFmpeg.
@Suite struct WAVTests {
    @Test("ffmpeg decodes the WAVE file to the same samples, rate and channels", .needs("ffprobe", "ffmpeg"))
    func wav() throws {
        let dir = try MovieFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("a.wav")
        let audio = AudioSamples(
            sampleRate: 48_000, channelCount: 2, samples: MovieFixtures.tone(frames: 4800, rate: 48_000, channels: 2))
        try audio.writeWAV(to: url)
        let (streams, _) = try MovieFixtures.probe(url.path)
        #expect(streams.first?["codec_name"] as? String == "pcm_s16le")
        #expect(streams.first?["sample_rate"] as? String == "48000" && streams.first?["channels"] as? Int == 2)
        let pcm = try ExternalTool.capture("ffmpeg", ["-v", "error", "-i", url.path, "-f", "s16le", "-"])
        let decoded = pcm.stdout.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }.map {
            Int16(littleEndian: $0)
        }
        #expect(decoded == audio.samples)
    }
}
