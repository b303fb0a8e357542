public import LuxPixels

/// Merges linear exposure brackets into one scene-referred float image with noise-optimal weights.
///
/// Every bracket's linear values are divided by its exposure (duration × ISO) to estimate radiance, and the
/// estimates are averaged with the inverse of their variance, `w = g² / (S·x + O)` for exposure `g` and the
/// bracket's noise profile (Granados et al. 2010; Hasinoff, Durand and Freeman 2010) — which favours the longest
/// unclipped exposure where shot noise dominates. A bracket gets no weight where any channel (any site of a Bayer
/// quad) reaches ``Settings/saturationLevel``, and its weight fades out over 5×5 pixels around clipping so no contour
/// appears there. Brackets are aligned to the reference on exposure-normalised grey images, and where a bracket
/// disagrees with the reference beyond its noise (motion), it is rejected as in ``BurstMerge``.
///
/// The output is linear, relative to the reference bracket's exposure (1.0 = where the reference clips; brighter
/// parts of the scene exceed 1): ``PixelFormat/grayFloat`` holding the mosaic for Bayer brackets (its layout in
/// ``Result/cfaPattern``), ``PixelFormat/rgbaFloat`` for RGB brackets. ``HDRToneMapper`` turns it into a display
/// image.
///
/// ```swift
/// let brackets = frames.enumerated().map { i, f in
///     HDRMerge.Bracket(frame: f, exposureDuration: durations[i], iso: 100)
/// }
/// let hdr = try HDRMerge().merge(brackets, rawModel: model)
/// ```
public struct HDRMerge: Sendable {
    /// One exposure of the bracket.
    public struct Bracket: Sendable {
        /// The frame (Bayer or linear RGB).
        public var frame: PixelBuffer
        /// Its exposure time.
        public var exposureDuration: MediaTime
        /// Its ISO (gain).
        public var iso: Float
        /// Its noise; `nil` takes the raw model's (Bayer) or estimates it from the frame (RGB).
        public var noise: NoiseProfile?

        /// Creates a bracket.
        public init(frame: PixelBuffer, exposureDuration: MediaTime, iso: Float, noise: NoiseProfile? = nil) {
            self.frame = frame
            self.exposureDuration = exposureDuration
            self.iso = iso
            self.noise = noise
        }

        /// Exposure × gain, the factor between radiance and the linear value.
        var exposure: Double { exposureDuration.seconds * Double(iso) }
    }

    /// What the merge does.
    public struct Settings: Hashable, Sendable, Codable {
        /// The bracket whose exposure, position and timing define the result (`nil`: the middle exposure).
        public var reference: Int?
        /// The linear level (fraction of the white level) from which a value counts as clipped.
        public var saturationLevel: Double
        /// How brackets are aligned (`nil`: they already are, for example from a tripod).
        public var alignment: TileAligner.Settings?
        /// Whether brackets that disagree with the reference (motion) are rejected locally.
        public var rejectsMotion: Bool
        /// Motion rejection strength, as in ``BurstMerge/Settings/robustness``.
        public var robustness: Double
        /// Worker threads (`nil`: one per core).
        public var threads: Int?

        /// Creates settings.
        public init(
            reference: Int? = nil, saturationLevel: Double = 0.95, alignment: TileAligner.Settings? = .standard,
            rejectsMotion: Bool = true, robustness: Double = 1, threads: Int? = nil
        ) {
            self.reference = reference
            self.saturationLevel = saturationLevel
            self.alignment = alignment
            self.rejectsMotion = rejectsMotion
            self.robustness = robustness
            self.threads = threads
        }

        var threadCount: Int { max(1, threads ?? Parallel.defaultThreadCount) }
    }

    /// What the merge produced.
    public struct Result: Sendable {
        /// Linear radiance relative to the reference bracket (1 = its clip level): ``PixelFormat/grayFloat`` mosaic
        /// for Bayer input, ``PixelFormat/rgbaFloat`` for RGB.
        public var output: PixelBuffer
        /// The mosaic layout of a Bayer result.
        public var cfaPattern: CFAPattern?
        /// The reference bracket.
        public var referenceIndex: Int
        /// Each bracket's alignment to the reference (`nil` for the reference and when alignment is off).
        public var alignments: [AlignmentField?]
        /// Per bracket, the fraction of pixels rejected as motion.
        public var rejectedFractions: [Double]
        /// The fraction of pixels clipped in every bracket (their value is the shortest exposure's clip level).
        public var clippedFraction: Double
    }

    /// The settings.
    public var settings: Settings

    /// Creates a merge.
    public init(settings: Settings = Settings()) {
        self.settings = settings
    }

    /// Merges Bayer brackets.
    ///
    /// - Parameter rawModel: Their levels, and their noise unless a bracket gives its own.
    /// - Throws: ``FusionError`` for fewer than one bracket, mismatched frames, non-positive exposures, bad settings.
    public func merge(_ brackets: [Bracket], rawModel: RawNoiseModel) throws(FusionError) -> Result {
        guard let first = brackets.first else { throw .notEnoughFrames(count: 0, minimum: 1) }
        guard first.frame.format.isBayer else {
            throw .unsupportedFormat(
                first.frame.format, operation: "Bayer HDR merge",
                allowed: "Bayer14 or Bayer16 brackets (merge(_:) takes linear RGB)")
        }
        return try run(brackets, rawModel: rawModel)
    }

    /// Merges linear RGB brackets (``PixelFormat/rgbaFloat``, ``PixelFormat/rgbaHalf`` or ``PixelFormat/rgba16``,
    /// clipping at 1).
    ///
    /// - Throws: ``FusionError``.
    public func merge(_ brackets: [Bracket]) throws(FusionError) -> Result {
        if let f = brackets.first?.frame, f.format.isBayer {
            throw .unsupportedFormat(
                f.format, operation: "RGB HDR merge", allowed: "linear RGB brackets (merge(_:rawModel:) takes Bayer)")
        }
        return try run(brackets, rawModel: nil)
    }
}
