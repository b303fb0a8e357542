import LuxPixels
import LuxScene
import LuxTestSupport
import Synchronization
import Testing

@testable import LuxCapture

/// Scene monitoring on a session whose clock the test advances: the monitor runs once per frame duration of that
/// clock, so every frame it meters is one the test asked for.
@Suite struct SceneMonitoringTests {
    /// Advances `clock` by `period`, `count` times, each time after the session's scene monitor has gone back to
    /// sleep (so each step's metering is done before the next starts, and when this returns).
    static func step(_ clock: ManualClock, by period: Duration, _ count: Int) async throws {
        for _ in 0..<count {
            try #require(await clock.sleepers(atLeast: 1))
            clock.advance(by: period)
        }
        try #require(await clock.sleepers(atLeast: 1))
    }

    @Test("No monitoring settings (the default): both flags stay false, even in the dark")
    func defaultOff() async throws {
        let rig = try await CaptureRig.make(scene: .lowLight())
        #expect(rig.photo.photoSettingsForSceneMonitoring == nil)
        _ = try await collect(try rig.photo.capturePhoto(PhotoSettings()))  // meters the dark scene
        #expect(!rig.photo.isFlashScene && !rig.photo.isStillImageStabilizationScene)
    }

    @Test(
        "Monitoring meters a stream frame per frame duration of the session's clock, unless another frame is that fresh"
    )
    func cadence() async throws {
        let clock = ManualClock()
        let rig = try await CaptureRig.make(scene: .lowLight(), clock: clock)
        let period = Duration(rig.camera.activeFrameDuration)
        let start = rig.camera.status.frameCount
        try await Self.step(clock, by: period, 5)
        #expect(rig.camera.status.frameCount == start, "frames metered without monitoring settings")
        rig.photo.photoSettingsForSceneMonitoring = PhotoSettings()
        try await Self.step(clock, by: period, 5)
        #expect(rig.camera.status.frameCount == start + 5)
        // Another consumer makes a frame half-way to the monitor's next turn: at that turn the last frame is only
        // half a frame duration old, so the monitor skips it; at the turn after, it meters again.
        let turn = try #require(clock.nextDeadline)
        clock.advance(by: period / 2)
        _ = try await #require(rig.session.pump).meter()
        clock.advance(to: turn)
        try #require(await clock.sleepers(atLeast: 1))
        #expect(clock.nextDeadline == turn.advanced(by: period), "the monitor did not take its turn")
        #expect(rig.camera.status.frameCount == start + 6)
        try await Self.step(clock, by: period, 1)
        #expect(rig.camera.status.frameCount == start + 7)
        rig.photo.photoSettingsForSceneMonitoring = nil
        try await Self.step(clock, by: period, 3)
        #expect(rig.camera.status.frameCount == start + 7)
    }

    @Test("Monitoring makes no frames while a capture request is in flight, and resumes at the turn after it ends")
    func pausesForRequests() async throws {
        let clock = ManualClock()
        let (gate, open) = AsyncStream<Void>.makeStream()
        let made = Mutex((count: 0, holdsNext: false))
        let camera = ForwardingCamera(CaptureRig.camera()) {
            let holds = made.withLock { m in
                m.count += 1
                defer { m.holdsNext = false }
                return m.holdsNext
            }
            if holds {
                var opened = gate.makeAsyncIterator()
                _ = await opened.next()
            }
        }
        // A video format: the request's photo is a stream frame, which the camera holds until the gate opens.
        let (session, photo) = try await CaptureRig.session(
            camera: camera, format: CaptureRig.videoFormat(highQuality: false), clock: clock)
        let period = Duration(camera.activeFrameDuration)
        photo.photoSettingsForSceneMonitoring = PhotoSettings()
        try await Self.step(clock, by: period, 3)
        made.withLock { $0.holdsNext = true }
        var speed = PhotoSettings()
        speed.qualityPrioritization = .speed
        var events = try photo.capturePhoto(speed).makeAsyncIterator()
        while made.withLock({ $0.holdsNext }) { await Task.yield() }
        let held = made.withLock { $0.count }
        // A monitor that took its turns would wait behind the held frame and never sleep again (`step` would fail).
        try await Self.step(clock, by: period, 5)
        #expect(made.withLock { $0.count } == held, "monitored while the request was in flight")
        open.yield()
        while try await events.next() != nil {}
        let after = made.withLock { $0.count }
        try await Self.step(clock, by: period, 3)
        #expect(made.withLock { $0.count } == after + 3)
        await session.stopRunning()
    }

