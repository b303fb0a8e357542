import LuxColor
import Testing

/// ColorChecker reference data against the sRGB8 column of ALGORITHMS.md §9.4 (computed there with
/// colour-science: Bradford D50 → D65, sRGB encoding, clipping).
@Suite struct ColorCheckerTests {
    static let srgb8: [SIMD3<Double>] = [
        SIMD3(116, 79, 65), SIMD3(197, 144, 127), SIMD3(91, 120, 155), SIMD3(91, 108, 64), SIMD3(131, 127, 175),
        SIMD3(95, 189, 172), SIMD3(224, 124, 48), SIMD3(69, 90, 167), SIMD3(197, 80, 95), SIMD3(93, 58, 104),
        SIMD3(156, 187, 58), SIMD3(227, 161, 39), SIMD3(40, 62, 145), SIMD3(61, 147, 70), SIMD3(178, 54, 57),
        SIMD3(236, 200, 15), SIMD3(191, 79, 146), SIMD3(0, 133, 165), SIMD3(241, 242, 235), SIMD3(201, 202, 201),
        SIMD3(161, 163, 163), SIMD3(121, 121, 121), SIMD3(83, 84, 85), SIMD3(50, 50, 50),
    ]

    @Test func labValuesReproduceThePublishedSRGB8WithinOneLevel() throws {
        #expect(ColorChecker.classic24.count == 24)
        for (patch, expected) in zip(ColorChecker.classic24, Self.srgb8) {
            let rgb = try patch.color(in: .sRGB) * 255
            let d = rgb - expected
            #expect(max(abs(d.x), abs(d.y), abs(d.z)) <= 1, "\(patch): \(rgb) vs \(expected)")
        }
    }

    @Test func cyanIsOutsideSRGB() throws {
        // ALGORITHMS.md §9.4: patch 18's linear red is −0.044 before clipping.
        let cyan = try #require(ColorChecker.patch(18))
        #expect(cyan.name == "cyan")
        let linear = try cyan.color(in: .extendedLinearSRGB)
        #expect(abs(linear.x - -0.044) < 0.002, "\(linear)")
        #expect(try cyan.color(in: .sRGB).x == 0)
    }

    @Test func layoutAndNeutrals() throws {
        let black = try #require(ColorChecker.patch(24))
        #expect(black.row == 3 && black.column == 5 && black.isNeutral)
        #expect(ColorChecker.patch(1)?.name == "dark skin" && ColorChecker.patch(0) == nil)
        // Y from the CIE definition of L* (all patches have L* > 8): Y = ((L* + 16)/116)³.
        for patch in ColorChecker.classic24 {
            let f = (patch.lab.x + 16) / 116
            #expect(abs(patch.xyz.y - f * f * f) < 1e-12, "\(patch)")
        }
        #expect(ColorChecker.classic24.filter(\.isNeutral).map(\.number) == Array(19...24))
        // Display P3 holds cyan: no channel clips.
        let p3 = try ColorChecker.patch(18)!.color(in: .displayP3)
        #expect(p3.x > 0 && p3.y < 1 && p3.z < 1)
    }
}
