import LuxPixels
import LuxScene
import Testing
@testable import LuxCapture

@Suite struct SmokeTests {
    @Test func stream() async throws {
        let camera = SimulatedCamera(scene: .grayCard(light: Light(.planckian(kelvin: 3000), lux: 500)))
        camera.setFocusMode(.locked)
        try await camera.startStreaming()
        let clock = ContinuousClock()
        for _ in 0..<6 {
            let t0 = clock.now
            let f = try await camera.nextFrame(StreamConfiguration(deliversProcessedFrames: false))
            let s = camera.status
            print(f.index, clock.now - t0, f.metadata.exposureDuration.seconds, f.metadata.iso, s.exposureTargetOffset, s.deviceWhiteBalanceGains, s.grayWorldDeviceWhiteBalanceGains)
        }
        print(camera.deviceWhiteBalanceGains(for: LuxScene.Illuminant.planckian(kelvin: 3000).chromaticity))
    }
}
