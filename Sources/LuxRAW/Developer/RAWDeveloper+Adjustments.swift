public import LuxCodecs

extension RAWDeveloper {
    /// Every user-settable parameter of a developer, as a value: save it with an edit (it is `Codable`) and apply
    /// it to the same raw later to render the same image — ``version`` pins the pipeline.
    ///
    /// A developer exposes each parameter directly too (`developer.exposure`), and fills in the defaults that come
    /// from the file (white balance, BaselineExposure, noise reduction, sharpening, orientation) when it is
    /// created; the defaults written below are those of a file without the tags.
    ///
    /// ```swift
    /// var developer = try RAWDeveloper(url: dng)
    /// developer.exposure = 0.3
    /// let saved = try JSONEncoder().encode(developer.adjustments)
    /// // … later, on the same file:
    /// var again = try RAWDeveloper(url: dng)
    /// again.adjustments = try JSONDecoder().decode(RAWDeveloper.Adjustments.self, from: saved)
    /// ```
    public struct Adjustments: Hashable, Sendable, Codable {
        /// The pipeline version (default ``Version/latest``).
        public var version: Version = .latest
        /// Exposure adjustment in EV, −5…5 (default 0), applied on top of ``baselineExposure``.
        public var exposure: Double = 0
        /// The file's BaselineExposure in EV (default: read from the file, 0 without the tag), −10…10.
        public var baselineExposure: Double = 0
        /// The white's correlated colour temperature in kelvin, 2000…50000 (default: the as-shot white's).
        public var neutralTemperature: Double = 5003
        /// The white's tint (3000·Duv, positive green), −150…150 (default: the as-shot white's).
        public var neutralTint: Double = 0
        /// Luminance noise reduction, 0…1; default from the noise model
        /// (``NoiseReduction/defaultAmounts(noiseModel:)``).
        public var luminanceNoiseReductionAmount: Double = 0
        /// Colour noise reduction, 0…1 (default from the noise model).
        public var colorNoiseReductionAmount: Double = 0.1
        /// Luminance sharpening (unsharp-mask amount), 0…2; default 0.5 × BaselineSharpness (1 without the tag).
        public var sharpnessAmount: Double = 0.5
        /// Sharpening radius (Gaussian σ in pixels), 0.3…5, default 1.
        public var sharpnessRadius: Double = 1
        /// Contrast, −1…1, default 0.
        public var contrastAmount: Double = 0
        /// Saturation, −1…1, default 0 (−1 is monochrome).
        public var saturationAmount: Double = 0
        /// Vibrance (saturation weighted towards dull colours), −1…1, default 0.
        public var vibranceAmount: Double = 0
        /// How much of the default tone curve to apply, 0…1, default 1 (0 leaves the output scene-referred).
        public var boostAmount: Double = 1
        /// Whether clipped highlights are reconstructed (default `true`).
        public var isHighlightRecoveryEnabled = true
        /// Whether the file's lens corrections (WarpRectilinear, FixVignetteRadial, GainMap) are applied
        /// (default `true`).
        public var isLensCorrectionEnabled = true
        /// The demosaicing method (default ``DemosaicMethod/rcd``).
        public var demosaicMethod: DemosaicMethod = .rcd
        /// Develops a half-size draft (one pixel per 2×2 quad, no interpolation): 4× fewer pixels, for previews.
        public var isDraftModeEnabled = false
        /// The orientation applied to the output (default: the file's).
        public var orientation: Orientation = .up
        /// Whether the output is cropped to the file's DefaultCrop (default `true`).
        public var appliesDefaultCrop = true

        /// The documented range of every numeric parameter, by name.
        public static let ranges: KeyValuePairs<String, ClosedRange<Double>> = [
            "exposure": -5...5, "baselineExposure": -10...10, "neutralTemperature": 2000...50000,
            "neutralTint": -150...150, "luminanceNoiseReductionAmount": 0...1, "colorNoiseReductionAmount": 0...1,
            "sharpnessAmount": 0...2, "sharpnessRadius": 0.3...5, "contrastAmount": -1...1, "saturationAmount": -1...1,
            "vibranceAmount": -1...1, "boostAmount": 0...1,
        ]

        /// Throws for the first parameter outside its documented range (or not finite).
        public func validate() throws(RAWError) {
            let values: [String: Double] = [
                "exposure": exposure, "baselineExposure": baselineExposure, "neutralTemperature": neutralTemperature,
                "neutralTint": neutralTint, "luminanceNoiseReductionAmount": luminanceNoiseReductionAmount,
                "colorNoiseReductionAmount": colorNoiseReductionAmount, "sharpnessAmount": sharpnessAmount,
                "sharpnessRadius": sharpnessRadius, "contrastAmount": contrastAmount,
                "saturationAmount": saturationAmount,
                "vibranceAmount": vibranceAmount, "boostAmount": boostAmount,
            ]
            for (name, range) in Self.ranges {
                let v = values[name] ?? 0
                guard v.isFinite, range.contains(v) else {
                    throw .invalidParameter(name: name, value: v, allowed: range)
                }
            }
        }
    }
}
