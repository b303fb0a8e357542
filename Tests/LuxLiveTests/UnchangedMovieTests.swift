import Foundation
import LuxCodecs
import LuxLive
import LuxPixels
import LuxRender
import LuxTestSupport
import Synchronization
import Testing

/// Saving an edit that leaves every movie frame as it is copies the movie's compressed frames (no decoding and
/// re-encoding, no generation loss); an edit that changes any frame, or asks for another codec, renders them all.
@Suite struct UnchangedMovieTests {
    /// A processor that tones the still sepia and returns every movie frame it is given.
    static let stillOnly: LivePhotoEditingContext.FrameProcessor = { frame in
        guard frame.type == .photo else { return frame.image }
        return try frame.image.applyingFilter("SepiaTone", parameters: ["intensity": .number(0.8)])
    }

    /// FFmpeg reads the same packets and pictures; the pair is re-linked and the still is edited.
    @Test("a still-only edit keeps the movie's compressed frames", .needs("ffmpeg", "exiftool"))
    func stillOnlyEditCopiesTheFrames() async throws {
        let dir = try LiveFixtures.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let live = try LiveFixtures.pair(in: dir)
        var context = try LivePhotoEditingContext(livePhoto: live)
        context.frameProcessor = Self.stillOnly
        var output = LivePhotoEditingOutput(directory: dir, baseName: "IMG_E0001")
        output.synchronizesFiles = false
        let edited = try await context.save(to: output)

        // The same packets (B-frames: decode and presentation times differ) and so the same pictures.
        let packets = try ExternalTool.ffmpegFrameHashes(live.movieURL, packets: true)
        #expect(packets.count == 30)
        #expect(try ExternalTool.ffmpegFrameHashes(edited.movieURL, packets: true) == packets)
        #expect(
            try ExternalTool.ffmpegFrameHashes(edited.movieURL, packets: false)
                == ExternalTool.ffmpegFrameHashes(live.movieURL, packets: false))
        let run = try ExternalTool.capture("ffmpeg", ["-v", "error", "-i", edited.movieURL.path, "-f", "null", "-"])
        #expect(run.status == 0 && run.errorText.isEmpty, "\(run.errorText)")

        // The pair: a new identifier in both files, the still-image time, the movie's length and metadata kept.
        #expect(edited.contentIdentifier == output.contentIdentifier)
        #expect(edited.contentIdentifier != live.contentIdentifier)
        #expect(edited.photoTime == live.photoTime && edited.duration == live.duration)
        let movieTags = try LiveFixtures.exiftool(edited.movieURL.path, ["-ee"])
        #expect(movieTags["ContentIdentifier"] as? String == edited.contentIdentifier)
        #expect((movieTags["StillImageTime"] as? NSNumber)?.intValue == -1)
        #expect(try QuickTimeMovie(contentsOf: edited.movieURL)[.author]?.stringValue == "Brad Ford")
        let stillTags = try LiveFixtures.exiftool(edited.photoURL.path)
        #expect((stillTags["MediaGroupUUID"] ?? stillTags["ContentIdentifier"]) as? String == edited.contentIdentifier)

