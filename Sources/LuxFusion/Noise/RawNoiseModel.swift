import LuxPixels

/// How to read a Bayer frame as linear light: black and white levels in sensor codes, and its noise.
///
/// A sample with code `v` at CFA site `s` has the linear value `(v − blackLevel[s]) / (whiteLevel − blackLevel[s])`
/// (0 = black, 1 = sensor clip), and noise variance ``NoiseProfile/variance(of:at:)`` of that value.
///
/// ```swift
/// let model = RawNoiseModel(blackLevel: 1024, whiteLevel: 16383,
///                           noise: NoiseProfile(scale: 3.2e-4, offset: 4.3e-6))
/// ```
public struct RawNoiseModel: Hashable, Sendable, Codable {
    /// Black level per site of the 2×2 CFA quad, row by row (top-left, top-right, bottom-left, bottom-right).
    public var blackLevels: [Double]
    /// The code of sensor saturation.
    public var whiteLevel: Double
    /// The noise in normalised linear units.
    public var noise: NoiseProfile

    /// One black level for every site.
    public init(blackLevel: Double, whiteLevel: Double, noise: NoiseProfile) {
        self.init(blackLevels: [blackLevel, blackLevel, blackLevel, blackLevel], whiteLevel: whiteLevel, noise: noise)
    }

    /// A black level per site of the 2×2 quad (row by row).
    public init(blackLevels: [Double], whiteLevel: Double, noise: NoiseProfile) {
        self.blackLevels = blackLevels
        self.whiteLevel = whiteLevel
        self.noise = noise
    }

    /// Throws unless the levels describe a usable range for `format`.
    func validate(for format: PixelFormat) throws(FusionError) {
        guard blackLevels.count == 4 else {
            throw .invalidParameter(
                name: "blackLevels", value: "\(blackLevels.count) values", allowed: "4 values (one per CFA quad site)")
        }
        let maxCode = Double(format.codeRange?.upperBound ?? 65535)
        for b in blackLevels {
            guard b.isFinite, b >= 0, b < whiteLevel else {
                throw .invalidParameter(
                    name: "blackLevel", value: "\(b)", allowed: "0 ≤ black < whiteLevel (\(whiteLevel))")
            }
        }
        guard whiteLevel.isFinite, whiteLevel <= maxCode else {
            throw .invalidParameter(
                name: "whiteLevel", value: "\(whiteLevel)", allowed: "≤ \(Int(maxCode)) for \(format)")
        }
        try noise.validate("noise")
    }
}
