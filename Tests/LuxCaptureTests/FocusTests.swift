import LuxPixels
import LuxScene
import Testing

@testable import LuxCapture

@Suite struct FocusTests {
    /// The vase of the still life, as a point of interest in normalised frame coordinates.
    static let vase = Point(x: 0.3, y: 0.4 / 0.75)

    /// The still life through the phone's lens on a sensor with a third of its photosites per side (same field of
    /// view): 336 × 252 stream frames instead of 1008 × 756, so the frame-by-frame loops run fast in debug builds.
    static func stillLifeCamera() -> SimulatedCamera {
        SimulatedCamera(scene: .stillLife(), configuration: .init(sensor: .small(width: 1344, height: 1008)))
    }

    @Test("The focus score peaks at the lens position that focuses at the subject's distance")
    func scorePeak() async throws {
        let camera = SimulatedCamera(scene: .stillLife())
        try camera.setFocusPointOfInterest(Self.vase)
        let truth = camera.sensor.lens.lensPosition(focusDistance: Scene.stillLifeDistances.vase)
        var samples: [(position: Double, score: Double)] = []
        let plan0 = camera.state.withLock { $0.beginFrame(lensSpeed: 1) }
        for k in -5...5 {
            var plan = plan0
            plan.lensPosition = (truth + Double(k) * 0.02)
            samples.append((plan.lensPosition, try camera.measureFocus(plan)))
        }
        let best = samples.max { $0.score < $1.score }!
        #expect(abs(best.position - truth) < 0.011, "\(samples)")
        #expect(abs(AutoFocus.refinedPeak(samples) - truth) < 0.01)
    }

    /// A focus curve peaking at lens position 0.75, as the sweep sees it.
    static func score(_ p: Double) -> Double { 0.1 + .exp(-(p - 0.75) * (p - 0.75) / 0.01) }

    @Test(
        "A sweep starts at the end of the range nearer the lens, its fine pass from the side the lens is on, and ends at the peak",
        arguments: [0.9, 0.1])
    func sweepOrder(start: Double) throws {
        var focus = AutoFocus()
        focus.startSweep(range: 0...1)
        var position = start
        var targets: [Double] = []
        while targets.count < 40 {
            let r = focus.update(position: position, score: Self.score(position))
            if r.finished {
                #expect(abs(try #require(r.target) - 0.75) < 0.01, "\(targets)")
                break
            }
            position = try #require(r.target)
            targets.append(position)
        }
        // 13 coarse positions 1/12 apart, from the near end: the lens never crosses the range to begin.
        let coarse = (0..<13).map { Double($0) / 12 }
        let expected = start > 0.5 ? Array(coarse.reversed()) : coarse
        #expect(zip(targets.prefix(13), expected).allSatisfy { abs($0 - $1) < 1e-9 }, "\(targets)")
        // The fine pass, ±4 quarter steps around the best coarse position (0.75), crosses it once, from the side the
        // coarse sweep left the lens on.
        let fine = Array(targets.dropFirst(13))
        #expect(fine.count == 8, "\(fine)")
        #expect(fine == (start > 0.5 ? fine.sorted() : fine.sorted().reversed()), "\(fine)")
    }

