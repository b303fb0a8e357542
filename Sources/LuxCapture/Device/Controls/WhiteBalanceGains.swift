/// Device RGB white-balance gains (AVCaptureDevice.WhiteBalanceGains): multipliers of the camera's raw red,
/// green and blue so that a neutral surface comes out neutral. Device-dependent, normalised so the smallest
/// gain is 1; a device accepts each gain in 1…`maxWhiteBalanceGain`.
public struct DeviceWhiteBalanceGains: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The red gain.
    public var red: Float
    /// The green gain.
    public var green: Float
    /// The blue gain.
    public var blue: Float

    /// Creates gains.
    public init(red: Float, green: Float, blue: Float) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Unity gains.
    public static let identity = DeviceWhiteBalanceGains(red: 1, green: 1, blue: 1)

    /// The gains as a vector (red, green, blue).
    public var vector: SIMD3<Double> { SIMD3(Double(red), Double(green), Double(blue)) }

    /// Gains from a vector.
    public init(_ v: SIMD3<Double>) { self.init(red: Float(v.x), green: Float(v.y), blue: Float(v.z)) }

    /// The same gains scaled so the smallest is 1 (Apple's normalisation: R:2 G:2 B:4 becomes 1:1:2).
    public var normalized: DeviceWhiteBalanceGains {
        let m = min(red, green, blue)
        guard m > 0 else { return self }
        return DeviceWhiteBalanceGains(red: red / m, green: green / m, blue: blue / m)
    }

    /// Whether every gain lies in 1…`maximum`.
    public func isWithin(maximum: Float) -> Bool {
        [red, green, blue].allSatisfy { $0 >= 1 - 1e-6 && $0 <= maximum + 1e-6 }
    }

    public var description: String { "R \(red) G \(green) B \(blue)" }
}

/// A colour temperature in kelvin and a tint (−150…150, positive toward green), describing a white point
/// (AVCaptureDevice.WhiteBalanceTemperatureAndTintValues).
public struct TemperatureAndTint: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Correlated colour temperature in kelvin.
    public var temperature: Float
    /// Tint: 3000 × Duv, positive when the white is greener than the Planckian locus.
    public var tint: Float

    /// Creates a value.
    public init(temperature: Float, tint: Float) {
        self.temperature = temperature
        self.tint = tint
    }

    public var description: String { "\(temperature) K, tint \(tint)" }
}
