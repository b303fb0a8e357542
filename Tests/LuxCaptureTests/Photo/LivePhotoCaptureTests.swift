import Foundation
import LuxCodecs
import LuxPixels
import LuxScene
import LuxTestSupport
import Synchronization
import Testing

@testable import LuxCapture

/// Live Photo capture: the ring buffer's pre-roll, the movie after the still, the events in order, the movie file as
/// FFmpeg and our reader see it, and the identifier shared with the still.
@Suite struct LivePhotoCaptureTests {
    /// A photo-preset session with Live Photo capture enabled and, optionally, a microphone.
    ///
    /// Its clock stands still, so every frame is one a capture asked for (`nil`: the system's clock).
    static func rig(microphone: Bool = true, sensor: SensorModel = .small(), clock: ManualClock? = ManualClock())
        async throws -> CaptureRig
    {
        let rig = try await CaptureRig.make(sensor: sensor, start: false, clock: clock)
        if microphone {
            rig.session.beginConfiguration()
            try rig.session.addInput(
                DeviceInput(microphone: SimulatedMicrophone(source: rig.camera.scene.sound, sampleRate: 44_100)))
            try rig.session.commitConfiguration()
        }
        try await rig.session.startRunning()
        try rig.photo.setLivePhotoCaptureEnabled(true)
        rig.photo.isLivePhotoStabilizationEnabled = false
        return rig
    }

    /// The duration and still time of the movie a capture's events report.
    static func movieTimes(_ events: [PhotoCaptureEvent]) -> (MediaTime, MediaTime)? {
        for case .didFinishProcessingLivePhotoMovie(_, _, let duration, let photoTime) in events {
            return (duration, photoTime)
        }
        return nil
    }

    static func settings(_ url: URL) -> PhotoSettings {
        var s = PhotoSettings()
        s.livePhotoMovieURL = url
        s.livePhotoMovieMetadata = [LivePhotoMetadataItem(key: LivePhotoMetadataItem.author, value: "Brad Ford")]
        return s
    }

    @Test(
        "events: the still, then movie recorded, then movie written, before didFinishCapture; the movie pairs with the still",
        .needs("ffprobe", "ffmpeg"))
    func capture() async throws {
        let dir = try ExternalTool.temporaryFolder("lux-live-capture")
        defer { try? FileManager.default.removeItem(at: dir) }
        let rig = try await Self.rig()
        #expect(rig.photo.isLivePhotoCaptureSupported && rig.photo.isLivePhotoAutoTrimmingEnabled)
        let url = dir.appendingPathComponent("IMG_0001.MOV")
        let events = try await collect(try rig.photo.capturePhoto(Self.settings(url)))
        #expect(
            events.names == [
                "willBeginCapture", "willCapturePhoto", "didCapturePhoto", "didFinishProcessingPhoto",
                "didFinishRecordingLivePhotoMovie", "didFinishProcessingLivePhotoMovie", "didFinishCapture",
            ])
        let resolved = events[0].resolvedSettings
        #expect(resolved.livePhotoMovieDimensions == PixelDimensions(width: 320, height: 240))
        #expect(resolved.livePhotoMovieHasAudio)
        guard case .didFinishProcessingLivePhotoMovie(_, let written, let duration, let photoTime) = events[5] else {
            Issue.record("no movie event")
            return
        }
        #expect(written == url)
        // 1.5 s on each side of the still: 45 frame slots of 1/30 s before it and after it.
        #expect(duration == MediaTime(value: 3, timescale: 1), "duration \(duration)")
        #expect(photoTime == MediaTime(value: 3, timescale: 2), "photo at \(photoTime)")
        let movie = try QuickTimeMovie(contentsOf: url)
        let still = try ImageFile.read(data: try #require(events.photos.first).fileDataRepresentation())
        let identifier = try #require(still.metadata.livePhotoContentIdentifier)
        #expect(movie.contentIdentifier == identifier)
        #expect(movie.stillImageTime == photoTime)
        #expect(movie.duration.seconds == duration.seconds)
        #expect(movie[.author]?.stringValue == "Brad Ford")
        #expect(movie.videoTrack?.width == 320 && movie.videoTrack?.height == 240)
        #expect(movie.audioTrack?.sampleRate == 44_100)
        let run = try ExternalTool.capture("ffmpeg", ["-v", "error", "-i", url.path, "-f", "null", "-"])
        #expect(run.status == 0 && run.errorText.isEmpty, "\(run.errorText)")
        let probe = try ExternalTool.capture(
            "ffprobe",
            ["-v", "error", "-show_entries", "stream=codec_name,duration:format_tags", "-of", "json", url.path])
        let json = try JSONSerialization.jsonObject(with: probe.stdout) as? [String: Any] ?? [:]
        let streams = json["streams"] as? [[String: Any]] ?? []
        #expect(streams.compactMap { $0["codec_name"] as? String }.prefix(2) == ["h264", "aac"])
        let tags = (json["format"] as? [String: Any])?["tags"] as? [String: Any] ?? [:]
        #expect(tags["com.apple.quicktime.content.identifier"] as? String == identifier)
    }