    @Test("One-shot autofocus lands within 0.02 of the subject's lens position, then locks")
    func oneShot() async throws {
        let camera = Self.stillLifeCamera()
        camera.setFocusMode(.locked)
        try camera.setFocusPointOfInterest(Self.vase)
        camera.setFocusMode(.autoFocus)
        var frames = 0
        while camera.focusMode != .locked && frames < 80 {
            _ = try await camera.run(1)
            frames += 1
        }
        _ = try await camera.run(3)  // let the lens park
        let truth = camera.sensor.lens.lensPosition(focusDistance: Scene.stillLifeDistances.vase)
        #expect(camera.focusMode == .locked)
        #expect(
            abs(Double(camera.lensPosition) - truth) < 0.02,
            "lens \(camera.lensPosition), truth \(truth), \(frames) frames")
        #expect(!camera.status.isAdjustingFocus)
    }

    @Test("Continuous autofocus finds the orange and refocuses on the book when the point of interest moves")
    func continuous() async throws {
        let camera = Self.stillLifeCamera()
        let lens = camera.sensor.lens
        try camera.setFocusPointOfInterest(Point(x: 0.56, y: 0.6 / 0.75))
        camera.setFocusMode(.continuousAutoFocus)
        _ = try await camera.run(30)
        #expect(
            abs(Double(camera.lensPosition) - lens.lensPosition(focusDistance: Scene.stillLifeDistances.orange)) < 0.03)
        try camera.setFocusPointOfInterest(Point(x: 0.75, y: 0.5 / 0.75))
        _ = try await camera.run(30)
        #expect(
            abs(Double(camera.lensPosition) - lens.lensPosition(focusDistance: Scene.stillLifeDistances.book)) < 0.03)
    }

    /// The still life in daylight of `lux`, with the vase `vaseDistance` metres away.
    static func stillLife(lux: Double, vaseDistance: Double) -> Scene {
        var scene = Scene.stillLife(light: Light(.daylight(kelvin: 5500), lux: lux))
        for i in scene.layers.indices where scene.layers[i].name == "vase" { scene.layers[i].distance = vaseDistance }
        return scene
    }

    /// A scene change as the demo's Live Photo step makes it: the vase, focused on in one light at one distance, is
    /// replaced by one three stops brighter or darker at another distance (a new subject under the focus point).
    @Test(
        "Continuous autofocus refocuses when the scene changes to a subject at another distance and brightness",
        arguments: [(lux: 600.0, vase: 0.6, newLux: 75.0, newVase: 1.0), (75, 1.0, 600, 0.6), (600, 0.6, 75, 0.35)])
    func sceneChange(_ change: (lux: Double, vase: Double, newLux: Double, newVase: Double)) async throws {
        let camera = Self.stillLifeCamera()
        let lens = camera.sensor.lens
        camera.scene = Self.stillLife(lux: change.lux, vaseDistance: change.vase)
        try camera.setFocusPointOfInterest(Self.vase)
        camera.setFocusMode(.continuousAutoFocus)
        _ = try await camera.run(40)
        let before = lens.lensPosition(focusDistance: change.vase)
        #expect(abs(Double(camera.lensPosition) - before) < 0.03, "lens \(camera.lensPosition), truth \(before)")
        camera.scene = Self.stillLife(lux: change.newLux, vaseDistance: change.newVase)
        // Exposure follows three stops in about 6 frames; the sweep takes about 40 more. The first frame at which
        // the camera no longer reports adjusting focus (what `lux demo` waits for) must be in focus too.
        let after = lens.lensPosition(focusDistance: change.newVase)
        var ready: (frames: Int, lens: Float)?
        for frame in 1...64 {
            _ = try await camera.run(1)
            if ready == nil, frame >= 3, !camera.status.isAdjustingFocus { ready = (frame, camera.lensPosition) }
        }
        let settled = try #require(ready)
        #expect(
            abs(Double(settled.lens) - after) < 0.03,
            "lens \(settled.lens) when focus was reported settled after \(settled.frames) frames, truth \(after)")
        #expect(
            abs(Double(camera.lensPosition) - after) < 0.03,
            "lens \(camera.lensPosition) after 64 frames, truth \(after) (before \(before))")
        #expect(!camera.status.isAdjustingFocus)
    }

    @Test("setFocusModeLocked returns the presentation time of the first frame at the new lens position")
    func syncTime() async throws {
        let camera = Self.stillLifeCamera()
        camera.setFocusMode(.locked)
        try await camera.startStreaming()
        let before = try await camera.run(2)
        let t = try await camera.setFocusModeLocked(lensPosition: 0.2)
        var frames: [CaptureFrame] = []
        for _ in 0..<8 { frames.append(contentsOf: try await camera.run(1)) }
        #expect(t > before.last!.presentationTime)
        let first = try #require(frames.first { $0.presentationTime == t })
        #expect(first.metadata.lensPosition == 0.2)
        #expect(frames.filter { $0.presentationTime < t }.allSatisfy { $0.metadata.lensPosition != 0.2 })
        // The lens travels from 0.8 at 0.15 per frame: several frames pass before it arrives.
        #expect(frames.filter { $0.presentationTime < t }.count >= 2)
        // Not streaming, `.current` locks where the lens is and the next frame slot reflects it.
        await camera.stopStreaming()
        let next = camera.nextFrameTime
        let t2 = try await camera.setFocusModeLocked(lensPosition: .current)
        #expect(t2 == next)
    }

    @Test("Lens positions outside 0…1 throw an error naming the range")
    func outOfRange() async {
        let camera = SimulatedCamera(scene: .stillLife())
        await #expect(throws: CaptureError.outOfRange(name: "lensPosition", value: Double(Float(1.2)), range: 0...1)) {
            try await camera.setFocusModeLocked(lensPosition: 1.2)
        }
    }
}
