/// A fraction as TIFF and Exif store it (RATIONAL or SRATIONAL), kept exact so values round-trip.
///
/// ```swift
/// let shutter = Rational(1, 125)        // 1/125 s
/// shutter.doubleValue                   // 0.008
/// Rational(approximating: 2.8)          // 28/10
/// ```
public struct Rational: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The numerator (an unsigned RATIONAL uses 0…4 294 967 295, a signed one −2³¹…2³¹−1).
    public var numerator: Int64
    /// The denominator (0 means “unknown” where Exif allows it).
    public var denominator: Int64

    /// Creates a fraction.
    public init(_ numerator: Int64, _ denominator: Int64) {
        self.numerator = numerator
        self.denominator = denominator
    }

    /// The closest fraction to `value` whose denominator is a power of ten up to `maxDenominator`
    /// (exact for values with few decimals, such as 2.8 → 28/10 and 0.6461 → 6461/10000).
    public init(approximating value: Double, maxDenominator: Int64 = 10_000, signed: Bool = true) {
        guard value.isFinite else {
            self.init(0, 0)
            return
        }
        let limit = signed ? Double(Int32.max) : Double(UInt32.max)
        var best = Rational(Int64(max(min(value.rounded(), limit), signed ? -limit : 0)), 1)
        var bestError = abs(best.doubleValue - value)
        var d: Int64 = 10
        while d <= maxDenominator, bestError > 1e-12 {
            let n = (value * Double(d)).rounded()
            if abs(n) <= limit {
                let candidate = Rational(Int64(n), d)
                let error = abs(candidate.doubleValue - value)
                if error < bestError - 1e-15 {
                    best = candidate
                    bestError = error
                }
            }
            d *= 10
        }
        self = best
    }

    /// The value as a `Double` (`nan` for 0/0, ±infinity for x/0).
    public var doubleValue: Double { Double(numerator) / Double(denominator) }

    public var description: String { "\(numerator)/\(denominator)" }
}
