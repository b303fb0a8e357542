import LuxColor
import LuxPixels
import LuxScene
import Synchronization
import Testing

@testable import LuxCapture

@Suite struct VideoDataOutputTests {
    /// Reads frames in a task until told to stop; keeps their indices and drop counts.
    final class Reader: Sendable {
        final class Log: Sendable {
            let items = Mutex<[(index: Int, dropped: Int, space: ColorSpace?)]>([])
        }

        let log = Log()
        let task: Task<Void, any Error>
        var all: [(index: Int, dropped: Int, space: ColorSpace?)] { log.items.withLock { $0 } }
        var count: Int { log.items.withLock { $0.count } }

        init(_ output: VideoDataOutput) {
            let log = self.log
            task = Task {
                for try await f in output.frames {
                    log.items.withLock { $0.append((f.index, f.droppedFramesBefore, f.colorSpace)) }
                    if Task.isCancelled { break }
                }
            }
        }

        func waitFor(_ count: Int) async throws {
            while self.count < count { try await Task.sleep(for: .milliseconds(5)) }
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

    @Test("Speed and balanced photos on a high-photo-quality video format drop no video frame; quality may")
    func noDropsDuringCapture() async throws {
        let video = VideoDataOutput()
        let rig = try await CaptureRig.make(
            scene: .stillLife(), extraOutputs: [video], format: CaptureRig.videoFormat(highQuality: true))
        rig.photo.maxPhotoQualityPrioritization = .quality
        let reader = Reader(video)
        try await reader.waitFor(3)
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
        try await reader.waitFor(before + 2)
        let clean = reader.all
        #expect(clean.allSatisfy { $0.dropped == 0 }, "\(clean.map(\.dropped))")
        #expect(zip(clean, clean.dropFirst()).allSatisfy { $1.index == $0.index + 1 }, "\(clean.map(\.index))")
        // Quality takes separate exposures: the stream has a gap.
        var q = PhotoSettings()
        q.qualityPrioritization = .quality
        let events = try await collect(try rig.photo.capturePhoto(q))
        #expect(!events[0].resolvedSettings.processing.usesStreamFrames)
        let count = reader.count
        try await reader.waitFor(count + 2)
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