        // The still is toned: sepia makes its blue fall below its red on average, where the scene's is above.
        func means(_ b: PixelBuffer) -> (Double, Double) {
            let s = b.converted(to: .rgba8).components(as: UInt8.self).map(Double.init)
            let n = Double(s.count / 4)
            return (
                stride(from: 0, to: s.count, by: 4).reduce(0) { $0 + s[$1] } / n,
                stride(from: 2, to: s.count, by: 4).reduce(0) { $0 + s[$1] } / n
            )
        }
        let (red, blue) = means(try ImageFile.read(url: edited.photoURL).pixels)
        let (red0, blue0) = means(try ImageFile.read(url: live.photoURL).pixels)
        #expect(blue0 > red0 && blue < red)
    }

    @Test("no processor and the sound at half: the frames are copied, the sound is halved")
    func soundOnlyEditCopiesTheFrames() async throws {
        let dir = try LiveFixtures.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let live = try LiveFixtures.pair(in: dir)
        var context = try LivePhotoEditingContext(livePhoto: live)
        context.audioVolume = 0.5
        var output = LivePhotoEditingOutput(directory: dir, baseName: "IMG_E0001")
        output.synchronizesFiles = false
        let edited = try await context.save(to: output)
        let original = try QuickTimeMovie(contentsOf: live.movieURL)
        let movie = try QuickTimeMovie(contentsOf: edited.movieURL)
        let (a, b) = (original.videoTrack!, movie.videoTrack!)
        #expect(try original.samples(of: a).map(\.time) == movie.samples(of: b).map(\.time))
        let data = { (m: QuickTimeMovie, t: MovieTrack) in try m.samples(of: t).map { try m.sampleData($0) } }
        #expect(try data(movie, b) == data(original, a))
        let level =
            LiveFixtures.rms(try movie.audioSamples().samples) / LiveFixtures.rms(try original.audioSamples().samples)
        #expect(abs(level - 0.5) < 0.02)
    }

    /// The recipe behind `lux live edit --photo-chain`: the still is toned, the movie's samples are the original's.
    @Test("a recipe with a still-only chain copies the movie's frames")
    func stillOnlyRecipeCopiesTheFrames() async throws {
        let dir = try LiveFixtures.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let live = try LiveFixtures.pair(in: dir)
        let recipe = LivePhotoAdjustments(photoFilterChain: "SepiaTone intensity=0.8")
        var output = LivePhotoEditingOutput(directory: dir, baseName: "IMG_E0001")
        output.synchronizesFiles = false
        let edited = try await LivePhotoEditingContext(livePhoto: live, adjustments: recipe).save(to: output)
        let original = try QuickTimeMovie(contentsOf: live.movieURL)
        let movie = try QuickTimeMovie(contentsOf: edited.movieURL)
        let data = { (m: QuickTimeMovie) in try m.samples(of: m.videoTrack!).map { try m.sampleData($0) } }
        #expect(try data(movie) == data(original))
        let still = try ImageFile.read(url: edited.photoURL).pixels
        let before = try ImageFile.read(url: live.photoURL).pixels
        #expect(still.width == before.width && still.height == before.height)
        #expect(LiveFixtures.meanDifference(still, before) > 5)
    }

    /// Those before the still keep their picture, those after change, and each frame is processed.
    @Test("a processor that changes the frames from the still on renders every frame")
    func laterChangeRendersEveryFrame() async throws {
        let dir = try LiveFixtures.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let live = try LiveFixtures.pair(in: dir)
        let photoTime = live.photoTime
        let calls = Mutex<[Int64: Int]>([:])
        var context = try LivePhotoEditingContext(livePhoto: live)
        context.frameProcessor = { frame in
            guard frame.type == .video else { return frame.image }
            calls.withLock { $0[frame.time.converted(toTimescale: 600).value, default: 0] += 1 }
            guard frame.time >= photoTime else { return frame.image }
            return try frame.image.applyingFilter("ColorInvert")
        }
        var output = LivePhotoEditingOutput(directory: dir, baseName: "IMG_E0001")
        output.synchronizesFiles = false
        let edited = try await context.save(to: output)

        let before = try LiveFixtures.frames(live.movieURL)
        let after = try LiveFixtures.frames(edited.movieURL)
        #expect(after.count == 30 && before.count == 30)
        // Run on the frames in order until the first it changes (the still's), then on every frame as they render:
        // twice on each frame before it, once on it (its first result is used) and on the later ones.
        let times = try LivePhotoEditingContext(livePhoto: live).videoFrameTimes
        let counts = calls.withLock { $0 }
        #expect(counts.count == 30)
        for t in times {
            #expect(counts[t.converted(toTimescale: 600).value] == (t < photoTime ? 2 : 1), "frame at \(t.seconds) s")
        }
        for (i, (a, b)) in zip(before, after).enumerated() {
            let x = a.converted(to: .rgba8).components(as: UInt8.self)
            let y = b.converted(to: .rgba8).components(as: UInt8.self)
            var difference = 0.0
            for k in stride(from: 0, to: x.count, by: 4) {
                for c in 0..<3 { difference += abs(Double(x[k + c]) - Double(y[k + c])) }
            }
            difference /= Double(3 * x.count / 4)
            // Re-encoded: a few levels from the original; inverted: the scene's mean distance from its negative.
            if times[i] < photoTime {
                #expect(difference < 4, "frame \(i): \(difference)")
            } else {
                #expect(difference > 40, "frame \(i): \(difference)")
            }
        }
    }

    @Test("frames stored in another codec than the output's are re-encoded: an HEVC movie saved as H.264")
    func otherCodecRendersTheFrames() async throws {
        let dir = try LiveFixtures.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let live = try LiveFixtures.pair(in: dir, codec: .hevc)
        var output = LivePhotoEditingOutput(directory: dir, baseName: "IMG_E0001")
        output.synchronizesFiles = false
        #expect(output.videoCodec == .h264)
        let edited = try await LivePhotoEditingContext(livePhoto: live).save(to: output)
        let track = try #require(try QuickTimeMovie(contentsOf: edited.movieURL).videoTrack)
        #expect(track.codec == "avc1" && track.sampleCount == 30)
        #expect(try LiveFixtures.frames(edited.movieURL).count == 30)
    }
}