    @Test(
        "the still is processed and delivered while the post-roll records: the camera makes movie frames after didFinishProcessingPhoto, none after didFinishRecordingLivePhotoMovie"
    )
    func stillBeforeThePostRollEnds() async throws {
        let dir = try ExternalTool.temporaryFolder("lux-live-post-roll")
        defer { try? FileManager.default.removeItem(at: dir) }
        // The small still is delivered a few frames into the 45 of the post-roll (5–6 in debug builds: frames 57–58
        // of 94), the camera making the rest meanwhile; processed after the post-roll, it came at frame 94.
        let rig = try await Self.rig(microphone: false, clock: nil)
        var framesAt: [String: Int] = [:]
        for try await event in try rig.photo.capturePhoto(Self.settings(dir.appendingPathComponent("IMG_0002.MOV"))) {
            framesAt[event.name] = rig.camera.status.frameCount
        }
        let still = try #require(framesAt["didFinishProcessingPhoto"])
        let recorded = try #require(framesAt["didFinishRecordingLivePhotoMovie"])
        #expect(still < recorded, "frames made by the still's delivery \(still), by the movie's end \(recorded)")
        #expect(framesAt["didFinishCapture"] == recorded)
    }

    @Test(
        "prepared for Live Photos alone, the idle session fills the ring buffer: the shutter records no pre-roll (45 frames without), the movie still spans 1.5 s either side"
    )
    func preRollBeforeTheShutter() async throws {
        let dir = try ExternalTool.temporaryFolder("lux-live-ring")
        defer { try? FileManager.default.removeItem(at: dir) }
        /// The frames the camera makes for a capture, and the movie's duration and still time.
        func capture(_ rig: CaptureRig, _ name: String) async throws -> (Int, MediaTime, MediaTime) {
            let before = rig.camera.status.frameCount
            let events = try await collect(try rig.photo.capturePhoto(Self.settings(dir.appendingPathComponent(name))))
            let (duration, photoTime) = try #require(Self.movieTimes(events), "no movie event: \(events.names)")
            return (rig.camera.status.frameCount - before, duration, photoTime)
        }
        let control = try await Self.rig(microphone: false)
        control.photo.isLivePhotoAutoTrimmingEnabled = false
        let (recordedAtShutter, _, _) = try await capture(control, "control.mov")

        let clock = ManualClock()
        let rig = try await Self.rig(microphone: false, clock: clock)
        rig.photo.isLivePhotoAutoTrimmingEnabled = false
        let period = Duration(rig.camera.activeFrameDuration)
        let frames = rig.camera.status.frameCount
        // Other kinds prepared too: the idle session makes no frames for the ring.
        try await rig.photo.prepare([PhotoSettings(), Self.settings(dir.appendingPathComponent("x.mov"))])
        try await SceneMonitoringTests.step(clock, by: period, 10)
        #expect(rig.camera.status.frameCount == frames && rig.photo.livePhotoRing.span == .zero)
        // Live Photos alone: while the fresh session's exposure and focus settle, idle frames are only metered and
        // the ring stays empty (a pre-roll shows the picture the shutter is pressed on); then each frame duration of
        // idle time records a frame, and the ring keeps the last 1.5 s.
        try await rig.photo.prepare([Self.settings(dir.appendingPathComponent("x.mov"))])
        func adjusting() -> Bool { rig.camera.status.isAdjustingExposure || rig.camera.status.isAdjustingFocus }
        var settling = 0
        repeat {
            // A frame made while the last one reported adjusting is metered, not recorded.
            let wasAdjusting = adjusting()
            try await SceneMonitoringTests.step(clock, by: period, 1)
            await rig.photo.livePhotoRing.waitForPendingFrame()
            settling += 1
            if wasAdjusting { #expect(rig.photo.livePhotoRing.span == .zero, "frame \(settling) while adjusting") }
        } while adjusting() && settling < 300
        #expect(settling > 1 && settling < 300, "\(settling) frames to settle")
        let settled = rig.camera.status.frameCount
        try await SceneMonitoringTests.step(clock, by: period, 50)
        await rig.photo.livePhotoRing.waitForPendingFrame()
        #expect(rig.camera.status.frameCount == settled + 50 && settled - frames == settling)
        #expect(rig.photo.livePhotoRing.span == MediaTime(value: 3, timescale: 2), "\(rig.photo.livePhotoRing.span)")
        let (recorded, duration, photoTime) = try await capture(rig, "live.mov")
        #expect(
            recordedAtShutter - recorded == 45, "\(recordedAtShutter) frames with the pre-roll, \(recorded) without")
        #expect(duration == MediaTime(value: 3, timescale: 1) && photoTime == MediaTime(value: 3, timescale: 2))
    }

