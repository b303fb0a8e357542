public import LuxPixels

/// Coarse-to-fine tile alignment on a Gaussian pyramid (HDR+ style), with sub-pixel refinement.
///
/// Each frame is reduced to a grey image (the mean of each 2×2 Bayer quad — half resolution — or the mean of R, G,
/// B), and a pyramid is built from it. At the coarsest level every tile is searched over a wide window; each finer
/// level starts from the displacements of the coarser tiles (the tile's own and its two nearest neighbours', which
/// keeps motion boundaries sharp) and searches a small window around the best of them. The finest level uses
/// tiles that overlap by half, an L1 distance, a quadratic fit of the L2 cost surface for sub-pixel precision and,
/// optionally, Lucas–Kanade iterations.
///
/// ```swift
/// let aligner = TileAligner()
/// let field = try aligner.align(frame, to: reference, rawModel: model)
/// field.displacement(atX: 2000, y: 1500)   // ≈ the hand shake between the frames, in photosites
/// ```
public struct TileAligner: Sendable {
    /// One pyramid level.
    public struct Level: Hashable, Sendable, Codable {
        /// Reduction relative to the next finer level (1 for the finest level).
        public var downsampling: Int
        /// The side of a tile, in pixels of this level.
        public var tileSize: Int
        /// How far around its starting point a tile is searched, in pixels of this level.
        public var searchRadius: Int

        /// Creates a level.
        public init(downsampling: Int, tileSize: Int, searchRadius: Int) {
            self.downsampling = downsampling
            self.tileSize = tileSize
            self.searchRadius = searchRadius
        }
    }

    /// What the aligner does.
    public struct Settings: Hashable, Sendable, Codable {
        /// The pyramid, finest level first.
        public var levels: [Level]
        /// The largest displacement the search must find, as a fraction of the frame width (the coarsest level's
        /// search window grows to cover it).
        public var maximumDisplacement: Double
        /// Whether displacements are refined below a pixel (a quadratic fit of the cost surface, then
        /// ``refinementIterations`` of Lucas–Kanade); without it they stay whole pixels of the finest level.
        public var refinesToSubpixel: Bool
        /// Lucas–Kanade iterations after the sub-pixel fit (0 keeps the fit alone).
        public var refinementIterations: Int
        /// Whether the finest level's tiles overlap by half (a displacement per half tile, four times the matching
        /// work) rather than abut (a displacement per tile).
        public var finestTilesOverlap: Bool
        /// Whether noisy frames are aligned on a smoothed finest level with larger tiles.
        ///
        /// Below a signal-to-noise ratio of 22 dB (at the reference's median level) the finest level is filtered with
        /// the 5×5 binomial kernel and its tiles grow by half; below 14 dB they double (Wronski et al. 2019 pick tiles
        /// by SNR the same way). The block grid, and so the field's resolution, stays the same.
        public var isNoiseAdaptive: Bool
        /// Worker threads (`nil`: one per core).
        public var threads: Int?

        /// Creates settings.
        public init(
            levels: [Level] = Settings.hdrPlusLevels, maximumDisplacement: Double = 0.06,
            refinesToSubpixel: Bool = true, refinementIterations: Int = 2, finestTilesOverlap: Bool = true,
            isNoiseAdaptive: Bool = true, threads: Int? = nil
        ) {
            self.levels = levels
            self.maximumDisplacement = maximumDisplacement
            self.refinesToSubpixel = refinesToSubpixel
            self.refinementIterations = refinementIterations
            self.finestTilesOverlap = finestTilesOverlap
            self.isNoiseAdaptive = isNoiseAdaptive
            self.threads = threads
        }

        /// HDR+'s pyramid: reductions 1, 2, 4, 4; tiles 16, 16, 16, 8; search ±1, ±4, ±4, ±4.
        public static let hdrPlusLevels: [Level] = [
            Level(downsampling: 1, tileSize: 16, searchRadius: 1),
            Level(downsampling: 2, tileSize: 16, searchRadius: 4),
            Level(downsampling: 4, tileSize: 16, searchRadius: 4),
            Level(downsampling: 4, tileSize: 8, searchRadius: 4),
        ]

        /// The full pyramid with two Lucas–Kanade iterations (the quality level's alignment).
        public static let standard = Settings()

        /// Whole-pixel displacements, one per abutting tile (the balanced level's alignment: a quarter of the
        /// matching work, and the fast merge moves frames by whole quads anyway).
        public static let fast = Settings(refinesToSubpixel: false, refinementIterations: 0, finestTilesOverlap: false)

        /// The thread count to use.
        var threadCount: Int { max(1, threads ?? Parallel.defaultThreadCount) }

        func validate() throws(FusionError) {
            guard !levels.isEmpty, levels[0].downsampling == 1 else {
                throw .invalidParameter(
                    name: "alignment.levels", value: "\(levels.count) levels",
                    allowed: "at least one level; the first with downsampling 1")
            }
            for (i, l) in levels.enumerated() {
                guard l.tileSize >= 4, l.tileSize <= 128, l.tileSize % 2 == 0, l.searchRadius >= 1,
                    l.searchRadius <= 64, i == 0 || [2, 4].contains(l.downsampling)
                else {
                    throw .invalidParameter(
                        name: "alignment.levels[\(i)]", value: "\(l)",
                        allowed: "even tile size 4…128, search radius 1…64, downsampling 2 or 4 above the first level")
                }
            }
            guard maximumDisplacement >= 0, maximumDisplacement <= 0.5 else {
                throw .invalidParameter(
                    name: "alignment.maximumDisplacement", value: "\(maximumDisplacement)", allowed: "0…0.5")
            }
            guard (0...10).contains(refinementIterations) else {
                throw .invalidParameter(
                    name: "alignment.refinementIterations", value: "\(refinementIterations)", allowed: "0…10")
            }
        }
    }

    /// The settings.
    public var settings: Settings

    /// Creates an aligner.
    public init(settings: Settings = .standard) {
        self.settings = settings
    }

    /// Aligns `frame` to `reference`.
    ///
    /// - Parameters:
    ///   - rawModel: For Bayer frames, their levels and noise (required); for RGB frames, ignored.
    ///   - noise: For RGB frames, their noise (estimated from the reference when `nil`).
    /// - Returns: The displacement field in the frames' pixels (blocks of 16 photosites for Bayer frames with the
    ///   default pyramid, 8 pixels for RGB frames).
    /// - Throws: ``FusionError`` for mismatched or unsupported frames and out-of-range settings.
    public func align(
        _ frame: PixelBuffer, to reference: PixelBuffer, rawModel: RawNoiseModel? = nil, noise: NoiseProfile? = nil
    ) throws(FusionError) -> AlignmentField {
        try settings.validate()
        let input = try FusionInput(
            frames: [reference, frame], rawModel: rawModel, noise: noise, operation: "alignment")
        let prepared = AlignmentReference(
            grey: input.readers[0].grey(threads: settings.threadCount), settings: settings, noise: input.greyNoise)
        let alt = prepared.pyramid(of: input.readers[1].grey(threads: settings.threadCount))
        return prepared.align(alt).scaled(by: input.pixelScale)
    }
}
