import Foundation
import LuxColor
import LuxTestSupport
import Testing

/// The DNG camera model against ALGORITHMS.md §4.4 (Brooks et al.'s matrix and its gain table), the
/// published ICC sRGB colorants (FORMATS.md §4.3) and hand-computed interpolation weights.
@Suite struct CameraColorCalibrationTests {
    /// The first real XYZ → camera matrix of ALGORITHMS.md §4.4.
    ///
    /// From Brooks et al. 2019.
    static let brooks = Matrix3x3([1.0234, -0.2969, -0.2266, -0.5625, 1.6328, -0.0469, -0.0703, 0.2188, 0.6406])

    /// The table's whites: A as xy, the others on the CIE daylight locus (its xy column rounds these).
    @Test(arguments: [
        (0.0, 1.3370, 2.7014),  // A (0.44757, 0.40745)
        (4000, 1.7855, 1.9359),  // 4000 K daylight
        (5003, 2.0927, 1.5484),  // D50
        (6504, 2.4419, 1.2334),  // D65
        (7500, 2.6218, 1.1116),  // D75
    ])
    func brooksMatrixGainsMatchPublishedTable(_ daylight: Double, _ red: Double, _ blue: Double) throws {
        let camera = CameraColorCalibration(colorMatrix: Self.brooks)
        let white = daylight == 0 ? WhitePoint.a : Chromaticity(daylightTemperature: daylight)
        let (x, y) = (white.x, white.y)
        let gains = try camera.whiteBalanceGains(for: white)
        let greenOne = gains.normalizedToGreen()
        #expect(abs(greenOne.red - red) < 5e-5 && abs(greenOne.blue - blue) < 5e-5, "\(greenOne)")
        // Apple's normalisation: the smallest gain is 1, and all are ≥ 1.
        #expect(min(gains.red, gains.green, gains.blue) == 1)
        // The inverse recovers xy to 5 decimals.
        let back = try camera.chromaticity(for: gains)
        #expect(abs(back.x - x) < 5e-6 && abs(back.y - y) < 5e-6, "\(back)")
        // Gains given with green = 1 are the same white.
        let again = try camera.chromaticity(for: WhiteBalanceGains(red: red, green: 1, blue: blue))
        #expect(abs(again.x - x) < 1e-4 && abs(again.y - y) < 1e-4)
    }

    /// A dual-illuminant camera: Brooks's matrix at D65, a different matrix at StdA.
    static let dual = CameraColorCalibration(
        .init(temperature: 2856, colorMatrix: Matrix3x3([1.1, -0.35, -0.18, -0.5, 1.55, 0.02, -0.02, 0.31, 0.52])),
        .init(temperature: 6504, colorMatrix: brooks))

    @Test func interpolationWeightIsInverseTemperature() {
        let camera = Self.dual
        // Hand formula: g = (1/T − 1/T₂)/(1/T₁ − 1/T₂).
        let g = (1 / 4000.0 - 1 / 6504.0) / (1 / 2856.0 - 1 / 6504.0)
        #expect(abs(camera.firstIlluminantWeight(temperature: 4000) - g) < 1e-12)
        #expect(camera.firstIlluminantWeight(temperature: 2000) == 1)
        #expect(camera.firstIlluminantWeight(temperature: 9000) == 0)
        let white = TemperatureAndTint(temperature: 4000).chromaticity
        let expected = g * camera.first.colorMatrix + (1 - g) * Self.brooks
        #expect(camera.xyzToCamera(for: white).maxDifference(to: expected) < 1e-9)
    }

    @Test func gainsToWhiteToGainsRoundTripsWithInterpolation() throws {
        let camera = Self.dual
        var worst = 0.0
        for t in stride(from: 2500.0, through: 10000, by: 250) {
            for tint in [-30.0, 0, 30] {
                let gains = try camera.whiteBalanceGains(for: TemperatureAndTint(temperature: t, tint: tint))
                let white = try camera.chromaticity(for: gains)
                let again = try camera.whiteBalanceGains(for: white)
                worst = max(
                    worst, abs(again.red - gains.red), abs(again.green - gains.green), abs(again.blue - gains.blue))
                let tt = try camera.temperatureAndTint(for: gains)
                #expect(abs(tt.temperature - t) < 0.01 && abs(tt.tint - tint) < 0.01, "\(t) \(tint): \(tt)")
            }
        }
        #expect(worst < 1e-4, "worst gain error \(worst)")
    }

