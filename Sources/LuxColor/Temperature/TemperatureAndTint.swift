/// A white point as correlated colour temperature and tint — the photographer's white balance.
///
/// - `temperature` is the correlated colour temperature (CCT) in kelvin: the black body whose
///   chromaticity is nearest in CIE 1960 UCS (along the locus normal).
/// - `tint` is the signed distance from the black-body locus, `tint = 3000 · Duv`: **positive is green**
///   (above the locus), **negative is magenta**, as in Apple's `WhiteBalanceTemperatureAndTintValues` and
///   Adobe's DNG SDK/Lightroom (range about −150…+150). D65 reads (6504 K, +9.6).
///
/// The conversions are exact inverses: the locus is Planck's law integrated against the CIE 1931 2°
/// observer; ``init(chromaticity:)`` starts from Robertson's (1968) isotherm interpolation and refines
/// the foot of the normal by Newton's method, so it agrees with Adobe's table method to about a kelvin
/// and round trips to 10⁻⁶ K.
///
/// ```swift
/// let d65 = TemperatureAndTint(chromaticity: WhitePoint.d65)  // 6504.3 K, tint +9.6
/// let warm = TemperatureAndTint(temperature: 3200, tint: -5).chromaticity
/// ```
public struct TemperatureAndTint: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Correlated colour temperature in kelvin.
    public var temperature: Double
    /// Offset from the black-body locus: 3000 · Duv, positive = green, negative = magenta.
    public var tint: Double

    /// Creates a white point from a temperature in kelvin and a tint (3000 · Duv, positive = green).
    public init(temperature: Double, tint: Double = 0) {
        self.temperature = temperature
        self.tint = tint
    }

    /// The temperature and tint of a chromaticity.
    ///
    /// Meaningful within about |Duv| ≤ 0.05 (|tint| ≤ 150) of the locus and 500 K…10⁶ K.
    public init(chromaticity: Chromaticity) {
        let uv = chromaticity.uv1960
        let seed = RobertsonIsotherms.estimate(uv).mired
        let mired = PlanckianLocus.footOfNormal(through: uv, initial: seed)
        let point = PlanckianLocus.point(mired: mired)
        temperature = 1e6 / mired
        tint = 3000 * ((uv - point.uv) * point.normal).sum()
    }

    /// The chromaticity: the black-body point at ``temperature`` moved ``tint``/3000 along the locus
    /// normal in CIE 1960 UCS.
    public var chromaticity: Chromaticity {
        let point = PlanckianLocus.point(mired: 1e6 / temperature)
        return Chromaticity(uv1960: point.uv + (tint / 3000) * point.normal)
    }

    /// The distance from the black-body locus in CIE 1960 UCS (ANSI C78.377 Duv): ``tint`` / 3000.
    public var duv: Double { tint / 3000 }

    public var description: String {
        "\(Self.oneDecimal(temperature)) K, tint \(tint >= 0 ? "+" : "")\(Self.oneDecimal(tint))"
    }

    private static func oneDecimal(_ v: Double) -> String {
        guard v.isFinite, abs(v) < 1e15 else { return "\(v)" }
        let tenths = Int(v * 10 + (v < 0 ? -0.5 : 0.5))
        let sign = tenths < 0 ? "-" : ""
        return "\(sign)\(abs(tenths) / 10).\(abs(tenths) % 10)"
    }
}
