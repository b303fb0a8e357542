import Foundation
import LuxColor
import LuxPixels
import LuxTestSupport
import Testing

@testable import LuxCodecs

/// H.264 and HEVC video and AAC audio written by ``QuickTimeWriter`` (libx264, libx265 and FFmpeg's AAC encoder
/// through FFmpeg's libraries), as ffprobe, ffmpeg and exiftool read them.
@Suite struct VideoEncodingTests {
    /// Writes a 1-second 64 × 48 movie at 30 fps with a stereo tone and the still-image time at 0.5 s.
    static func movie(_ codec: VideoCodec, in dir: URL, frames: Int = 30) throws -> (url: URL, audio: [Int16]) {
        let url = dir.appendingPathComponent("IMG_0001.MOV")
        let audio = try MovieFixtures.write(to: url, frames: frames, channels: 2, codec: codec, audioCodec: .aac)
        return (url, audio)
    }

    @Test(
        "ffprobe: avc1/hvc1 video in BT.709 4:2:0, AAC audio, the timed metadata and the movie's keys",
        .needs("ffprobe"), arguments: [VideoCodec.h264, .hevc])
    func streams(codec: VideoCodec) throws {
        let dir = try MovieFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (url, _) = try Self.movie(codec, in: dir)
        let (streams, format) = try MovieFixtures.probe(url.path)
        try #require(streams.count == 3)
        let video = streams[0]
        #expect(video["codec_name"] as? String == (codec == .h264 ? "h264" : "hevc"))
        #expect(video["codec_tag_string"] as? String == codec.fourCC)
        #expect(video["width"] as? Int == 64 && video["height"] as? Int == 48)
        #expect(video["pix_fmt"] as? String == "yuv420p")
        #expect(video["color_space"] as? String == "bt709" && video["color_range"] as? String == "tv")
        #expect(video["color_primaries"] as? String == "bt709")
        #expect(video["nb_frames"] as? String == "30")
        #expect(MovieFixtures.double(video["start_time"]) == 0)
        #expect(abs((MovieFixtures.double(video["duration"]) ?? 0) - 1) <= 0.05)
        let audio = streams[1]
        #expect(audio["codec_name"] as? String == "aac" && audio["codec_tag_string"] as? String == "mp4a")
        #expect(audio["profile"] as? String == "LC")
        #expect(audio["sample_rate"] as? String == "44100" && audio["channels"] as? Int == 2)
        #expect(abs((MovieFixtures.double(audio["duration"]) ?? 0) - 1) <= 0.05)
        #expect(streams[2]["codec_tag_string"] as? String == "mebx")
        #expect(abs((MovieFixtures.double(format["duration"]) ?? 0) - 1) <= 0.05)
        let tags = format["tags"] as? [String: Any] ?? [:]
        #expect(tags["com.apple.quicktime.content.identifier"] as? String == MovieFixtures.identifier)
    }

    @Test(
        "ffmpeg decodes every frame without an error, at PSNR ≥ 35 dB against the frames written",
        .needs("ffmpeg"), arguments: [VideoCodec.h264, .hevc])
    func ffmpegDecodes(codec: VideoCodec) throws {
        let dir = try MovieFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (url, _) = try Self.movie(codec, in: dir, frames: 24)
        let run = try ExternalTool.capture(
            "ffmpeg",
            [
                "-v", "error", "-i", url.path, "-map", "0:v", "-fps_mode", "passthrough", "-f", "rawvideo", "-pix_fmt",
                "rgb24", "-",
            ])
        #expect(run.status == 0 && run.errorText.isEmpty, "ffmpeg: \(run.errorText)")
        let size = 64 * 48 * 3
        let theirs = [UInt8](run.stdout)
        #expect(theirs.count / size == 24)
        for i in 0..<min(24, theirs.count / size) {
            let decoded = theirs[(i * size)..<((i + 1) * size)].map(UInt16.init)
            let value = psnr(decoded, TestImages.rgbSamples(MovieFixtures.frame(i)), peak: 255)
            #expect(value >= 35, "frame \(i): \(value) dB")
        }
    }

