/// Reference values of the X-Rite ColorChecker Classic (24 patches), for synthetic charts and colour
/// accuracy tests.
///
/// Values are X-Rite's published data for charts made after November 2014, as CIE L*a*b* (D50, 2°).
/// Charts vary: averages over many charts differ from these by about 0.8 ΔE₀₀ (1.5 at most), so that
/// is a meaningful tolerance for chart-to-chart comparisons.
///
/// ```swift
/// for patch in ColorChecker.classic24 {
///     let rgb = try patch.color(in: .sRGB)   // Bradford-adapted to D65, encoded, clipped
/// }
/// ```
public enum ColorChecker {
    /// One patch of the chart.
    public struct Patch: Hashable, Sendable, CustomStringConvertible {
        /// The patch number, 1…24, row by row from the top left (brown "dark skin") to the bottom right
        /// (black).
        public let number: Int
        /// The patch's name, such as "dark skin" or "neutral 5 (.70 D)".
        public let name: String
        /// CIE L*a*b* relative to D50.
        public let lab: SIMD3<Double>

        /// The row on the chart, 0…3 (the neutrals are row 3).
        public var row: Int { (number - 1) / 6 }
        /// The column on the chart, 0…5.
        public var column: Int { (number - 1) % 6 }
        /// Whether the patch is one of the six neutrals (19–24).
        public var isNeutral: Bool { number >= 19 }

        /// CIE XYZ relative to D50 (Y = 1 for the perfect white).
        public var xyz: SIMD3<Double> { Lab.toXYZ(lab, white: WhitePoint.d50) }

        /// The patch's values in `space` (relative colorimetric, Bradford-adapted from D50 to the space's
        /// white, encoded with its transfer function; clipped to 0…1 unless the space has extended range —
        /// use ``ColorSpace/extendedLinearSRGB`` to see that patch 18, cyan, is outside sRGB).
        ///
        /// - Throws: ``ColorError/unsupportedConversion(from:to:reason:)`` when `space` has no matrix.
        public func color(in space: ColorSpace) throws(ColorError) -> SIMD3<Double> {
            try ColorConverter(from: .labD50, to: space).convert(lab)
        }

        public var description: String { "\(number) \(name)" }
    }

    /// The 24 patches in chart order (rows of six: naturals, miscellaneous, primaries, neutrals).
    public static let classic24: [Patch] = [
        ("dark skin", 37.54, 14.37, 14.92), ("light skin", 64.66, 19.27, 17.50),
        ("blue sky", 49.32, -3.82, -22.54), ("foliage", 43.46, -12.74, 22.72),
        ("blue flower", 54.94, 9.61, -24.79), ("bluish green", 70.48, -32.26, -0.37),
        ("orange", 62.73, 35.83, 56.50), ("purplish blue", 39.43, 10.75, -45.17),
        ("moderate red", 50.57, 48.64, 16.67), ("purple", 30.10, 22.54, -20.87),
        ("yellow green", 71.77, -24.13, 58.19), ("orange yellow", 71.51, 18.24, 67.37),
        ("blue", 28.37, 15.42, -49.80), ("green", 54.38, -39.72, 32.27),
        ("red", 42.43, 51.05, 28.62), ("yellow", 81.80, 2.67, 80.41),
        ("magenta", 50.63, 51.28, -14.12), ("cyan", 49.57, -29.71, -28.32),
        ("white 9.5 (.05 D)", 95.19, -1.03, 2.93), ("neutral 8 (.23 D)", 81.29, -0.57, 0.44),
        ("neutral 6.5 (.44 D)", 66.89, -0.75, -0.06), ("neutral 5 (.70 D)", 50.76, -0.13, 0.14),
        ("neutral 3.5 (1.05 D)", 35.63, -0.46, -0.48), ("black 2 (1.5 D)", 20.64, 0.07, -0.46),
    ].enumerated().map {
        Patch(number: $0.offset + 1, name: $0.element.0, lab: SIMD3($0.element.1, $0.element.2, $0.element.3))
    }

    /// The patch numbered `number` (1…24), or `nil`.
    public static func patch(_ number: Int) -> Patch? {
        (1...24).contains(number) ? classic24[number - 1] : nil
    }
}
