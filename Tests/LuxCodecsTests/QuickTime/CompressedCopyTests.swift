import Foundation
import LuxPixels
import LuxTestSupport
import Testing

@testable import LuxCodecs

/// `CompressedVideoReader` and `QuickTimeWriter.appendCompressedVideoSample(_:)`: a movie's H.264 and HEVC frames
/// copied into another movie as they are stored.
@Suite struct CompressedCopyTests {
    /// Copies the video of `source` into a new movie at `url`, as a Live Photo edit that keeps the frames does.
    static func copy(_ source: URL, to url: URL) throws {
        let movie = try QuickTimeMovie(contentsOf: source)
        let track = try #require(movie.videoTrack)
        let reader = try CompressedVideoReader(movie: movie)
        var video = QuickTimeWriter.VideoSettings(width: track.width, height: track.height, codec: reader.codec)
        video.timescale = track.timescale
        video.compressedConfiguration = reader.configuration
        var settings = QuickTimeWriter.Settings(video: video)
        settings.synchronizesFile = false
        let writer = try QuickTimeWriter(writingTo: url, settings: settings)
        while let sample = try reader.next() { try writer.appendCompressedVideoSample(sample) }
        try writer.finish(endTime: movie.duration)
    }

    /// The frames of a movie as our reader decodes them: times and pixels.
    static func decoded(_ url: URL) throws -> [(MediaTime, [UInt8])] {
        let reader = try VideoFrameReader(movie: try QuickTimeMovie(contentsOf: url))
        var out: [(MediaTime, [UInt8])] = []
        while let f = try reader.next() { out.append((f.time, f.pixels.components(as: UInt8.self))) }
        return out
    }

    /// H.264 with reordered frames, and HEVC.
    @Test(
        "the copy decodes to the same pictures at the same times, and its samples are the original's bytes",
        arguments: [VideoCodec.h264, .hevc])
    func copiedFramesDecodeAsTheOriginal(codec: VideoCodec) throws {
        let dir = try MovieFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = dir.appendingPathComponent("IMG_0001.MOV")
        let copied = dir.appendingPathComponent("IMG_E0001.MOV")
        try MovieFixtures.write(to: source, frames: 24, audio: false, codec: codec)
        try Self.copy(source, to: copied)

        let original = try QuickTimeMovie(contentsOf: source)
        let copy = try QuickTimeMovie(contentsOf: copied)
        let (a, b) = (try #require(original.videoTrack), try #require(copy.videoTrack))
        #expect(b.codec == codec.fourCC && b.sampleCount == 24 && b.width == 64 && b.height == 48)
        #expect(copy.duration == original.duration)
        let bytes = { (m: QuickTimeMovie, t: MovieTrack) in
            try t.table.samples().map { s in
                try m.sampleData(
                    MovieSample(index: 0, time: .zero, duration: .zero, byteCount: s.size, offset: s.offset))
            }
        }
        #expect(try bytes(copy, b) == bytes(original, a))
        // The encoder reorders frames (B-frames): decode and presentation orders differ, and the copy keeps both.
        let stored = try CompressedVideoReader(movie: original)
        var samples: [CompressedVideoSample] = []
        while let s = try stored.next() { samples.append(s) }
        #expect(samples.count == 24 && samples[0].isSync)
        let shown = samples.map(\.presentationTime)
        #expect(shown != shown.sorted(), "no frame is reordered")
        // The sync samples are the original's (its 'stss', which the copy writes again).
        #expect(b.table.syncSamples == a.table.syncSamples)
        #expect(samples.indices.filter { samples[$0].isSync }.map { UInt32($0 + 1) } == a.table.syncSamples ?? [])
        let (x, y) = (try Self.decoded(source), try Self.decoded(copied))
        #expect(x.count == 24 && y.count == 24)
        #expect(x.map(\.0) == y.map(\.0))
        #expect(x.map(\.1) == y.map(\.1))
    }

    @Test("FFmpeg reads the copy's packets exactly as the original's (times, sizes, hashes)", .needs("ffmpeg"))
    func ffmpegReadsTheSamePackets() throws {
        let dir = try MovieFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = dir.appendingPathComponent("IMG_0001.MOV")
        let copied = dir.appendingPathComponent("IMG_E0001.MOV")
        try MovieFixtures.write(to: source, frames: 24, audio: false, codec: .h264)
        try Self.copy(source, to: copied)
        let original = try ExternalTool.ffmpegFrameHashes(source, packets: true)
        #expect(original.count == 24)
        #expect(try ExternalTool.ffmpegFrameHashes(copied, packets: true) == original)
        let run = try ExternalTool.capture("ffmpeg", ["-v", "error", "-i", copied.path, "-f", "null", "-"])
        #expect(run.status == 0 && run.errorText.isEmpty, "\(run.errorText)")
    }

    @Test("misuse throws: a Motion-JPEG track to copy, frames of the wrong kind for the track, samples out of order")
    func misuseThrows() throws {
        let dir = try MovieFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let jpeg = dir.appendingPathComponent("MJPEG.MOV")
        try MovieFixtures.write(to: jpeg, frames: 4, audio: false)
        #expect {
            try CompressedVideoReader(movie: try QuickTimeMovie(contentsOf: jpeg))
        } throws: { error in
            if case .unsupported = error as? CodecError { return true }
            return false
        }
        let h264 = dir.appendingPathComponent("H264.MOV")
        try MovieFixtures.write(to: h264, frames: 4, audio: false, codec: .h264)
        let reader = try CompressedVideoReader(movie: try QuickTimeMovie(contentsOf: h264))
        let first = try #require(try reader.next())
        let second = try #require(try reader.next())

        // A Motion-JPEG track cannot take compressed H.264 configuration.
        var jpegSettings = QuickTimeWriter.VideoSettings(width: 64, height: 48, codec: .motionJPEG)
        jpegSettings.compressedConfiguration = reader.configuration
        #expect(throws: CodecError.self) {
            try QuickTimeWriter(writingTo: dir.appendingPathComponent("a.MOV"), settings: .init(video: jpegSettings))
        }
        // An encoding track refuses compressed samples; a copying track refuses pixels and samples out of order.
        let encoding = try QuickTimeWriter(
            writingTo: dir.appendingPathComponent("b.MOV"), settings: .init(video: .init(width: 64, height: 48)))
        #expect(throws: CodecError.self) { try encoding.appendCompressedVideoSample(first) }
        encoding.cancel()
        var video = QuickTimeWriter.VideoSettings(width: 64, height: 48, codec: .h264)
        video.compressedConfiguration = reader.configuration
        let copying = try QuickTimeWriter(writingTo: dir.appendingPathComponent("c.MOV"), settings: .init(video: video))
        #expect(throws: CodecError.self) {
            try copying.appendVideoFrame(MovieFixtures.frame(0), at: .zero)
        }
        #expect(!second.isSync)
        #expect(throws: CodecError.self) { try copying.appendCompressedVideoSample(second) }
        try copying.appendCompressedVideoSample(first)
        try copying.appendCompressedVideoSample(second)
        #expect(throws: CodecError.self) { try copying.appendCompressedVideoSample(first) }
        copying.cancel()
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("c.MOV").path))
    }
}