    @Test(
        "a movie trimmed 0.5 s after the still (a shoe shot) drops the frame that begins 5 ns before that end (it would show for no time at 1/600 s)"
    )
    func trimmedEndBetweenTicks() async throws {
        let dir = try ExternalTool.temporaryFolder("lux-live-trim")
        defer { try? FileManager.default.removeItem(at: dir) }
        let rig = try await Self.rig(microphone: false)
        let capabilities = rig.photo.capabilities
        let recorder = LivePhotoRecorder(
            pump: try #require(rig.session.pump), ring: LivePhotoRingBuffer(), capabilities: capabilities)
        let made = try await recorder.record()
        // 90 frames 33 333 333 ns apart (a device clock's 1/30 s), the still at frame 45; the picture is steady,
        // then from frame 46 the camera drops 10 px a frame: the trimmer ends the movie at the still + 0.5 s,
        // 5 ns after frame 60 begins (1999999985 ns, tick 1200 of 1/600 s, and frame 60 rounds to tick 1200 too).
        let slot = MediaTime(value: 33_333_333, timescale: 1_000_000_000)
        let frames = (0..<90).map { k in
            var frame = made
            frame.time = slot * k
            frame.duration = slot
            let drop = Double(max(0, k - 45) * 10)
            frame.reduced = PixelBuffer(
                width: 96, height: 72, format: .rgba8,
                components: (0..<(96 * 72)).flatMap { i -> [UInt8] in
                    let u = Double(i % 96)
                    let v = Double(i / 96) + drop
                    let t = 0.5 + 0.25 * sin(u * 0.21) * cos(v * 0.17) + 0.2 * sin(u * 0.05 + v * 0.09)
                    let g = UInt8((255 * t).rounded())
                    return [g, g, g, 255]
                }, colorSpace: .sRGB)
            return frame
        }
        let url = dir.appendingPathComponent("IMG_0001.MOV")
        let movie = try recorder.write(
            frames, stillTime: frames[45].time, to: url, identifier: UUID().uuidString, metadata: [],
            microphone: nil, autoTrim: true, stabilize: false, renderer: rig.photo.renderContext)
        #expect(movie.wasTrimmed && movie.frameCount == 60, "\(movie.frameCount) frames")
        let written = try QuickTimeMovie(contentsOf: url)
        #expect(written.duration == MediaTime(value: 2, timescale: 1), "\(written.duration)")
        #expect(
            written.stillImageTime == MediaTime(value: 3, timescale: 2), "\(String(describing: written.stillImageTime))"
        )
    }

