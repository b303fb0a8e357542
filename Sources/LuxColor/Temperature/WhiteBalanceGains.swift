/// Per-channel gains applied to a camera's raw RGB to make a white surface neutral.
///
/// Gains are the reciprocals of the camera neutral. Apple's capture devices take them normalised so
/// the smallest is 1 and each is at most the device's `maxWhiteBalanceGain` (R:2 G:2 B:4 becomes
/// 1:1:2); DNG and dcraw usually normalise green to 1 instead. Conversions from a white point live on
/// ``CameraColorCalibration`` (its `whiteBalanceGains(for:)` and `chromaticity(for:)`), which
/// knows the camera's matrices.
public struct WhiteBalanceGains: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The gain for the red channel.
    public var red: Double
    /// The gain for the green channel.
    public var green: Double
    /// The gain for the blue channel.
    public var blue: Double

    /// Creates gains as given (no normalisation; see ``normalized()``).
    public init(red: Double, green: Double, blue: Double) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Unit gains (the raw data is already neutral).
    public static let identity = WhiteBalanceGains(red: 1, green: 1, blue: 1)

    /// The gains that neutralise a camera response `neutral` (1/neutral), normalised so the smallest is 1.
    ///
    /// - Throws: ``ColorError/outOfRange(name:value:allowed:)`` when a component is not positive and finite.
    public init(neutral: SIMD3<Double>) throws(ColorError) {
        for i in 0..<3 where !(neutral[i] > 0 && neutral[i].isFinite) {
            throw .outOfRange(
                name: "camera neutral component \(i)", value: neutral[i], allowed: CameraColorCalibration.positive)
        }
        let gains = 1 / neutral
        let smallest = gains.min()
        self.init(red: gains.x / smallest, green: gains.y / smallest, blue: gains.z / smallest)
    }

    /// The camera response these gains neutralise (1/gains), normalised so the largest is 1 (DNG
    /// `AsShotNeutral` convention).
    public var neutral: SIMD3<Double> {
        let n = 1 / SIMD3(red, green, blue)
        return n / n.max()
    }

    /// The gains scaled so the smallest is 1 (Apple's convention).
    public func normalized() -> WhiteBalanceGains {
        let smallest = min(red, green, blue)
        return WhiteBalanceGains(red: red / smallest, green: green / smallest, blue: blue / smallest)
    }

    /// The gains scaled so green is 1 (the DNG and dcraw convention).
    public func normalizedToGreen() -> WhiteBalanceGains {
        WhiteBalanceGains(red: red / green, green: 1, blue: blue / green)
    }

    /// Returns the gains unchanged if each lies in `1...maxGain`, as a capture device requires.
    ///
    /// - Throws: ``ColorError/outOfRange(name:value:allowed:)`` naming the first gain outside the range.
    public func validated(maxGain: Double) throws(ColorError) -> WhiteBalanceGains {
        for (name, value) in [("red", red), ("green", green), ("blue", blue)] where !(value >= 1 && value <= maxGain) {
            throw .outOfRange(name: "\(name) white balance gain", value: value, allowed: 1...max(1, maxGain))
        }
        return self
    }

    public var description: String { "R \(red), G \(green), B \(blue)" }
}
