/// The ICC parametric curve (`para`, function type 4 in ICC numbering 0…4) that maps an
/// encoded value X to a linear value Y:
/// `Y = (a·X + b)^g + e` for `X ≥ d`, and `Y = c·X + f` for `X < d`.
///
/// Every standard transfer function in Lux (sRGB, BT.709/2020, ROMM, pure gamma) is one of these,
/// so decoding and encoding share one evaluation path.
public struct ParametricCurve: Hashable, Sendable, Codable {
    public var g: Double
    public var a: Double
    public var b: Double
    public var c: Double
    public var d: Double
    public var e: Double
    public var f: Double

    /// Creates a curve from the seven ICC parameters.
    public init(g: Double, a: Double = 1, b: Double = 0, c: Double = 0, d: Double = 0, e: Double = 0, f: Double = 0) {
        self.g = g
        self.a = a
        self.b = b
        self.c = c
        self.d = d
        self.e = e
        self.f = f
    }

    /// A pure power law `Y = X^g`.
    public static func gamma(_ g: Double) -> ParametricCurve { ParametricCurve(g: g) }

    /// IEC 61966-2-1 (sRGB, also Display P3).
    public static let sRGB = ParametricCurve(g: 2.4, a: 1 / 1.055, b: 0.055 / 1.055, c: 1 / 12.92, d: 0.04045)

    /// ITU-R BT.709 / BT.2020 OETF inverse, with the exact continuous constants of BT.2020
    /// (α = 1.09929682680944, β = 0.018053968510807).
    public static let rec709: ParametricCurve = {
        let alpha = 1.09929682680944
        let beta = 0.018053968510807
        return ParametricCurve(g: 1 / 0.45, a: 1 / alpha, b: (alpha - 1) / alpha, c: 1 / 4.5, d: 4.5 * beta)
    }()

    /// ROMM RGB (ProPhoto): gamma 1.8 with a linear segment of slope 16 below 1/512.
    public static let romm = ParametricCurve(g: 1.8, c: 1.0 / 16.0, d: 16.0 / 512.0)

    /// Maps an encoded value in `[0, ∞)` to linear light.
    public func linear(fromEncoded x: Double) -> Double {
        x >= d ? pow(max(a * x + b, 0), g) + e : c * x + f
    }

    /// Maps linear light in `[0, ∞)` to the encoded value (the inverse of ``linear(fromEncoded:)``).
    public func encoded(fromLinear y: Double) -> Double {
        if y >= breakpointLinear {
            return (pow(max(y - e, 0), 1 / g) - b) / a
        }
        return c != 0 ? (y - f) / c : 0
    }

    /// The linear value at the curve's breakpoint `d`.
    public var breakpointLinear: Double { c * d + f }
}

/// A transfer function sampled as a table (the ICC `curv` type with more than one entry).
public struct SampledCurve: Hashable, Sendable, Codable {
    /// Linear values at evenly spaced encoded positions over `0...1`.
    public let samples: [Float]
    /// The inverse, sampled at 4096 evenly spaced linear values over `0...1`.
    public let inverseSamples: [Float]

    /// Creates a curve from its samples (at least two, monotonically non-decreasing).
    public init(samples: [Float]) {
        precondition(samples.count >= 2, "a sampled curve needs at least two samples")
        self.samples = samples
        var inverse = [Float](repeating: 0, count: 4096)
        var j = 0
        let n = samples.count
        for i in 0..<4096 {
            let y = Float(i) / 4095
            while j < n - 2 && samples[j + 1] < y { j += 1 }
            let y0 = samples[j]
            let y1 = samples[j + 1]
            let t: Float = y1 > y0 ? min(max((y - y0) / (y1 - y0), 0), 1) : 0
            inverse[i] = (Float(j) + t) / Float(n - 1)
        }
        inverseSamples = inverse
    }

    /// Linear light for an encoded value, interpolating the table (clamped to `0...1`).
    public func linear(fromEncoded x: Double) -> Double {
        Double(Self.interpolate(samples, Float(x)))
    }

    /// The encoded value for linear light (clamped to `0...1`).
    public func encoded(fromLinear y: Double) -> Double {
        Double(Self.interpolate(inverseSamples, Float(y)))
    }

    @inline(__always)
    static func interpolate(_ table: [Float], _ x: Float) -> Float {
        let n = table.count
        let p = min(max(x, 0), 1) * Float(n - 1)
        let i = min(Int(p), n - 2)
        let t = p - Float(i)
        return table[i] + (table[i + 1] - table[i]) * t
    }
}

/// How a colour space's stored values relate to linear light.
public enum TransferFunction: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Values are linear light.
    case linear
    /// An ICC parametric curve (sRGB, BT.709, ROMM and gamma are all of this kind).
    case parametric(ParametricCurve)
    /// A sampled curve read from an ICC profile.
    case sampled(SampledCurve)

    /// IEC 61966-2-1, shared by sRGB and Display P3.
    public static let sRGB = TransferFunction.parametric(.sRGB)
    /// BT.709 / BT.2020.
    public static let rec709 = TransferFunction.parametric(.rec709)
    /// ROMM RGB (ProPhoto).
    public static let romm = TransferFunction.parametric(.romm)
    /// A pure power law.
    public static func gamma(_ g: Double) -> TransferFunction { .parametric(.gamma(g)) }

    /// Linear light from an encoded value.
    ///
    /// Negative values are mirrored (`f(−x) = −f(x)`), values above 1 follow the curve's extension, as in Apple's
    /// extended-range colour spaces.
    public func linear(fromEncoded x: Double) -> Double {
        let magnitude = abs(x)
        let y: Double
        switch self {
        case .linear: return x
        case .parametric(let curve): y = curve.linear(fromEncoded: magnitude)
        case .sampled(let curve): y = curve.linear(fromEncoded: magnitude)
        }
        return x < 0 ? -y : y
    }

    /// The encoded value for linear light, mirrored for negative input.
    public func encoded(fromLinear y: Double) -> Double {
        let magnitude = abs(y)
        let x: Double
        switch self {
        case .linear: return y
        case .parametric(let curve): x = curve.encoded(fromLinear: magnitude)
        case .sampled(let curve): x = curve.encoded(fromLinear: magnitude)
        }
        return y < 0 ? -x : x
    }

    /// Whether the function is the identity.
    public var isLinear: Bool {
        switch self {
        case .linear: true
        case .parametric(let c): c == .gamma(1)
        case .sampled: false
        }
    }

    /// Whether two functions agree to within `tolerance` at 64 points over `0...1`.
    public func isApproximatelyEqual(to other: TransferFunction, tolerance: Double = 2e-4) -> Bool {
        if self == other { return true }
        for i in 0...64 {
            let x = Double(i) / 64
            if abs(linear(fromEncoded: x) - other.linear(fromEncoded: x)) > tolerance { return false }
        }
        return true
    }

    public var description: String {
        switch self {
        case .linear: "linear"
        case .parametric(let c):
            if c == .sRGB {
                "sRGB"
            } else if c == .rec709 {
                "BT.709"
            } else if c == .romm {
                "ROMM"
            } else if c.a == 1 && c.b == 0 && c.c == 0 && c.d == 0 && c.e == 0 && c.f == 0 {
                "gamma \(c.g)"
            } else {
                "parametric(g: \(c.g), a: \(c.a), b: \(c.b), c: \(c.c), d: \(c.d), e: \(c.e), f: \(c.f))"
            }
        case .sampled(let s): "sampled(\(s.samples.count))"
        }
    }
}