    @Test(
        "a 3 s Live Photo movie of 1440×1080 camera frames with sound is at most 6 MB (Motion-JPEG made 13.6 MB)",
        .needs("ffprobe"))
    func movieSize() async throws {
        let dir = try ExternalTool.temporaryFolder("lux-live-capture")
        defer { try? FileManager.default.removeItem(at: dir) }
        // A 4:3 sensor of 1440×1080 photosites: its Live Photo movie has an iPhone's 1440×1080 frames.
        let rig = try await Self.rig(microphone: false, sensor: .small(width: 1440, height: 1080))
        let capabilities = rig.photo.capabilities
        #expect(capabilities.livePhotoMovieDimensions == PixelDimensions(width: 1440, height: 1080))
        let recorder = LivePhotoRecorder(
            pump: try #require(rig.session.pump), ring: LivePhotoRingBuffer(), capabilities: capabilities)
        // Simulating 90 frames of 1440×1080 takes a debug build a quarter of an hour, so the movie cycles through
        // five frames the camera makes as it would for a capture, each with its own sensor noise (what costs an
        // encoder bits in a still scene). Five, a prime above the encoder's reference distances (four at most with
        // x264's three B-frames), so no frame is predicted from a copy of itself.
        var made: [LivePhotoMovieFrame] = []
        for _ in 0..<5 { made.append(try await recorder.record()) }
        let slot = made[0].duration
        let frames = (0..<90).map { k in
            var frame = made[k % made.count]
            frame.time = made[0].time + slot * k
            return frame
        }
        let url = dir.appendingPathComponent("IMG_0001.MOV")
        let microphone = SimulatedMicrophone(source: rig.camera.scene.sound, sampleRate: 44_100)
        let movie = try recorder.write(
            frames, stillTime: frames[45].time, to: url, identifier: UUID().uuidString, metadata: [],
            microphone: microphone, autoTrim: false, stabilize: false, renderer: rig.photo.renderContext)
        #expect(movie.frameCount == 90)
        let probe = try ExternalTool.capture(
            "ffprobe",
            ["-v", "error", "-show_entries", "stream=codec_name,width,height:format=duration", "-of", "json", url.path])
        let json = try JSONSerialization.jsonObject(with: probe.stdout) as? [String: Any] ?? [:]
        let streams = json["streams"] as? [[String: Any]] ?? []
        #expect(streams.compactMap { $0["codec_name"] as? String }.prefix(2) == ["h264", "aac"])
        #expect(streams.first?["width"] as? Int == 1440 && streams.first?["height"] as? Int == 1080)
        let duration = Double((json["format"] as? [String: Any])?["duration"] as? String ?? "") ?? 0
        #expect(abs(duration - 3) <= 0.05, "ffprobe: \(duration) s")
        let bytes = try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int)
        #expect(bytes <= 6_000_000, "\(bytes) bytes")
    }

