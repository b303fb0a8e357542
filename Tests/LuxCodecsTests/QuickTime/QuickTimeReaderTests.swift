import Foundation
import LuxPixels
import LuxTestSupport
import Testing

@testable import LuxCodecs

/// Reading real and hostile movies.
@Suite struct QuickTimeReaderTests {
    static let appleMovie = "livephoto/iphone6s_livephoto_train.mov"

    @Test(
        "an iPhone Live Photo movie: identifier, still time, duration, tracks (checked against ffprobe)",
        .needs("ffprobe"))
    func appleLivePhotoMovie() throws {
        let movie = try QuickTimeMovie(contentsOf: Fixtures.url(Self.appleMovie))
        #expect(movie.brand == "qt  ")
        #expect(movie.contentIdentifier == "E905E6C6-C747-4805-942F-9904A0281F02")
        #expect(movie.duration == MediaTime(value: 740, timescale: 600))
        #expect(movie[.make]?.stringValue == "Apple" && movie[.model]?.stringValue == "iPhone 6s")
        #expect(movie.tracks.map(\.kind) == [.video, .audio, .timedMetadata, .timedMetadata])
        let video = try #require(movie.videoTrack)
        #expect(video.codec == "avc1" && video.codecName == "H.264" && video.canDecodeFrames)
        #expect(video.width == 1440 && video.height == 1080 && video.sampleCount == 22)
        #expect(video.orientation == .up)
        let audio = try #require(movie.audioTrack)
        #expect(
            audio.codec == "lpcm" && audio.sampleRate == 44_100 && audio.channelCount == 1 && audio.bitsPerSample == 16)
        #expect(movie.tracks[3].metadataKeys == [.stillImageTime])
        #expect(movie.tracks[2].metadataKeys.first?.rawValue == "com.apple.quicktime.live-photo-info")
        #expect(movie.stillImageTime == MediaTime(value: 288, timescale: 600))
        // Random access to frames of an H.264 track: a clear, typed refusal (VideoFrameReader decodes them in order).
        let frames = try movie.samples(of: video)
        #expect(frames.count == 22)
        #expect(frames.last?.time == MediaTime(value: 721, timescale: 600))
        do {
            _ = try movie.decodeVideoFrame(frames[0], of: video)
            Issue.record("decoding H.264 should throw")
        } catch {
            guard case .unsupported(let what, let reason) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(what.contains("H.264") && reason.contains("VideoFrameReader"))
        }
        let (streams, format) = try MovieFixtures.probe(Fixtures.url(Self.appleMovie).path)
        #expect(MovieFixtures.double(format["duration"]) == movie.duration.seconds.rounded(toPlaces: 6))
        #expect(MovieFixtures.double(streams[3]["start_time"]) == movie.stillImageTime?.seconds)
        #expect(streams[0]["nb_frames"] as? String == "\(frames.count)")
    }

    @Test("the iPhone movie's PCM audio equals FFmpeg's decoding (edit list applied)", .needs("ffmpeg"))
    func appleAudio() throws {
        let movie = try QuickTimeMovie(contentsOf: Fixtures.url(Self.appleMovie))
        let audio = try movie.audioSamples()
        #expect(audio.frameCount == 54_390)  // 740/600 s × 44 100 Hz
        let pcm = try ExternalTool.capture(
            "ffmpeg", ["-v", "error", "-i", Fixtures.url(Self.appleMovie).path, "-map", "0:a", "-f", "s16le", "-"])
        let theirs = pcm.stdout.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }.map { Int16(littleEndian: $0) }
        // FFmpeg hands out PCM in whole 1024-frame packets, so its output runs on to the end of the last packet
        // that the edit touches (55 296 frames); up to the edit's end the samples must be identical.
        #expect(theirs.count >= audio.samples.count && theirs.count - audio.samples.count < 1024)
        #expect(Array(theirs.prefix(audio.samples.count)) == audio.samples)
    }

    @Test("truncated movies throw typed errors")
    func truncated() throws {
        let dir = try MovieFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("t.mov")
        try MovieFixtures.write(to: url, frames: 6, fastStart: true)
        let bytes = try Data(contentsOf: url)
        for length in [0, 4, 12, 30, 100, 400, bytes.count / 2, bytes.count - 10] {
            let cut = bytes.prefix(length)
            do {
                let movie = try QuickTimeMovie(data: Data(cut))
                // Fast start: the header may survive; the samples then fail.
                if let v = movie.videoTrack {
                    for s in try movie.samples(of: v) { _ = try? movie.decodeVideoFrame(s, of: v) }
                }
                _ = try? movie.audioSamples()
            } catch {
                _ = error.description
            }
        }
        #expect(throws: CodecError.self) { _ = try QuickTimeMovie(data: Data("not a movie at all".utf8)) }
    }

    @Test("bit-flipped movies never crash or over-allocate", arguments: [1, 2, 3, 4])
    func mutations(seed: UInt64) throws {
        let dir = try MovieFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("m.mov")
        try MovieFixtures.write(to: url, frames: 4, width: 32, height: 16)
        let original = [UInt8](try Data(contentsOf: url))
        let limits = DecodingLimits(maxPixelCount: 1_000_000, maxByteCount: 64 << 20, maxChunkCount: 100_000)
        var g = RobustnessTests.Generator(state: seed)
        // Mutate the movie header (the last atoms) mostly, where the structure is.
        let moovStart = original.count - 2000
        for _ in 0..<150 {
            var b = original
            for _ in 0..<(1 + g.below(4)) {
                let i = g.below(10) < 8 ? moovStart + g.below(2000) : g.below(original.count)
                b[i] = UInt8(truncatingIfNeeded: g.next())
            }
            guard let movie = try? QuickTimeMovie(data: Data(b), limits: limits) else { continue }
            for t in movie.tracks {
                guard let samples = try? movie.samples(of: t) else { continue }
                if t.kind == .video { for s in samples.prefix(4) { _ = try? movie.decodeVideoFrame(s, of: t) } }
                if t.kind == .timedMetadata { _ = try? movie.timedMetadata(in: t) }
            }
            _ = try? movie.audioSamples()
            _ = movie.stillImageTime
        }
    }
}

extension Double {
    func rounded(toPlaces n: Int) -> Double {
        let p = Foundation.pow(10, Double(n))
        return (self * p).rounded() / p
    }
}
