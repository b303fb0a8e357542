public import LuxPixels

/// The Poisson–Gaussian noise of linear sensor data, per colour channel, as the DNG NoiseProfile tag stores it.
///
/// For a linear value `x` (black level subtracted, sensor clip = 1) the noise variance is `scale·x + offset`:
/// `scale` is the shot-noise term (grows with analog gain), `offset` the read-noise and quantisation term.
///
/// ```swift
/// let iso1600 = NoiseProfile(scale: 5.2e-3, offset: 1.1e-4)
/// iso1600.variance(of: .green, at: 0.18)   // 1.05e-3, σ ≈ 0.032
/// ```
public struct NoiseProfile: Hashable, Sendable, Codable {
    /// One channel's noise function.
    public struct Channel: Hashable, Sendable, Codable {
        /// The shot-noise slope S (variance per unit of signal).
        public var scale: Double
        /// The signal-independent variance O.
        public var offset: Double

        /// Creates a channel's noise function `scale·x + offset`.
        public init(scale: Double, offset: Double) {
            self.scale = scale
            self.offset = offset
        }
    }

    /// Red.
    public var red: Channel
    /// Green.
    public var green: Channel
    /// Blue.
    public var blue: Channel

    /// The same noise function for every channel (one DNG NoiseProfile pair).
    public init(scale: Double, offset: Double) {
        let c = Channel(scale: scale, offset: offset)
        red = c
        green = c
        blue = c
    }

    /// One noise function per channel (DNG NoiseProfile with one pair per CFA plane colour).
    public init(red: Channel, green: Channel, blue: Channel) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// The noise function of `channel`.
    public subscript(channel: CFAPattern.Channel) -> Channel {
        switch channel {
        case .red: red
        case .green: green
        case .blue: blue
        }
    }

    /// The noise variance of `channel` at linear level `x` (negative levels count as 0).
    public func variance(of channel: CFAPattern.Channel, at x: Double) -> Double {
        let c = self[channel]
        return c.scale * max(x, 0) + c.offset
    }

    /// The profile of the average of `n` frames with independent noise (variances divided by `n`).
    public func averaged(over n: Double) -> NoiseProfile {
        func f(_ c: Channel) -> Channel { Channel(scale: c.scale / n, offset: c.offset / n) }
        return NoiseProfile(red: f(red), green: f(green), blue: f(blue))
    }

    /// The profile after multiplying the signal by `gain` (variances scale by gain², the shot term by gain).
    public func scaled(by gain: Double) -> NoiseProfile {
        func f(_ c: Channel) -> Channel { Channel(scale: c.scale * gain, offset: c.offset * gain * gain) }
        return NoiseProfile(red: f(red), green: f(green), blue: f(blue))
    }

    /// Throws unless every scale is positive and every offset non-negative and finite (the DNG rule).
    func validate(_ name: String) throws(FusionError) {
        for (label, c) in [("red", red), ("green", green), ("blue", blue)] {
            guard c.scale.isFinite, c.scale >= 0, c.offset.isFinite, c.offset >= 0, c.scale + c.offset > 0 else {
                throw .invalidParameter(
                    name: "\(name).\(label)", value: "(\(c.scale), \(c.offset))",
                    allowed: "scale ≥ 0 and offset ≥ 0, finite, not both 0")
            }
        }
    }
}
