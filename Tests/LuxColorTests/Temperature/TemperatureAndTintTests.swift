import Foundation
import Testing

@testable import LuxColor

/// Colour temperature against ALGORITHMS.md §4 (colour-science 0.4.7 Planck values, the DNG SDK's
/// Robertson results) and round-trip sweeps.
@Suite struct TemperatureAndTintTests {
    @Test(arguments: [
        // T, exact Planck x, y (ALGORITHMS.md §4.1, 1 nm CIE 1931 integration)
        (2856.0, 0.44754, 0.40743), (4000, 0.38044, 0.37675), (5003, 0.34502, 0.35154), (6504, 0.31346, 0.32357),
        (10000, 0.28063, 0.28829),
    ])
    func blackBodyChromaticityMatchesPublishedPlanckValues(_ t: Double, _ x: Double, _ y: Double) {
        let c = Chromaticity(blackBodyTemperature: t)
        #expect(abs(c.x - x) < 1e-5 && abs(c.y - y) < 1e-5, "\(t) K: \(c)")
        // Tint 0 is the locus itself.
        let viaTint = TemperatureAndTint(temperature: t).chromaticity
        #expect(abs(viaTint.x - c.x) < 1e-12 && abs(viaTint.y - c.y) < 1e-12)
    }

    @Test(arguments: [
        (4000.0, 0.38234, 0.38377), (5003, 0.34565, 0.35860), (6504, 0.31271, 0.32912), (10000, 0.27880, 0.29197),
    ])
    func daylightChromaticityMatchesCIEDSeries(_ t: Double, _ x: Double, _ y: Double) {
        let c = Chromaticity(daylightTemperature: t)
        #expect(abs(c.x - x) < 1e-5 && abs(c.y - y) < 1e-5, "\(t) K: \(c)")
    }

    @Test func standardIlluminantsHaveTheirPublishedTemperatureAndTint() {
        let d65 = TemperatureAndTint(chromaticity: WhitePoint.d65)
        #expect(abs(d65.temperature - 6504) <= 2, "\(d65)")
        #expect(abs(d65.tint - 9.8) <= 0.3, "\(d65)")
        // Ohno 2013's Duv for D65 is +0.00321 (ALGORITHMS.md §4.2).
        #expect(abs(d65.duv - 0.00321) < 0.00002, "\(d65.duv)")
        let d50 = TemperatureAndTint(chromaticity: Chromaticity(x: 0.34567, y: 0.35850))
        #expect(abs(d50.temperature - 5002) <= 2, "\(d50)")
        let a = TemperatureAndTint(chromaticity: WhitePoint.a)
        #expect(abs(a.temperature - 2856) <= 1, "\(a)")
        #expect(abs(a.tint) < 0.1, "\(a)")
        #expect(TemperatureAndTint(temperature: 6504.31, tint: 9.63).description == "6504.3 K, tint +9.6")
    }

    @Test func robertsonIsothermsMatchAdobeResults() {
        // ALGORITHMS.md §4.2: the DNG SDK's method gives D65 → 6503.7 K, A → 2855.8 K; §4.3: tint +9.8.
        let d65 = RobertsonIsotherms.estimate(WhitePoint.d65.uv1960)
        #expect(abs(1e6 / d65.mired - 6503.7) < 0.1)
        #expect(abs(3000 * d65.offset - 9.8) < 0.05)
        #expect(abs(1e6 / RobertsonIsotherms.estimate(WhitePoint.a.uv1960).mired - 2855.8) < 0.1)
        // Points on the locus: Robertson is within 30 K of the exact CCT up to 25000 K (which is why the
        // public conversion refines it).
        for t in stride(from: 2000.0, through: 25000, by: 500) {
            let estimate = 1e6 / RobertsonIsotherms.estimate(Chromaticity(blackBodyTemperature: t).uv1960).mired
            #expect(abs(estimate - t) < 30, "\(t): \(estimate)")
        }
    }

