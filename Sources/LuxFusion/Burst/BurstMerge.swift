public import LuxPixels

/// Robust merge of a burst of frames into one low-noise frame, without ghosts where things move.
///
/// Frames are aligned to a reference (``TileAligner``), then each frame's aligned pixels are averaged with the
/// reference's, weighted per pixel by how well they agree with it: the local mean of the squared difference,
/// normalised by the variance the noise model predicts, is compared with thresholds, and the weight map is eroded so
/// that the edges of moving objects are rejected too. Where a frame disagrees (motion, occlusion, failed alignment)
/// the reference wins; where all agree, the result approaches the average of all frames (noise variance ÷ N).
///
/// Two variants match the capture quality levels:
/// - ``Variant/fast`` (the *balanced* level, 3–4 frames): integer alignment without Lucas–Kanade, frames moved by
///   whole pixels (whole 2×2 quads on Bayer data).
/// - ``Variant/full`` (the *quality* level, 8 or more frames): sub-pixel alignment, frames resampled with a
///   Catmull–Rom kernel before the comparison.
///
/// Bayer frames are merged before demosaicing, per site of the 2×2 quad, and come out as ``PixelFormat/bayer16(_:)``
/// with the levels of ``Result/rawModel``; linear RGB frames come out in their own format.
///
/// ```swift
/// let merge = BurstMerge(settings: .quality)
/// let result = try merge.merge(frames, rawModel: model)        // frames: [PixelBuffer] of .bayer14(.rggb)
/// developer.develop(result.output, model: result.rawModel)      // 1 frame, noise ≈ ÷ 8 in static areas
/// print(result.rejectedFraction)                              // how much motion was rejected
/// ```
public struct BurstMerge: Sendable {
    /// How much work the merge does.
    public enum Variant: String, Hashable, Sendable, Codable {
        /// Whole-pixel alignment and merge: the balanced level.
        case fast
        /// Sub-pixel alignment and resampling: the quality level.
        case full
    }

    /// Which frame the others are merged into (its content and timing define the result).
    public enum ReferenceSelection: Hashable, Sendable, Codable {
        /// A given frame.
        case index(Int)
        /// The sharpest (highest gradient energy) of the first `n` frames, as HDR+ picks it.
        case sharpest(among: Int)
    }

    /// What the merge does.
    public struct Settings: Hashable, Sendable, Codable {
        /// Fast or full.
        public var variant: Variant
        /// The reference frame.
        public var reference: ReferenceSelection
        /// Motion rejection strength: 1 is the default; 2 rejects differences half as large (fewer ghosts,
        /// less denoising), 0.5 tolerates twice as much.
        public var robustness: Double
        /// How frames are aligned.
        public var alignment: TileAligner.Settings
        /// Worker threads (`nil`: one per core).
        public var threads: Int?

        /// Creates settings.
        public init(
            variant: Variant, reference: ReferenceSelection = .index(0), robustness: Double = 1,
            alignment: TileAligner.Settings? = nil, threads: Int? = nil
        ) {
            self.variant = variant
            self.reference = reference
            self.robustness = robustness
            self.alignment = alignment ?? (variant == .fast ? .fast : .standard)
            self.threads = threads
        }

        /// The balanced level: the fast variant, reference = first frame.
        public static let balanced = Settings(variant: .fast)
        /// The quality level: the full variant, reference = the sharpest of the first three frames.
        public static let quality = Settings(variant: .full, reference: .sharpest(among: 3))

        var threadCount: Int { max(1, threads ?? Parallel.defaultThreadCount) }

        func validate(frameCount: Int) throws(FusionError) {
            guard robustness.isFinite, robustness >= 0.1, robustness <= 10 else {
                throw .invalidParameter(name: "robustness", value: "\(robustness)", allowed: "0.1…10")
            }
            switch reference {
            case .index(let i):
                guard (0..<frameCount).contains(i) else {
                    throw .invalidParameter(
                        name: "reference", value: ".index(\(i))", allowed: "0..<\(frameCount) (the frames given)")
                }
            case .sharpest(let n):
                guard n >= 1 else {
                    throw .invalidParameter(name: "reference", value: ".sharpest(among: \(n))", allowed: "n ≥ 1")
                }
            }
            try alignment.validate()
        }
    }