    @Test func cameraToXYZD50MapsTheNeutralToD50() throws {
        let camera = Self.dual
        for t in [2856.0, 4000, 5500, 7500] {
            let neutral = try camera.neutral(for: TemperatureAndTint(temperature: t).chromaticity)
            let m = try camera.cameraToXYZD50(neutral: neutral)
            let white = m * neutral
            #expect(maxDifference(white, WhitePoint.iccD50XYZ) < 1e-7, "\(t): \(white)")
        }
    }

    @Test func aCameraThatSeesLinearSRGBGetsTheICCColorants() throws {
        // XYZ → camera = XYZ(D65) → linear sRGB. Under D65 the neutral is (1, 1, 1) and camera → XYZ(D50)
        // must be the Bradford-adapted sRGB colorants published in FORMATS.md §4.3.
        let srgbToXYZ = try #require(ColorSpace.sRGB.matrixToXYZ)
        let camera = CameraColorCalibration(colorMatrix: try #require(srgbToXYZ.inverse))
        let neutral = try camera.neutral(for: WhitePoint.d65)
        #expect(maxDifference(neutral, SIMD3(1, 1, 1)) < 1e-12)
        let m = try camera.cameraToXYZD50(neutral: neutral)
        let published = Matrix3x3(
            columns:
                SIMD3(0.436041, 0.222485, 0.013920), SIMD3(0.385113, 0.716905, 0.097067),
            SIMD3(0.143046, 0.060610, 0.713913))
        #expect(m.maxDifference(to: published) < 2e-6, "\(m)")

        // The same camera with channel sensitivities k, described once by colour matrix and once by
        // forward matrix: both paths give the same camera → XYZ(D50).
        let k = SIMD3(0.5, 1.0, 0.7)
        let sensitive = Matrix3x3.diagonal(k) * srgbToXYZ.inverse!
        let byColorMatrix = CameraColorCalibration(colorMatrix: sensitive)
        let byForwardMatrix = CameraColorCalibration(
            .init(temperature: 6504, colorMatrix: sensitive, forwardMatrix: published))
        let n = try byColorMatrix.neutral(for: WhitePoint.d65)
        #expect(maxDifference(n, k / k.max()) < 1e-12)
        let a = try byColorMatrix.cameraToXYZD50(neutral: n)
        let b = try byForwardMatrix.cameraToXYZD50(neutral: n)
        #expect(a.maxDifference(to: b) < 2e-5, "\(a)\n\(b)")
    }

    @Test func gainsValidationAndNormalisation() throws {
        // Apple's example: R:2 G:2 B:4 normalises to 1:1:2.
        let g = WhiteBalanceGains(red: 2, green: 2, blue: 4).normalized()
        #expect(g == WhiteBalanceGains(red: 1, green: 1, blue: 2))
        #expect(try g.validated(maxGain: 4) == g)
        #expect(throws: ColorError.outOfRange(name: "blue white balance gain", value: 2, allowed: 1...1.5)) {
            try g.validated(maxGain: 1.5)
        }
        #expect(throws: ColorError.self) { try WhiteBalanceGains(red: 0.5, green: 1, blue: 1).validated(maxGain: 4) }
        #expect(throws: ColorError.self) { try WhiteBalanceGains(neutral: SIMD3(0, 1, 1)) }
        #expect(throws: ColorError.self) {
            try CameraColorCalibration(colorMatrix: .identity).chromaticity(forNeutral: SIMD3(1, .nan, 1))
        }
        #expect(throws: ColorError.self) {
            try CameraColorCalibration(colorMatrix: Matrix3x3([1, 0, 0, 1, 0, 0, 0, 0, 1])).chromaticity(
                forNeutral: SIMD3(1, 1, 1))
        }
        let n = try WhiteBalanceGains(neutral: SIMD3(0.5, 1, 0.8))
        #expect(maxDifference(n.neutral, SIMD3(0.5, 1, 0.8)) < 1e-15)
        #expect(abs(n.green - 1) < 1e-15 && abs(n.red - 2) < 1e-15)
        let json = try JSONEncoder().encode(n)
        #expect(try JSONDecoder().decode(WhiteBalanceGains.self, from: json) == n)
    }
}
