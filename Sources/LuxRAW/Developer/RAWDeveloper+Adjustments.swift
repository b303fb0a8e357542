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
        /// Develops a draft: faster and lower in quality, at the same output size (default `false`).
        ///
        /// The mosaic is reduced by averaging 2×2 Bayer or 3×3 X-Trans blocks instead of demosaiced, processed at that
        /// size and enlarged back. With ``Version/v1``, a draft is the half-size image itself.
        public var isDraftModeEnabled = false
        /// The output's size relative to the cropped image, 0 < s ≤ 1 (at least 0.01; default 1).
        ///
        /// Work falls with the size: at or below ½ (⅓ for X-Trans) the mosaic is reduced by averaging blocks of
        /// photosites before anything else runs, and the rest of the way by area averaging at the end.
        public var scaleFactor: Double = 1
        /// Lifts the shadows after the tone curve (0…1, default 0; 1 brightens a display value of 0.2 to about 0.39)
        /// without moving black or white.
        public var shadowBoostAmount: Double = 0
        /// Removes false colour from fine repeating detail (0…1, default 0): the colour differences are replaced by
        /// their 3×3 median taken twice, blended by the amount.
        public var moireReductionAmount: Double = 0
        /// How much fine luminance detail noise reduction keeps (0…1, default 0.5): the finest scale is
        /// thresholded at `2·(1 − amount)` times the noise (0 smooths twice as hard, 1 keeps it untouched).
        public var noiseReductionDetailAmount: Double = 0.5
        /// Sharpening within luminance noise reduction (0…1, default 0): the finest detail it keeps is amplified by
        /// `1 + amount`.
        public var noiseReductionSharpnessAmount: Double = 0
        /// Local contrast within luminance noise reduction (0…1, default 0): the coarser detail scales are amplified
        /// by `1 + amount / 2`.
        public var noiseReductionContrastAmount: Double = 0
        /// Whether colours outside linear BT.2020 are brought inside it (default `true`).
        ///
        /// Such colours have a negative component after the camera matrix; the mapping keeps their luminance and hue.
        /// ``Version/v1`` has no gamut mapping.
        public var isGamutMappingEnabled = true
        /// The orientation applied to the output (default: the file's; `.up` ignores the file's orientation).
        public var orientation: Orientation = .up
        /// Whether the output is cropped to the file's DefaultCrop (default `true`).
        public var appliesDefaultCrop = true

        /// The documented range of every numeric parameter, by name.
        public static let ranges: KeyValuePairs<String, ClosedRange<Double>> = [
            "exposure": -5...5, "baselineExposure": -10...10, "neutralTemperature": 2000...50000,
            "neutralTint": -150...150, "luminanceNoiseReductionAmount": 0...1, "colorNoiseReductionAmount": 0...1,
            "sharpnessAmount": 0...2, "sharpnessRadius": 0.3...5, "contrastAmount": -1...1, "saturationAmount": -1...1,
            "vibranceAmount": -1...1, "boostAmount": 0...1, "scaleFactor": 0.01...1, "shadowBoostAmount": 0...1,
            "moireReductionAmount": 0...1, "noiseReductionDetailAmount": 0...1,
            "noiseReductionSharpnessAmount": 0...1, "noiseReductionContrastAmount": 0...1,
        ]

        /// Creates the adjustments of a file without the tags (see the defaults of each property).
        public init() {}

        /// Throws for the first parameter outside its documented range (or not finite).
        public func validate() throws(RAWError) {
            let values: [String: Double] = [
                "exposure": exposure, "baselineExposure": baselineExposure, "neutralTemperature": neutralTemperature,
                "neutralTint": neutralTint, "luminanceNoiseReductionAmount": luminanceNoiseReductionAmount,
                "colorNoiseReductionAmount": colorNoiseReductionAmount, "sharpnessAmount": sharpnessAmount,
                "sharpnessRadius": sharpnessRadius, "contrastAmount": contrastAmount,
                "saturationAmount": saturationAmount,
                "vibranceAmount": vibranceAmount, "boostAmount": boostAmount, "scaleFactor": scaleFactor,
                "shadowBoostAmount": shadowBoostAmount, "moireReductionAmount": moireReductionAmount,
                "noiseReductionDetailAmount": noiseReductionDetailAmount,
                "noiseReductionSharpnessAmount": noiseReductionSharpnessAmount,
                "noiseReductionContrastAmount": noiseReductionContrastAmount,
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

extension RAWDeveloper.Adjustments {
    enum CodingKeys: String, CodingKey {
        case version, exposure, baselineExposure, neutralTemperature, neutralTint, luminanceNoiseReductionAmount
        case colorNoiseReductionAmount, sharpnessAmount, sharpnessRadius, contrastAmount, saturationAmount
        case vibranceAmount, boostAmount, isHighlightRecoveryEnabled, isLensCorrectionEnabled, demosaicMethod
        case isDraftModeEnabled, scaleFactor, shadowBoostAmount, moireReductionAmount, noiseReductionDetailAmount
        case noiseReductionSharpnessAmount, noiseReductionContrastAmount, isGamutMappingEnabled, orientation
        case appliesDefaultCrop
    }

    /// Decodes adjustments; parameters a saved edit does not mention (such as those added after it was saved)
    /// take their defaults.
    public init(from decoder: any Decoder) throws {
        self.init()
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func read<T: Decodable>(_ key: CodingKeys, _ value: inout T) throws {
            if let v = try c.decodeIfPresent(T.self, forKey: key) { value = v }
        }
        try read(.version, &version)
        try read(.exposure, &exposure)
        try read(.baselineExposure, &baselineExposure)
        try read(.neutralTemperature, &neutralTemperature)
        try read(.neutralTint, &neutralTint)
        try read(.luminanceNoiseReductionAmount, &luminanceNoiseReductionAmount)
        try read(.colorNoiseReductionAmount, &colorNoiseReductionAmount)
        try read(.sharpnessAmount, &sharpnessAmount)
        try read(.sharpnessRadius, &sharpnessRadius)
        try read(.contrastAmount, &contrastAmount)
        try read(.saturationAmount, &saturationAmount)
        try read(.vibranceAmount, &vibranceAmount)
        try read(.boostAmount, &boostAmount)
        try read(.isHighlightRecoveryEnabled, &isHighlightRecoveryEnabled)
        try read(.isLensCorrectionEnabled, &isLensCorrectionEnabled)
        try read(.demosaicMethod, &demosaicMethod)
        try read(.isDraftModeEnabled, &isDraftModeEnabled)
        try read(.scaleFactor, &scaleFactor)
        try read(.shadowBoostAmount, &shadowBoostAmount)
        try read(.moireReductionAmount, &moireReductionAmount)
        try read(.noiseReductionDetailAmount, &noiseReductionDetailAmount)
        try read(.noiseReductionSharpnessAmount, &noiseReductionSharpnessAmount)
        try read(.noiseReductionContrastAmount, &noiseReductionContrastAmount)
        try read(.isGamutMappingEnabled, &isGamutMappingEnabled)
        try read(.orientation, &orientation)
        try read(.appliesDefaultCrop, &appliesDefaultCrop)
    }
}
