import Foundation
import Lux
import Testing

/// The snippets of Sources/Lux/Documentation.docc/ManualCameraControls.md, in order, on a small simulated camera.
@Suite struct ManualCameraControlsSnippets {
    @Test func theWholeArticle() async throws {
        let camera = smallCamera()

        try await camera.startStreaming()
        let sharp = try await camera.setFocusModeLocked(lensPosition: 0.8)  // the frame that arrives there
        for try await frame in camera.frames() where frame.presentationTime >= sharp {
            print(frame.metadata.lensPosition)  // 0.8
            break
        }
        try await camera.setFocusModeLocked(lensPosition: .current)  // lock wherever autofocus left the lens
        do {
            try await camera.setFocusModeLocked(lensPosition: 1.5)
        } catch {
            if case .outOfRange(let name, let value, let range) = error {
                print(name, value, range)  // lensPosition 1.5 0.0...1.0
            }
        }

        #expect(camera.lensPosition == 0.8)

        let format = camera.activeFormat
        print(format.minExposureDuration.seconds, format.maxExposureDuration.seconds, format.minISO, format.maxISO)
        let exposed = try await camera.setExposureModeCustom(
            duration: .value(MediaTime(value: 1, timescale: 250)), iso: .value(400))
        for try await frame in camera.frames() where frame.presentationTime >= exposed {
            print(frame.metadata.exposureDuration.seconds, frame.metadata.iso)  // 0.004 400.0
            break
        }
        print(camera.status.exposureTargetOffset)  // stops away from the metered exposure
        camera.setExposureMode(.continuousAutoExposure)
        try await camera.setExposureTargetBias(-1)  // one stop darker than metered

        #expect(camera.status.exposureMode == .continuousAutoExposure)
        #expect(camera.status.exposureTargetBias == -1)
        await #expect(throws: CaptureError.self) {
            try await camera.setExposureModeCustom(
                duration: .value(MediaTime(value: 1, timescale: 1_000_000_000)), iso: .current)
        }

        let tungsten = try camera.deviceWhiteBalanceGains(for: TemperatureAndTint(temperature: 3200, tint: 0))
        let balanced = try await camera.setWhiteBalanceModeLocked(gains: .value(tungsten))
        print(try camera.temperatureAndTint(for: tungsten))  // 3200 K, tint 0
        let grey = camera.status.grayWorldWhiteBalanceGains
        try await camera.setWhiteBalanceModeLocked(gains: .value(grey))
        do {
            try await camera.setWhiteBalanceModeLocked(gains: .value(WhiteBalanceGains(red: 5, green: 1, blue: 1)))
        } catch {
            if case .whiteBalanceGainsOutOfRange(_, _, _, let maximum) = error {
                print("gains must stay within 1…\(maximum)")
            }
        }

        let back = try camera.temperatureAndTint(for: tungsten)
        #expect(abs(back.temperature - 3200) < 5 && abs(back.tint) < 0.5)
        #expect(camera.status.whiteBalanceMode == .locked)
        #expect(camera.status.deviceWhiteBalanceGains == grey)
        _ = balanced

        let lens = camera.values(of: .lensPosition)  // the current value, then every change
        camera.setFocusMode(.autoFocus)  // one contrast-detect sweep, then locked
        for try await _ in camera.frames() where camera.focusMode == .locked { break }
        var sweep: [Float] = []
        for await position in lens {
            sweep.append(position)
            if position == camera.lensPosition { break }  // where the sweep settled
        }

        #expect(camera.focusMode == .locked && sweep.last == camera.lensPosition && sweep.count >= 2)

        func lockLook(of device: any CaptureDevice) async throws -> MediaTime {
            var synced = MediaTime.zero
            let controls = device.controlCapabilities
            if controls.exposureModes.contains(.custom) {
                let sixtieth = MediaTime(value: 1, timescale: 60)
                synced = try await device.setExposureModeCustom(duration: .value(sixtieth), iso: .current)
            }
            if controls.supportsWhiteBalanceTemperature {
                let white = TemperatureAndTint(temperature: 5000, tint: 0)
                synced = max(synced, try await device.setWhiteBalanceModeLocked(temperatureAndTint: white))
            }
            return synced  // frames from here on show both
        }
        for found in CaptureDeviceDiscoverySession().devices().cameras {
            print(found.localizedName, found.controlCapabilities)
        }
        print(try await lockLook(of: camera))

        #expect(camera.status.exposureMode == .custom && camera.status.whiteBalanceMode == .locked)
    }
}
