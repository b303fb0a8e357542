import LuxColor
import LuxPixels
import LuxScene
import LuxTestSupport
import Synchronization
import Testing

@testable import LuxCapture

@Suite struct VideoDataOutputTests {
    /// Reads frames in a task until told to stop; keeps their indices and drop counts.
    final class Reader: Sendable {
        final class Log: Sendable {
            struct State {
                var items: [(index: Int, dropped: Int, space: ColorSpace?)] = []
                /// Waiters for a number of frames.
                var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
            }
            let state = Mutex(State())

            func append(_ item: (index: Int, dropped: Int, space: ColorSpace?)) {
                let ready = state.withLock { s in
                    s.items.append(item)
                    let n = s.items.count
                    defer { s.waiters.removeAll { $0.count <= n } }
                    return s.waiters.filter { $0.count <= n }.map(\.continuation)
                }
                for c in ready { c.resume() }
            }
        }

        let log = Log()
        let task: Task<Void, any Error>
        var all: [(index: Int, dropped: Int, space: ColorSpace?)] { log.state.withLock { $0.items } }
        var count: Int { log.state.withLock { $0.items.count } }

        init(_ output: VideoDataOutput) {
            let log = self.log
            task = Task {
                for try await f in output.frames {
                    log.append((f.index, f.droppedFramesBefore, f.colorSpace))
                    if Task.isCancelled { break }
                }
            }
        }

        /// Returns once `count` frames have been read.
        func waitFor(_ count: Int) async {
            await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
                let ready = log.state.withLock { s in
                    if s.items.count >= count { return true }
                    s.waiters.append((count, c))
                    return false
                }
                if ready { c.resume() }
            }
        }

        func stop() async {
            task.cancel()
            _ = try? await task.value
        }
    }

    @Test("Frames arrive as an async sequence with their colour-space tag and consecutive device numbers")
    func frames() async throws {
        let video = VideoDataOutput()
        let rig = try await CaptureRig.make(scene: .grayCard(), extraOutputs: [video])
        #expect(rig.camera.activeColorSpace == .displayP3)  // photo preset + video data output → P3
        var seen: [VideoFrame] = []
        for try await f in video.frames {
            seen.append(f)
            if seen.count == 5 { break }
        }
        #expect(seen.allSatisfy { $0.colorSpace == .displayP3 })
        #expect(seen.allSatisfy { $0.pixelBuffer.format == .yCbCr420FullRange && $0.pixelBuffer.width == 80 })
        #expect(
            zip(seen, seen.dropFirst()).allSatisfy {
                $1.index == $0.index + 1 && $1.presentationTime > $0.presentationTime
            })
        #expect(seen.allSatisfy { $0.droppedFramesBefore == 0 })
        await rig.session.stopRunning()
        var after = 0
        for try await _ in video.frames { after += 1 }
        #expect(after == 0)  // the sequence ends when the session is stopped
    }

    @Test(
        "A reader that falls behind keeps the newest frames: of 10 made meanwhile, 4 wait for it and 6 are dropped"
    )
    func slowReaderDrops() async throws {
        let clock = ManualClock()
        let video = VideoDataOutput()
        let rig = try await CaptureRig.make(scene: .grayCard(), extraOutputs: [video], clock: clock)
        var frames = video.frames.makeAsyncIterator()
        let first = try #require(try await frames.next())  // registers the reader
        // The scene monitor makes one frame per frame duration of the session's clock while the reader is away.
        rig.photo.photoSettingsForSceneMonitoring = PhotoSettings()
        let period = Duration(rig.camera.activeFrameDuration)
        for _ in 0..<10 {
            try #require(await clock.sleepers(atLeast: 1))
            clock.advance(by: period)
        }
        try #require(await clock.sleepers(atLeast: 1))
        var read: [VideoFrame] = []
        for _ in 0..<5 { read.append(try #require(try await frames.next())) }
        // The queue holds FramePump.videoQueueCapacity (4) frames: the newest four, then a frame made on demand.
        #expect(read.map(\.index) == (7...11).map { first.index + $0 })
        #expect(read.map(\.droppedFramesBefore) == [6, 0, 0, 0, 0])
        #expect(video.droppedFrameCount == 6 && video.deliveredFrameCount == 6)
    }

    @Test("Speed and balanced photos on a high-photo-quality video format drop no video frame; quality may")
    func noDropsDuringCapture() async throws {
        let video = VideoDataOutput()
        let rig = try await CaptureRig.make(
            scene: .stillLife(), extraOutputs: [video], format: CaptureRig.videoFormat(highQuality: true))
        rig.photo.maxPhotoQualityPrioritization = .quality
        let reader = Reader(video)
        await reader.waitFor(3)
        for level in [QualityPrioritization.speed, .balanced] {
            var s = PhotoSettings()
            s.qualityPrioritization = level
            let events = try await collect(try rig.photo.capturePhoto(s))
            let r = events[0].resolvedSettings
            #expect(r.processing.usesStreamFrames)
            #expect(r.processing.method == (level == .speed ? .singleFrame : .fastMerge))
            #expect(events.photos.count == 1)
        }
        let before = reader.count
        await reader.waitFor(before + 2)
        let clean = reader.all
        #expect(clean.allSatisfy { $0.dropped == 0 }, "\(clean.map(\.dropped))")
        #expect(zip(clean, clean.dropFirst()).allSatisfy { $1.index == $0.index + 1 }, "\(clean.map(\.index))")
        // Quality takes separate exposures: the stream has a gap.
        var q = PhotoSettings()
        q.qualityPrioritization = .quality
        let events = try await collect(try rig.photo.capturePhoto(q))
        #expect(!events[0].resolvedSettings.processing.usesStreamFrames)
        let count = reader.count
        await reader.waitFor(count + 2)
        await reader.stop()
        #expect(reader.all.contains { $0.dropped > 0 })
        #expect(video.droppedFrameCount > 0)
    }

    @Test("Video formats without high photo quality use the light path at every level")
    func lightPathOnPlainVideoFormats() async throws {
        let rig = try await CaptureRig.make(scene: .stillLife(), format: CaptureRig.videoFormat(highQuality: false))
        rig.photo.maxPhotoQualityPrioritization = .quality
        for level in QualityPrioritization.allCases {
            var s = PhotoSettings()
            s.qualityPrioritization = level
            let events = try await collect(try rig.photo.capturePhoto(s))
            let p = events[0].resolvedSettings.processing
            #expect(p.method == .singleFrame && p.frameCount == 1 && p.usesStreamFrames, "\(level): \(p)")
            #expect(events[0].resolvedSettings.photoDimensions == PixelDimensions(width: 120, height: 90))
        }
    }
}
