import LuxCapture
import LuxColor
import LuxScene
import Testing

@testable import LuxStudio

/// The camera panel's temperature and tint read-outs for the simulated camera and for V4L2 cameras with and
/// without a white_balance_temperature control.
@Suite struct WhiteBalanceReadoutTests {
    @Test("a V4L2 camera reporting white_balance_temperature 3200 reads 3200 K, tint 0 (V4L2 has no tint)")
    func v4l2Temperature() {
        let wb = StudioCamera.whiteBalanceReadout(gains: .identity, simulated: nil, reportedTemperature: 3200)
        #expect(wb?.temperature == 3200 && wb?.tint == 0)
    }

    @Test("a V4L2 camera without the control reads nothing (shown as —), not 0 K")
    func v4l2WithoutControl() {
        let gains = WhiteBalanceGains(red: 1.8, green: 1, blue: 1.4)
        #expect(StudioCamera.whiteBalanceReadout(gains: gains, simulated: nil, reportedTemperature: nil) == nil)
    }

    @Test("the simulated camera's gains for 4000 K, tint 10 read back as 4000 K, tint 10")
    func simulated() throws {
        let camera = SimulatedCamera(scene: .chart())
        let gains = try camera.deviceWhiteBalanceGains(for: TemperatureAndTint(temperature: 4000, tint: 10))
        let wb = StudioCamera.whiteBalanceReadout(gains: gains, simulated: camera, reportedTemperature: 5000)
        #expect(abs((wb?.temperature ?? 0) - 4000) < 5 && abs((wb?.tint ?? 0) - 10) < 0.5)
    }
}
