/// A CIE 1931 xy chromaticity.
public struct Chromaticity: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The x coordinate.
    public var x: Double
    /// The y coordinate.
    public var y: Double

    /// Creates a chromaticity from its x and y coordinates.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The chromaticity of a tristimulus value, or `nil` for black (X + Y + Z = 0).
    public init?(xyz: SIMD3<Double>) {
        let sum = xyz.sum()
        guard sum != 0, sum.isFinite else { return nil }
        x = xyz.x / sum
        y = xyz.y / sum
    }

    /// The tristimulus value with this chromaticity and luminance `Y`.
    public func xyz(luminance: Double = 1) -> SIMD3<Double> {
        guard y != 0 else { return .zero }
        return SIMD3(x * luminance / y, luminance, (1 - x - y) * luminance / y)
    }

    /// CIE 1960 UCS (u, v), the space of Robertson's isotemperature lines and of Duv.
    public var uv1960: SIMD2<Double> {
        let d = -2 * x + 12 * y + 3
        return SIMD2(4 * x / d, 6 * y / d)
    }

    /// The chromaticity of a CIE 1960 (u, v) point.
    public init(uv1960 uv: SIMD2<Double>) {
        let d = 2 * uv.x - 8 * uv.y + 4
        x = 3 * uv.x / d
        y = 2 * uv.y / d
    }

    public var description: String { "(\(x), \(y))" }
}

/// Standard white points and the CIE 1931 2° chromaticities used to define colour spaces.
public enum WhitePoint {
    /// CIE illuminant D65 as used by sRGB, Display P3, BT.709 and BT.2020 (0.3127, 0.3290).
    public static let d65 = Chromaticity(x: 0.3127, y: 0.3290)
    /// CIE illuminant D50 exactly as the ICC profile connection space encodes it, XYZ (0.9642, 1, 0.8249), which
    /// is xy ≈ (0.34570, 0.35854).
    ///
    /// Using the PCS value keeps Lux's D50 conversions bit-compatible with ICC-based colour management.
    public static let d50 = Chromaticity(x: 0.9642 / 2.7891, y: 1 / 2.7891)
    /// The ACES white point, approximately D60 (0.32168, 0.33767).
    public static let aces = Chromaticity(x: 0.32168, y: 0.33767)
    /// CIE illuminant A, tungsten at 2856 K (0.44757, 0.40745).
    public static let a = Chromaticity(x: 0.44757, y: 0.40745)
    /// The ICC profile connection space illuminant exactly as the header encodes it.
    public static let iccD50XYZ = SIMD3<Double>(0.9642, 1.0, 0.8249)
}
