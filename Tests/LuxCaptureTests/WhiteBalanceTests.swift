import LuxColor
import LuxPixels
import LuxScene
import Testing

@testable import LuxCapture

@Suite struct WhiteBalanceTests {
    @Test(
        "A grey card comes out neutral with auto white balance and with grey-world gains", arguments: [3000.0, 6500.0])
    func grayCardNeutral(kelvin: Double) async throws {
        let camera = SimulatedCamera(scene: grayCard(kelvin: kelvin, lux: 400))
        camera.setFocusMode(.locked)
        let frames = try await camera.run(25, raw: true)
        let raw = camera.centreMeans(frames.last!.raw!)
        for gains in [camera.status.deviceWhiteBalanceGains, camera.status.grayWorldWhiteBalanceGains] {
            let balanced = raw * gains.vector
            #expect(
                abs(balanced.x / balanced.y - 1) < 0.01 && abs(balanced.z / balanced.y - 1) < 0.01,
                "\(gains): \(balanced)")
        }
        // The auto estimate describes the light: its temperature is within 2 % of the card's illuminant.
        let tt = try camera.temperatureAndTint(for: camera.status.deviceWhiteBalanceGains)
        #expect(abs(Double(tt.temperature) / kelvin - 1) < 0.02, "\(tt)")
    }

    @Test("Temperature/tint ↔ gains and gains ↔ chromaticity round-trip")
    func roundTrips() throws {
        let camera = SimulatedCamera(scene: .grayCard())
        for t in [2500.0, 3200, 4500, 5500, 6500, 8000] {
            for tint in [-20.0, 0, 15] {
                let gains = try camera.deviceWhiteBalanceGains(for: TemperatureAndTint(temperature: t, tint: tint))
                let back = try camera.temperatureAndTint(for: gains)
                #expect(
                    abs(Double(back.temperature) / t - 1) < 0.002 && abs(Double(back.tint) - tint) < 0.3,
                    "\(t) \(tint) → \(back)")
                let xy = try camera.chromaticity(for: gains)
                let again = try camera.deviceWhiteBalanceGains(for: xy)
                #expect(abs(again.red - gains.red) < 1e-4 && abs(again.blue - gains.blue) < 1e-4)
            }
        }
        // Conversions do not clamp: a very warm light needs a blue gain above the maximum of 4.
        let warm = try camera.deviceWhiteBalanceGains(for: TemperatureAndTint(temperature: 1800, tint: 0))
        #expect(warm.blue > Double(camera.maxWhiteBalanceGain))
    }

    @Test("Gains outside 1…maxWhiteBalanceGain throw")
    func outOfRange() async {
        let camera = SimulatedCamera(scene: .grayCard())
        for bad in [WhiteBalanceGains(red: 0.9, green: 1, blue: 2), WhiteBalanceGains(red: 1, green: 1, blue: 4.5)] {
            await #expect(
                throws: CaptureError.whiteBalanceGainsOutOfRange(
                    red: bad.red, green: bad.green, blue: bad.blue, maximum: 4)
            ) {
                try await camera.setWhiteBalanceModeLocked(gains: .value(bad))
            }
        }
    }

    @Test("RAW colour metadata agrees with the RAW data: ColorMatrix2 predicts the grey card's raw ratios under D65")
    func colorMatrixMatchesData() async throws {
        let camera = SimulatedCamera(scene: grayCard(kelvin: 6504, lux: 400))
        camera.setFocusMode(.locked)
        let f = try await camera.run(3, raw: true).last!
        let raw = camera.centreMeans(f.raw!)
        let cm2 = f.metadata.raw.calibration.colorMatrix2
        let predicted = cm2 * Illuminant.d65.chromaticity.xyz(luminance: 1)
        #expect(abs((raw.x / raw.y) / (predicted.x / predicted.y) - 1) < 0.005)
        #expect(abs((raw.z / raw.y) / (predicted.z / predicted.y) - 1) < 0.005)
        // Under illuminant A, ColorMatrix1 does.
        camera.scene = grayCard(kelvin: 2856, lux: 400)
        let fa = try await camera.run(2, raw: true).last!
        let ra = camera.centreMeans(fa.raw!)
        let pa = f.metadata.raw.calibration.colorMatrix1 * Illuminant.a.chromaticity.xyz(luminance: 1)
        #expect(abs((ra.z / ra.y) / (pa.z / pa.y) - 1) < 0.005)
        // And the two matrices differ: the sensor does not meet the Luther condition.
        #expect(f.metadata.raw.calibration.colorMatrix1.maxDifference(to: cm2) > 0.01)
    }

    @Test(
        "A capture right after the light changes from 6500 K to 2856 K waits for auto white balance, as for exposure: the grey card comes out neutral (|a*|, |b*| ≤ 1.5; without waiting b* was +39) and the camera is no longer adjusting, within the 12-frame bound"
    )
    func captureWaitsForWhiteBalance() async throws {
        let rig = try await CaptureRig.make(scene: grayCard(kelvin: 6500, lux: 400))
        let before = rig.camera.status.frameCount
        rig.camera.scene = grayCard(kelvin: 2856, lux: 400)
        let events = try await collect(try rig.photo.capturePhoto(PhotoSettings()))
        let photo = try #require(events.photos.first?.pixelBuffer)
        let lab = MixedLightWhiteBalanceTests.lab(
            displayP3: MixedLightWhiteBalanceTests.patch(photo, at: SIMD2(0.5, 0.5)))
        #expect(photo.colorSpace == .displayP3)
        #expect(abs(lab.y) <= 1.5 && abs(lab.z) <= 1.5, "\(lab)")
        #expect(!rig.camera.status.isAdjustingWhiteBalance)
        let waited = rig.camera.status.frameCount - before
        #expect(waited <= FramePump.maximumSettleFrames + 2, "\(waited) frames")
    }
}