    /// What the merge produced.
    public struct Result: Sendable {
        /// The merged frame: ``PixelFormat/bayer16(_:)`` for Bayer input (levels in ``rawModel``), the input
        /// format for RGB input.
        public var output: PixelBuffer
        /// For Bayer input: how to read ``output`` (black 4096, white 65535) and its noise in static areas.
        public var rawModel: RawNoiseModel?
        /// The noise of ``output`` in static areas, in normalised linear units (where motion was rejected the
        /// noise is that of the reference frame).
        public var noise: NoiseProfile
        /// The frame everything was merged into.
        public var referenceIndex: Int
        /// Each frame's alignment to the reference, in its pixels (`nil` for the reference itself).
        public var alignments: [AlignmentField?]
        /// Per frame, the fraction of the reference's pixels where the frame was rejected (weight below ½); 0 for
        /// the reference.
        public var rejectedFractions: [Double]
        /// The mean of ``rejectedFractions`` over the non-reference frames: how much of the burst motion rejection
        /// discarded.
        public var rejectedFraction: Double
        /// The mean over the image of the effective number of frames averaged, (Σw)² / Σw² with the reference's
        /// weight 1 (N for a static burst merged without rejection).
        public var effectiveFrameCount: Double
    }

    /// The settings.
    public var settings: Settings

    /// Creates a merge.
    public init(settings: Settings = .quality) {
        self.settings = settings
    }

    /// The pedestal of Bayer output: codes below it hold negative noise excursions instead of clipping them.
    public static let outputBlackLevel = 4096.0

    /// Merges Bayer frames (``PixelFormat/bayer14(_:)`` or ``PixelFormat/bayer16(_:)``, all alike).
    ///
    /// - Parameters:
    ///   - frames: The burst, all the same size and format (even width and height).
    ///   - rawModel: Their black and white levels and noise (as a DNG NoiseProfile describes it).
    ///   - pool: Where the output buffer comes from (a fresh allocation when `nil`).
    /// - Throws: ``FusionError`` for empty or mismatched frames, bad levels or settings, an exhausted pool.
    /// - Complexity: O(frames × pixels); about 0.1–0.2 s per 12 MP frame on two cores (full variant).
    public func merge(_ frames: [PixelBuffer], rawModel: RawNoiseModel, pool: BufferPool? = nil) throws(FusionError)
        -> Result
    {
        guard let first = frames.first else { throw .notEnoughFrames(count: 0, minimum: 1) }
        guard first.format.isBayer else {
            throw .unsupportedFormat(
                first.format, operation: "Bayer burst merge",
                allowed: "Bayer14 or Bayer16 frames (merge(_:noise:) takes linear RGB)")
        }
        return try run(frames, rawModel: rawModel, noise: nil, pool: pool)
    }

    /// Merges linear RGB frames (``PixelFormat/rgbaFloat``, ``PixelFormat/rgbaHalf`` or ``PixelFormat/rgba16``).
    ///
    /// - Parameters:
    ///   - noise: Their noise per channel; estimated from the reference frame when `nil` (signal-independent).
    ///   - pool: Where the output buffer comes from.
    /// - Throws: ``FusionError``.
    public func merge(_ frames: [PixelBuffer], noise: NoiseProfile? = nil, pool: BufferPool? = nil) throws(FusionError)
        -> Result
    {
        if let f = frames.first, f.format.isBayer {
            throw .unsupportedFormat(
                f.format, operation: "RGB burst merge", allowed: "linear RGB frames (merge(_:rawModel:) takes Bayer)")
        }
        return try run(frames, rawModel: nil, noise: noise, pool: pool)
    }
}
