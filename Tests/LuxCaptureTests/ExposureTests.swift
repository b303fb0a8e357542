import LuxPixels
import LuxScene
import RealModule
import Testing

@testable import LuxCapture

@Suite struct ExposureTests {
    @Test("Doubling the duration or the ISO doubles the linear signal, until it clips")
    func linearity() async throws {
        let camera = SimulatedCamera(scene: grayCard(kelvin: 5000, lux: 400))
        camera.setFocusMode(.locked)
        try await camera.startStreaming()
        func signal(_ d: Double, _ iso: Float) async throws -> Double {
            try await camera.setExposureModeCustom(duration: .value(MediaTime(seconds: d)), iso: .value(iso))
            let f = try await camera.run(1, raw: true)[0]
            return camera.centreMeans(f.raw!).y
        }
        let base = try await signal(0.01, 100)
        let longer = try await signal(0.02, 100)
        let higher = try await signal(0.01, 200)
        #expect(base > 0.05 && base < 0.3)
        #expect(abs(longer / base - 2) < 0.02, "\(longer / base)")
        #expect(abs(higher / base - 2) < 0.02, "\(higher / base)")
        // Far over: the green channel sits at the white level and doubling no longer doubles.
        let clipped = try await signal(0.25, 1024)
        let clipped2 = try await signal(0.25, 2048)
        #expect(clipped > 0.99 && clipped2 / clipped < 1.01)
    }

    @Test("An EV bias of +1 doubles the metered target (custom mode: the offset drops by exactly 1 EV)")
    func biasMovesTarget() async throws {
        let camera = SimulatedCamera(scene: grayCard(kelvin: 5000, lux: 400))
        camera.setFocusMode(.locked)
        try await camera.startStreaming()
        try await camera.setExposureModeCustom(duration: .value(MediaTime(value: 1, timescale: 100)), iso: .value(100))
        _ = try await camera.run(1)
        let o0 = camera.status.exposureTargetOffset
        try await camera.setExposureTargetBias(1)
        _ = try await camera.run(1)
        let o1 = camera.status.exposureTargetOffset
        #expect(abs((o0 - o1) - 1) < 0.01, "\(o0) → \(o1)")
        // Custom mode: bias changes only the meter, not the exposure.
        #expect(camera.status.exposureDuration == MediaTime(value: 1, timescale: 100) && camera.status.iso == 100)
    }

    @Test("In continuous auto exposure, a bias of +1 doubles the exposure the loop settles on")
    func biasInAuto() async throws {
        let camera = SimulatedCamera(scene: grayCard(kelvin: 5000, lux: 400))
        camera.setFocusMode(.locked)
        _ = try await camera.run(10)
        let p0 = camera.status.exposureDuration.seconds * Double(camera.status.iso)
        try await camera.setExposureTargetBias(1)
        _ = try await camera.run(8)
        let p1 = camera.status.exposureDuration.seconds * Double(camera.status.iso)
        #expect(abs(camera.status.exposureTargetOffset) < 1.0 / 6)
        // Both settle within the ±1/6 EV deadband.
        #expect(abs(Double.log2(p1 / p0) - 1) < 1.0 / 3, "\(p1 / p0)")
    }

    @Test("In locked mode a bias change moves the exposure by exactly the bias")
    func biasInLocked() async throws {
        let camera = SimulatedCamera(scene: grayCard(kelvin: 5000, lux: 400))
        camera.setFocusMode(.locked)
        _ = try await camera.run(8)
        camera.setExposureMode(.locked)
        let p0 = camera.status.exposureDuration.seconds * Double(camera.status.iso)
        try await camera.setExposureTargetBias(-1)
        let frames = try await camera.run(3)
        let p1 = camera.status.exposureDuration.seconds * Double(camera.status.iso)
        #expect(abs(p1 / p0 - 0.5) < 1e-3)
        #expect(frames.allSatisfy { $0.metadata.exposureDuration == frames[0].metadata.exposureDuration })
    }

    @Test(
        "After a 4 EV scene change AE is within 1/6 EV in ≤ 6 frames, never overshoots 0.25 EV, and stays put",
        arguments: [(50.0, 800.0), (800.0, 50.0)])
    func convergence(from: Double, to: Double) async throws {
        let camera = SimulatedCamera(scene: grayCard(kelvin: 5000, lux: from))
        camera.setFocusMode(.locked)
        _ = try await camera.run(12)
        #expect(abs(camera.status.exposureTargetOffset) < 1.0 / 6)
        camera.scene = grayCard(kelvin: 5000, lux: to)
        var offsets: [Float] = []
        for f in try await camera.run(20) { offsets.append(f.metadata.exposureTargetOffset) }
        // offsets[0] is the frame that saw the change (±4 EV).
        #expect(abs(abs(offsets[0]) - 4) < 0.3 || (to > from && offsets[0] > 2.5), "\(offsets)")
        let settled = offsets.firstIndex { abs($0) <= 1.0 / 6 } ?? 99
        #expect(settled <= 6, "\(offsets)")
        let sign = offsets[0] > 0 ? Float(1) : -1
        #expect(offsets.allSatisfy { $0 * sign > -0.25 }, "overshoot: \(offsets)")
        let tail = Array(offsets[settled...])
        #expect(tail.allSatisfy { abs($0) <= 1.0 / 6 }, "not stable: \(offsets)")
    }
}
