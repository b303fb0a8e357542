/// A rational time, `value / timescale` seconds, like a media clock reading.
///
/// Frame times, exposure durations and sync times are kept exact: 1/30 s stays 1/30 s through
/// arithmetic (sums use the least common multiple of the timescales when it fits in 32 bits).
///
/// ```swift
/// let frame = MediaTime(value: 1, timescale: 30)
/// let t = frame * 45                      // 1.5 s
/// t.converted(toTimescale: 600)           // 900/600
/// ```
public struct MediaTime: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    /// The kind of time.
    public enum Kind: UInt8, Hashable, Sendable, Codable {
        case numeric, invalid, positiveInfinity, negativeInfinity
    }

    /// The numerator.
    public let value: Int64
    /// Units per second (always > 0 for numeric times).
    public let timescale: Int32
    /// Whether the time is a number, invalid or infinite.
    public let kind: Kind

    /// Creates `value / timescale` seconds.
    ///
    /// - Precondition: `timescale > 0`.
    public init(value: Int64, timescale: Int32) {
        precondition(timescale > 0, "a media time needs a positive timescale")
        self.value = value
        self.timescale = timescale
        self.kind = .numeric
    }

    private init(kind: Kind) {
        value = 0
        timescale = 1
        self.kind = kind
    }

    /// Creates the time nearest to `seconds` at `preferredTimescale`.
    public init(seconds: Double, preferredTimescale: Int32 = 1_000_000_000) {
        if seconds.isNaN {
            self.init(kind: .invalid)
        } else if seconds.isInfinite {
            self.init(kind: seconds > 0 ? .positiveInfinity : .negativeInfinity)
        } else {
            let v = (seconds * Double(preferredTimescale)).rounded()
            guard abs(v) < 9.2e18 else {
                self.init(kind: seconds > 0 ? .positiveInfinity : .negativeInfinity)
                return
            }
            self.init(value: Int64(v), timescale: preferredTimescale)
        }
    }

    /// Zero seconds.
    public static let zero = MediaTime(value: 0, timescale: 1)
    /// A time that is not a number (the result of invalid arithmetic).
    public static let invalid = MediaTime(kind: .invalid)
    /// Later than every numeric time.
    public static let positiveInfinity = MediaTime(kind: .positiveInfinity)
    /// Earlier than every numeric time.
    public static let negativeInfinity = MediaTime(kind: .negativeInfinity)

    /// Whether the time is a finite number.
    public var isNumeric: Bool { kind == .numeric }

    /// The time in seconds (NaN for invalid, ±∞ for infinite times).
    public var seconds: Double {
        switch kind {
        case .numeric: Double(value) / Double(timescale)
        case .invalid: .nan
        case .positiveInfinity: .infinity
        case .negativeInfinity: -.infinity
        }
    }

    /// How to round when a time is converted to a coarser timescale.
    public enum Rounding: Sendable {
        case nearest, towardZero, awayFromZero, down, up
    }

    /// The same time expressed in `newTimescale` units, rounded as asked.
    public func converted(toTimescale newTimescale: Int32, rounding: Rounding = .nearest) -> MediaTime {
        guard isNumeric else { return self }
        precondition(newTimescale > 0, "a media time needs a positive timescale")
        if newTimescale == timescale { return self }
        let (high, low) = value.multipliedFullWidth(by: Int64(newTimescale))
        let divisor = Int64(timescale)
        // The product must fit in 64 bits; otherwise fall back to floating point.
        guard high == (Int64(bitPattern: low) < 0 ? -1 : 0) else {
            return MediaTime(seconds: seconds, preferredTimescale: newTimescale)
        }
        let product = Int64(bitPattern: low)
        var q = product / divisor
        let r = product % divisor
        if r != 0 {
            let positive = product > 0
            switch rounding {
            case .towardZero: break
            case .awayFromZero: q += positive ? 1 : -1
            case .down: if !positive { q -= 1 }
            case .up: if positive { q += 1 }
            case .nearest:
                if abs(r) * 2 >= divisor { q += positive ? 1 : -1 }
            }
        }
        return MediaTime(value: q, timescale: newTimescale)
    }

    /// A common timescale for two times: their LCM when it fits, otherwise the larger one.
    private static func commonTimescale(_ a: Int32, _ b: Int32) -> Int32 {
        let l = Int64(a) / greatestCommonDivisor(Int64(a), Int64(b)) * Int64(b)
        return l <= Int64(Int32.max) ? Int32(l) : max(a, b)
    }

    public static func + (lhs: MediaTime, rhs: MediaTime) -> MediaTime {
        switch (lhs.kind, rhs.kind) {
        case (.numeric, .numeric):
            let ts = commonTimescale(lhs.timescale, rhs.timescale)
            let a = lhs.converted(toTimescale: ts)
            let b = rhs.converted(toTimescale: ts)
            let (sum, overflow) = a.value.addingReportingOverflow(b.value)
            if overflow { return a.value > 0 ? .positiveInfinity : .negativeInfinity }
            return MediaTime(value: sum, timescale: ts)
        case (.invalid, _), (_, .invalid): return .invalid
        case (.positiveInfinity, .negativeInfinity), (.negativeInfinity, .positiveInfinity): return .invalid
        case (.positiveInfinity, _), (_, .positiveInfinity): return .positiveInfinity
        default: return .negativeInfinity
        }
    }

    public static prefix func - (t: MediaTime) -> MediaTime {
        switch t.kind {
        case .numeric: MediaTime(value: -t.value, timescale: t.timescale)
        case .invalid: .invalid
        case .positiveInfinity: .negativeInfinity
        case .negativeInfinity: .positiveInfinity
        }
    }

    public static func - (lhs: MediaTime, rhs: MediaTime) -> MediaTime { lhs + -rhs }

    public static func += (lhs: inout MediaTime, rhs: MediaTime) { lhs = lhs + rhs }

    /// The time multiplied by an integer.
    public static func * (lhs: MediaTime, rhs: Int) -> MediaTime {
        guard lhs.isNumeric else { return rhs == 0 ? .invalid : (rhs > 0 ? lhs : -lhs) }
        let (p, overflow) = lhs.value.multipliedReportingOverflow(by: Int64(rhs))
        if overflow { return (lhs.value > 0) == (rhs > 0) ? .positiveInfinity : .negativeInfinity }
        return MediaTime(value: p, timescale: lhs.timescale)
    }

    /// The time multiplied by a ratio, rounded to the nearest unit of the time's timescale.
    public func multiplied(by factor: Double) -> MediaTime {
        guard isNumeric else { return self }
        return MediaTime(seconds: seconds * factor, preferredTimescale: timescale)
    }

    public static func < (lhs: MediaTime, rhs: MediaTime) -> Bool {
        switch (lhs.kind, rhs.kind) {
        case (.numeric, .numeric):
            // Exact: compare value₁·ts₂ with value₂·ts₁ in 128-bit.
            let a = lhs.value.multipliedFullWidth(by: Int64(rhs.timescale))
            let b = rhs.value.multipliedFullWidth(by: Int64(lhs.timescale))
            return a.high != b.high ? a.high < b.high : a.low < b.low
        default:
            return lhs.order < rhs.order
        }
    }

    private var order: Int {
        switch kind {
        case .negativeInfinity: 0
        case .numeric: 1
        case .positiveInfinity: 2
        case .invalid: 3
        }
    }

    /// Equality by value: 1/2 equals 15/30.
    public static func == (lhs: MediaTime, rhs: MediaTime) -> Bool {
        guard lhs.kind == .numeric, rhs.kind == .numeric else { return lhs.kind == rhs.kind }
        return !(lhs < rhs) && !(rhs < lhs)
    }

    public func hash(into hasher: inout Hasher) {
        guard isNumeric else {
            hasher.combine(kind)
            return
        }
        let g = greatestCommonDivisor(value, Int64(timescale))
        hasher.combine(g == 0 ? 0 : value / g)
        hasher.combine(g == 0 ? 1 : Int64(timescale) / g)
    }

    public var description: String {
        switch kind {
        case .numeric: "\(value)/\(timescale) (\(seconds) s)"
        case .invalid: "invalid"
        case .positiveInfinity: "+∞"
        case .negativeInfinity: "−∞"
        }
    }
}
