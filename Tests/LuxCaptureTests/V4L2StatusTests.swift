import LuxColor
import LuxPixels
import Testing

@testable import LuxCapture

/// White-balance gains, live status read back from the device, and the 3A lock and autofocus status controls of a
/// V4L2 camera (the fake kernel with a raw-sensor module's controls).
@Suite struct V4L2StatusTests {
    func camera(_ kernel: FakeV4L2Kernel) throws -> V4L2Camera { try V4L2Camera(path: "/dev/video0", driver: kernel) }

    func sensorKernel() -> FakeV4L2Kernel { FakeV4L2Kernel(extraControls: FakeV4L2Kernel.sensorControls) }

    @Test("Red and blue balance are device white-balance gains: range from the controls, written relative to green")
    func whiteBalanceGains() async throws {
        let kernel = sensorKernel()
        let camera = try camera(kernel)
        // Balance 0…512 with the default 128 as gain 1: gains up to 512 / 128 = 4.
        #expect(camera.formats.allSatisfy { $0.maxWhiteBalanceGain == 4 })
        #expect(camera.controlCapabilities.supportsWhiteBalanceGains)
        try await camera.setWhiteBalanceModeLocked(gains: .value(WhiteBalanceGains(red: 2, green: 1, blue: 1.5)))
        // Auto white balance off, red 2 × 128, blue 1.5 × 128.
        #expect(
            kernel.kernel.withLock { $0.written.suffix(3).map { [$0.0: $0.1] } } == [
                [0x0098_090C: 0], [0x0098_090E: 256], [0x0098_090F: 192],
            ])
        #expect(camera.status.whiteBalanceMode == .locked)
        #expect(camera.status.deviceWhiteBalanceGains == WhiteBalanceGains(red: 2, green: 1, blue: 1.5))
        // Gains relative to green: (2.4, 1.2, 1.2) is red 2 × 128, blue 1 × 128.
        try await camera.setWhiteBalanceModeLocked(gains: .value(WhiteBalanceGains(red: 2.4, green: 1.2, blue: 1.2)))
        #expect(kernel.kernel.withLock { $0.written.suffix(2).map(\.1) } == [256, 128])
        await #expect(throws: CaptureError.whiteBalanceGainsOutOfRange(red: 5, green: 1, blue: 1, maximum: 4)) {
            try await camera.setWhiteBalanceModeLocked(gains: .value(WhiteBalanceGains(red: 5, green: 1, blue: 1)))
        }
        await #expect(throws: CaptureError.whiteBalanceGainsOutOfRange(red: 0.5, green: 1, blue: 1, maximum: 4)) {
            try await camera.setWhiteBalanceModeLocked(gains: .value(WhiteBalanceGains(red: 0.5, green: 1, blue: 1)))
        }
        // Without the balance controls (the C920): gain 1 only, and explicit gains are unsupported.
        let webcam = try self.camera(FakeV4L2Kernel())
        #expect(webcam.activeFormat.maxWhiteBalanceGain == 1 && !webcam.controlCapabilities.supportsWhiteBalanceGains)
        await #expect(throws: CaptureError.self) {
            try await webcam.setWhiteBalanceModeLocked(gains: .value(WhiteBalanceGains(red: 1, green: 1, blue: 1)))
        }
    }

    @Test("The status reads back what the device reports, as its automatic modes change the controls")
    func liveStatus() throws {
        let kernel = sensorKernel()
        let camera = try camera(kernel)
        kernel.kernel.withLock { k in
            // What auto exposure, autofocus and auto white balance wrote on the "device".
            k.values[V4L2.Control.exposureAbsolute.rawValue] = 333
            k.values[V4L2.Control.gain.rawValue] = 8
            k.values[V4L2.Control.focusAbsolute.rawValue] = 50
            k.values[V4L2.Control.whiteBalanceTemperature.rawValue] = 3200
            k.values[V4L2.Control.redBalance.rawValue] = 160
            k.values[V4L2.Control.blueBalance.rawValue] = 256
        }
        let s = camera.status
        #expect(s.exposureDuration == MediaTime(value: 333, timescale: 10_000))  // 100 µs units
        #expect(s.iso == 800)  // gain 8 with gain 1 as ISO 100
        #expect(s.lensPosition == 0.8)  // (250 − 50) / 250: larger focus values are closer
        #expect(s.deviceWhiteBalanceGains == WhiteBalanceGains(red: 1.25, green: 1, blue: 2))
        #expect(camera.whiteBalanceTemperature == 3200)
        #expect(s.focusMode == .continuousAutoFocus && s.exposureMode == .continuousAutoExposure)
        #expect(s.whiteBalanceMode == .continuousAutoWhiteBalance)
        // Another program turned the automatic modes off.
        kernel.kernel.withLock { k in
            k.values[V4L2.Control.focusAuto.rawValue] = 0
            k.values[V4L2.Control.exposureAuto.rawValue] = 1
            k.values[V4L2.Control.autoWhiteBalance.rawValue] = 0
        }
        let off = camera.status
        #expect(off.focusMode == .locked && off.exposureMode == .custom && off.whiteBalanceMode == .locked)
    }

    @Test("Locks go through V4L2_CID_3A_LOCK while the automatic modes run; autofocus scans report busy")
    func locksAndAutoFocus() throws {
        let kernel = sensorKernel()
        let camera = try camera(kernel)
        #expect(camera.controlCapabilities.focusModes == [.locked, .continuousAutoFocus, .autoFocus])
        func locks() -> [Int32] { kernel.kernel.withLock { $0.written.filter { $0.0 == 0x009A_091B }.map(\.1) } }
        try camera.setExposureMode(.locked)
        try camera.setWhiteBalanceMode(.locked)
        try camera.setFocusMode(.locked)
        // Exposure, white balance, focus bits (V4L2_LOCK_EXPOSURE 1, _WHITE_BALANCE 2, _FOCUS 4).
        #expect(locks() == [1, 3, 7])
        // The automatic modes stay on: the lock holds what they reached.
        #expect(kernel.kernel.withLock { $0.values[0x009A_0901] == 3 && $0.values[0x0098_090C] == 1 })
        var s = camera.status
        #expect(s.exposureMode == .locked && s.whiteBalanceMode == .locked && s.focusMode == .locked)
        try camera.setExposureMode(.continuousAutoExposure)
        #expect(locks() == [1, 3, 7, 6])
        #expect(camera.status.exposureMode == .continuousAutoExposure)
        // One scan: focus unlocked, continuous autofocus off, V4L2_CID_AUTO_FOCUS_START; the device is busy.
        try camera.setFocusMode(.autoFocus)
        #expect(locks().last == 2)
        #expect(kernel.kernel.withLock { $0.written.suffix(2).map(\.0) } == [0x009A_090C, 0x009A_091C])
        s = camera.status
        #expect(s.isAdjustingFocus && s.focusMode == .autoFocus)
        // The scan ends: V4L2_AUTO_FOCUS_STATUS_REACHED.
        kernel.kernel.withLock { $0.values[V4L2.Control.autoFocusStatus.rawValue] = 2 }
        #expect(!camera.status.isAdjustingFocus)
        // Locking after a scan stops it (V4L2_CID_AUTO_FOCUS_STOP) rather than using the 3A lock.
        try camera.setFocusMode(.locked)
        #expect(kernel.kernel.withLock { $0.written.last?.0 } == 0x009A_090C)
        #expect(kernel.kernel.withLock { $0.written.suffix(2).first?.0 } == 0x009A_091D)
        #expect(camera.status.focusMode == .locked && !camera.status.isAdjustingFocus)
    }
}