    @Test func signConventionPositiveTintIsGreen() {
        // Above the locus in CIE 1960 v (greener) is positive; an exactly known point: offset the 5000 K
        // black body by +0.01 in v, which has a positive component along the upward normal.
        let locus = Chromaticity(blackBodyTemperature: 5000).uv1960
        let greener = TemperatureAndTint(chromaticity: Chromaticity(uv1960: locus + SIMD2(0, 0.01)))
        let magenta = TemperatureAndTint(chromaticity: Chromaticity(uv1960: locus - SIMD2(0, 0.01)))
        #expect(greener.tint > 15 && magenta.tint < -15, "\(greener) \(magenta)")
        // The daylight locus lies above the Planckian locus: positive tint.
        #expect(TemperatureAndTint(chromaticity: Chromaticity(daylightTemperature: 5500)).tint > 5)
    }

    @Test func roundTripsAcrossTheRange() {
        var worstT = 0.0
        var worstTint = 0.0
        var worstXY = 0.0
        var t = 2000.0
        while t <= 25000 {
            for tint in stride(from: -150.0, through: 150, by: 25) {
                let value = TemperatureAndTint(temperature: t, tint: tint)
                let xy = value.chromaticity
                let back = TemperatureAndTint(chromaticity: xy)
                worstT = max(worstT, abs(back.temperature - t))
                worstTint = max(worstTint, abs(back.tint - tint))
                let again = back.chromaticity
                worstXY = max(worstXY, abs(again.x - xy.x), abs(again.y - xy.y))
            }
            t *= 1.02
        }
        #expect(worstT < 1e-3, "worst ΔT \(worstT) K")
        #expect(worstTint < 1e-6, "worst Δtint \(worstTint)")
        #expect(worstXY < 1e-9, "worst Δxy \(worstXY)")
        // xy → (T, tint) → xy over a grid of chromaticities near the locus.
        for x in stride(from: 0.26, through: 0.50, by: 0.02) {
            for dy in stride(from: -0.02, through: 0.02, by: 0.01) {
                let planckY = Chromaticity(
                    uv1960: PlanckianLocus.point(
                        mired: 1e6 / TemperatureAndTint(chromaticity: Chromaticity(x: x, y: 0.4)).temperature
                    ).uv
                ).y
                let c = Chromaticity(x: x, y: planckY + dy)
                let back = TemperatureAndTint(chromaticity: c).chromaticity
                #expect(abs(back.x - c.x) < 1e-9 && abs(back.y - c.y) < 1e-9, "\(c) → \(back)")
            }
        }
    }

    @Test func oddInputsNeitherCrashNorHang() {
        for c in [
            Chromaticity(x: 0.9, y: 0.05), Chromaticity(x: 0.05, y: 0.9), Chromaticity(x: 0.2, y: 0.1),
            Chromaticity(x: .nan, y: 0.3), Chromaticity(x: 0.6, y: 0.38),
        ] {
            _ = TemperatureAndTint(chromaticity: c)
        }
        for t in [0.0, -100, 1, 300, 1e9, .infinity, .nan] {
            _ = Chromaticity(blackBodyTemperature: t)
            _ = TemperatureAndTint(temperature: t, tint: 10).chromaticity
        }
        // Far below the Robertson table (1667 K) the exact locus still round-trips.
        let candle = TemperatureAndTint(temperature: 1000, tint: 0)
        #expect(abs(TemperatureAndTint(chromaticity: candle.chromaticity).temperature - 1000) < 1e-3)
    }

    @Test func temperatureAndTintIsCodable() throws {
        let value = TemperatureAndTint(temperature: 5600, tint: -12)
        #expect(value.duv == -0.004)
        let json = try JSONEncoder().encode(value)
        #expect(try JSONDecoder().decode(TemperatureAndTint.self, from: json) == value)
    }
}