    @Test(
        "without a microphone the movie has no audio track and the resolved settings say so; suspended movies end at the still"
    )
    func noMicrophoneAndSuspension() async throws {
        let dir = try ExternalTool.temporaryFolder("lux-live-capture")
        defer { try? FileManager.default.removeItem(at: dir) }
        let rig = try await Self.rig(microphone: false)
        let url = dir.appendingPathComponent("a.mov")
        let events = try await collect(try rig.photo.capturePhoto(Self.settings(url)))
        #expect(!events[0].resolvedSettings.livePhotoMovieHasAudio)
        let movie = try QuickTimeMovie(contentsOf: url)
        #expect(movie.audioTrack == nil && movie.videoTrack != nil)
        rig.photo.isLivePhotoCaptureSuspended = true
        let url2 = dir.appendingPathComponent("b.mov")
        let suspended = try await collect(try rig.photo.capturePhoto(Self.settings(url2)))
        let (duration, photoTime) = try #require(Self.movieTimes(suspended), "no movie event")
        // No pre-roll kept while suspended and only the first frame after the still: one frame slot of 1/30 s,
        // showing the still from its start.
        #expect(duration == MediaTime(value: 1, timescale: 30) && photoTime == .zero, "\(duration), \(photoTime)")
    }

    @Test(
        "a Live Photo taken while a viewer reads the video data output keeps its 1.5 s on each side of the still",
        // A guard against a capture that never ends, not a speed check: in the whole suite on two loaded cores the
        // capture's tasks wait behind every other test's (it ran past 5 minutes once, with three builds beside the suite).
        .timeLimit(.minutes(10)))
    func whileViewing() async throws {
        let dir = try ExternalTool.temporaryFolder("lux-live-capture")
        defer { try? FileManager.default.removeItem(at: dir) }
        let video = VideoDataOutput()
        let rig = try await CaptureRig.make(extraOutputs: [video], clock: ManualClock())
        try rig.photo.setLivePhotoCaptureEnabled(true)
        rig.photo.isLivePhotoStabilizationEnabled = false
        rig.photo.isLivePhotoAutoTrimmingEnabled = false
        // The viewer takes every other device frame slot from the movie recorder (the studio's viewfinder): the
        // ring buffer used to start over at each gap, so the pre-roll never grew and the capture ran a thousand
        // frames before failing.
        let viewer = Task {
            var count = 0
            var frames = video.frames.makeAsyncIterator()
            while !Task.isCancelled, try await frames.next() != nil { count += 1 }
            return count
        }
        let url = dir.appendingPathComponent("IMG_0001.MOV")
        let events = try await collect(try rig.photo.capturePhoto(Self.settings(url)))
        viewer.cancel()
        // The viewer was served meanwhile (about every other of the capture's ~100 frame slots).
        let viewed = try await viewer.value
        #expect(viewed > 20, "\(viewed) frames viewed")
        #expect(events.names.last == "didFinishCapture")
        let (duration, photoTime) = try #require(Self.movieTimes(events), "no movie event: \(events.names)")
        // At least 1.5 s of device time on each side of the still, and at most a quarter second more (a frame slot
        // of 1/30 s and the slots the viewer took at either end; how many varies with the two sides' speeds).
        let before = photoTime.seconds
        let after = duration.seconds - photoTime.seconds
        #expect(before >= 1.5 - 1e-6 - 1.0 / 30 && before <= 1.75, "\(before) s before the still")
        #expect(after >= 1.5 - 1e-6 && after <= 1.75, "\(after) s after the still")
        let movie = try QuickTimeMovie(contentsOf: url)
        #expect(abs(movie.duration.seconds - duration.seconds) < 1e-3)
    }

    @Test("Live Photo requests need Live Photo capture enabled and a processed still")
    func rules() async throws {
        let rig = try await CaptureRig.make()
        var s = PhotoSettings()
        s.livePhotoMovieURL = URL(fileURLWithPath: "/tmp/x.mov")
        #expect(throws: CaptureError.self) { _ = try rig.photo.capturePhoto(s) }
        try rig.photo.setLivePhotoCaptureEnabled(true)
        var raw = PhotoSettings(rawPixelFormat: .bayer14(.rggb))
        raw.livePhotoMovieURL = URL(fileURLWithPath: "/tmp/x.mov")
        #expect(throws: CaptureError.self) { _ = try rig.photo.capturePhoto(raw) }
    }
}