    @Test(
        "Monitoring frames begin a frame duration apart however long each takes; a late one begins at once, with no burst after"
    )
    func deadlineSchedule() async throws {
        let clock = ManualClock()
        // How long (ms of the test's clock) each monitored frame takes to make: quicker than a frame duration, then
        // three that overrun it, then quick again.
        let making = [20, 20, 20, 20, 50, 50, 50, 20, 20, 20]
        let starts = Mutex<[Duration]?>(nil)  // nil until the test arms the camera
        let camera = ForwardingCamera(CaptureRig.camera()) {
            let took = starts.withLock { s -> Int? in
                guard let n = s?.count, n < making.count else { return nil }
                s?.append(clock.now.offset)
                return making[n]
            }
            if let took { clock.advance(by: .milliseconds(took)) }
        }
        let (session, photo) = try await CaptureRig.session(camera: camera, clock: clock)
        let period = Duration(camera.activeFrameDuration)
        try #require(await clock.sleepers(atLeast: 1))
        starts.withLock { $0 = [] }
        photo.photoSettingsForSceneMonitoring = PhotoSettings()
        while starts.withLock({ $0!.count }) < making.count {
            try #require(await clock.sleepers(atLeast: 1))
            clock.advance(to: try #require(clock.nextDeadline))
        }
        let times = try #require(starts.withLock { $0 })
        let gaps = zip(times.dropFirst(), times).map { $0 - $1 }
        let ms = Duration.milliseconds(50)
        // A frame duration after the quick ones began; right after each overrun; then a frame duration again.
        #expect(gaps == [period, period, period, period, ms, ms, ms, period, period], "\(gaps)")
        await session.stopRunning()
    }

    @Test("A dark scene is a flash and stabilisation scene; flash off makes isFlashScene false; light clears both")
    func followsTheScene() async throws {
        let clock = ManualClock()
        let rig = try await CaptureRig.make(scene: .lowLight(), clock: clock)
        let period = Duration(rig.camera.activeFrameDuration)
        var monitor = PhotoSettings()
        monitor.flashMode = .auto
        monitor.isAutoStillImageStabilizationEnabled = true
        // The frames that settled exposure at start metered the dark scene.
        rig.photo.photoSettingsForSceneMonitoring = monitor
        #expect(rig.photo.isFlashScene && rig.photo.isStillImageStabilizationScene)
        var noFlash = monitor
        noFlash.flashMode = .off
        rig.photo.photoSettingsForSceneMonitoring = noFlash
        #expect(!rig.photo.isFlashScene)
        #expect(rig.photo.isStillImageStabilizationScene)
        rig.photo.photoSettingsForSceneMonitoring = monitor
        #expect(rig.photo.isFlashScene)
        // Turn the lights on: nothing changes until the monitor meters the live scene, then both flags clear (within
        // the 12 frames the session allows auto exposure to settle at start).
        let flashValues = rig.photo.values(of: .isFlashScene)
        rig.camera.scene = .stillLife(light: Light(.d65, lux: 2000))
        try #require(await clock.sleepers(atLeast: 1))
        #expect(rig.photo.isFlashScene && rig.photo.isStillImageStabilizationScene)
        try await Self.step(clock, by: period, 12)
        #expect(!rig.photo.isFlashScene && !rig.photo.isStillImageStabilizationScene)
        var seen: [Bool] = []
        for await v in flashValues {
            seen.append(v)
            if !v { break }
        }
        #expect(seen == [true, false], "the flag went back and forth: \(seen)")
        rig.photo.photoSettingsForSceneMonitoring = nil
        #expect(!rig.photo.isFlashScene && !rig.photo.isStillImageStabilizationScene)
    }
}