    @Test(
        "our reader decodes what we wrote: every frame at its time, close to the frames written",
        arguments: [VideoCodec.h264, .hevc])
    func roundTrip(codec: VideoCodec) throws {
        let dir = try MovieFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (url, _) = try Self.movie(codec, in: dir)
        let movie = try QuickTimeMovie(contentsOf: url)
        let track = try #require(movie.videoTrack)
        #expect(track.codec == codec.fourCC && track.canDecodeFrames && track.sampleCount == 30)
        #expect(movie.stillImageTime == MediaTime(value: 1, timescale: 2))
        let reader = try VideoFrameReader(movie: movie)
        var frames: [DecodedVideoFrame] = []
        while let f = try reader.next() { frames.append(f) }
        #expect(frames.map(\.time) == (0..<30).map { MediaTime(value: Int64($0), timescale: 30) })
        #expect(frames.map { $0.duration.seconds } == [Double](repeating: 1.0 / 30, count: 30))
        for (i, f) in frames.enumerated() {
            let value = psnr(
                TestImages.rgbSamples(f.pixels), TestImages.rgbSamples(MovieFixtures.frame(i)), peak: 255)
            #expect(value >= 35, "frame \(i): \(value) dB")
        }
    }

    @Test("AAC: ffmpeg decodes the tone we wrote, aligned, at the right length", .needs("ffmpeg"))
    func aac() throws {
        let dir = try MovieFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (url, written) = try Self.movie(.h264, in: dir)
        let pcm = try ExternalTool.capture(
            "ffmpeg", ["-v", "error", "-i", url.path, "-map", "0:a", "-f", "s16le", "-"])
        let decoded = pcm.stdout.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }.map {
            Int16(littleEndian: $0)
        }
        // The edit list skips the encoder's priming; ffmpeg's command line decodes whole 1024-frame packets, so its
        // output runs on to the end of the last one.
        #expect(
            decoded.count >= written.count && decoded.count < written.count + 2 * 1024,
            "\(decoded.count) samples for \(written.count)")
        // Signal-to-noise ratio of the decoded tone, past the first packet (the codec's own transient).
        var signal = 0.0
        var noise = 0.0
        for i in 4096..<min(decoded.count, written.count) {
            signal += Double(written[i]) * Double(written[i])
            noise += (Double(decoded[i]) - Double(written[i])) * (Double(decoded[i]) - Double(written[i]))
        }
        let snr = 10 * log10(signal / max(noise, 1))
        #expect(snr > 20, "SNR \(snr) dB")
    }

    @Test("exiftool reads the codecs, the content identifier and the still-image time", .needs("exiftool"))
    func exiftool() throws {
        let dir = try MovieFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (url, _) = try Self.movie(.hevc, in: dir)
        let tags = try Fixtures.exiftool(url.path, ["-ee", "-G1"])
        #expect(tags["Track1:CompressorID"] as? String == "hvc1")
        #expect(tags["Track2:AudioFormat"] as? String == "mp4a")
        #expect(tags["Keys:ContentIdentifier"] as? String == MovieFixtures.identifier)
        #expect((tags["Track3:StillImageTime"] as? NSNumber)?.intValue == -1)
        #expect(tags["Track3:ContentDescribes"] as? NSNumber == 1 || tags["Track3:ContentDescribes"] as? String != nil)
    }

    @Test("H.264 and HEVC frames need an even size; bad compression settings are refused")
    func settingsChecks() throws {
        let dir = try MovieFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("x.mov")
        #expect(throws: CodecError.self) {
            _ = try QuickTimeWriter(writingTo: url, settings: .init(video: .init(width: 63, height: 48)))
        }
        var video = QuickTimeWriter.VideoSettings(width: 64, height: 48)
        video.compression.constantRateFactor = 60
        #expect(throws: CodecError.self) { _ = try QuickTimeWriter(writingTo: url, settings: .init(video: video)) }
        _ = try QuickTimeWriter(
            writingTo: url, settings: .init(video: .init(width: 63, height: 47, codec: .motionJPEG)))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }
}
