import LuxColor
import Testing

@testable import LuxScene

@Suite struct SpectrumTests {
    @Test("CIE illuminants have their published chromaticities")
    func illuminantChromaticities() {
        // CIE 15: D65 (0.31271, 0.32902), A (0.44757, 0.40745), D50 (0.34567, 0.35850).
        let d65 = Illuminant.d65.chromaticity
        #expect(abs(d65.x - 0.31271) < 2e-4 && abs(d65.y - 0.32902) < 2e-4)
        let a = Illuminant.a.chromaticity
        #expect(abs(a.x - 0.44757) < 2e-4 && abs(a.y - 0.40745) < 2e-4)
        let d50 = Illuminant.d50.chromaticity
        #expect(abs(d50.x - 0.34567) < 3e-4 && abs(d50.y - 0.35850) < 3e-4)
    }

    @Test("Planckian chromaticities match the exact locus (ALGORITHMS §4.1 table)")
    func planckianLocus() {
        for (t, x, y) in [(4000.0, 0.38044, 0.37675), (6504.0, 0.31346, 0.32357), (10000.0, 0.28063, 0.28829)] {
            let c = Illuminant.planckian(kelvin: t).chromaticity
            #expect(abs(c.x - x) < 3e-4 && abs(c.y - y) < 3e-4, "T = \(t): \(c)")
        }
    }

    @Test("A flat reflectance is neutral under any light and the bands sum to one")
    func grayIsNeutral() {
        let b = SurfaceColor.basis
        for i in 0..<Spectrum.sampleCount {
            #expect(abs(b.long.values[i] + b.middle.values[i] + b.short.values[i] - 1) < 1e-12)
            #expect(b.middle.values[i] >= -1e-12)
        }
        for light in [Illuminant.a, .d65, .planckian(kelvin: 3000)] {
            let xyz = SurfaceColor(reflectance: 0.18).xyz(under: light)
            let xy = Chromaticity(xyz: xyz)!
            #expect(abs(xy.x - light.chromaticity.x) < 1e-9 && abs(xy.y - light.chromaticity.y) < 1e-9)
            #expect(abs(xyz.y - 0.18) < 1e-9)
        }
    }

    @Test("ColorChecker patches keep their published Lab under D50 and have physical reflectances")
    func colorCheckerLab() {
        let white = SurfaceColor.white.xyz(under: .d50)
        for (i, lab) in ColorChecker.classic24.map(\.lab).enumerated() {
            let c = SurfaceColor(lab: lab)
            // Reflectance weights stay (nearly) within 0…1: the colours are physical surfaces.
            #expect(c.coefficients.min() > -0.06 && c.coefficients.max() < 1, "patch \(i + 1): \(c.coefficients)")
            let xyz = c.xyz(under: .d50) / white * WhitePoint.iccD50XYZ
            let back = Lab.fromXYZ(xyz, white: WhitePoint.d50)
            #expect(((back - lab) * (back - lab)).sum().squareRoot() < 1e-6)
        }
    }
}
