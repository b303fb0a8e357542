public import LuxPixels

/// Exposure fusion (Mertens, Kautz and Van Reeth 2007): blends differently exposed display-referred frames into one
/// well-exposed image without building an HDR radiance map.
///
/// Each pixel of each frame gets a weight `C^ωc · S^ωs · E^ωe` — contrast (absolute Laplacian of the luma),
/// saturation (standard deviation of R, G, B) and well-exposedness (`Π exp(−(v − 0.5)² / 2σ²)` over the channels) —
/// the weights are normalised across frames, and the frames are blended in a Laplacian pyramid with the weights'
/// Gaussian pyramid, which avoids seams and halos.
///
/// The work runs in tiles on all cores: the three finest pyramid levels are computed per tile (with the margins the
/// 5-tap filters need, so the result does not depend on the tiling), the coarser levels once for the whole image.
/// Memory beyond the frames and the output is a few megabytes per thread plus 1/64 of a frame per input.
///
/// ```swift
/// let fused = try ExposureFusion().fuse([under, normal, over])   // RGBA8 sRGB in, RGBA8 out
/// ```
public struct ExposureFusion: Sendable {
    /// What the fusion does.
    public struct Settings: Hashable, Sendable, Codable {
        /// The exponent of the contrast weight (0 ignores contrast).
        public var contrastWeight: Float
        /// The exponent of the saturation weight.
        public var saturationWeight: Float
        /// The exponent of the well-exposedness weight.
        public var exposureWeight: Float
        /// The value considered best exposed.
        public var exposureMean: Float
        /// The width of the well-exposedness Gaussian.
        public var exposureSigma: Float
        /// Pyramid levels (`nil`: as many as keep the coarsest level at least 8 pixels on its shorter side).
        public var levels: Int?
        /// Worker threads (`nil`: one per core).
        public var threads: Int?

        /// Creates settings; the defaults are the paper's (all exponents 1, σ = 0.2).
        public init(
            contrastWeight: Float = 1, saturationWeight: Float = 1, exposureWeight: Float = 1,
            exposureMean: Float = 0.5, exposureSigma: Float = 0.2, levels: Int? = nil, threads: Int? = nil
        ) {
            self.contrastWeight = contrastWeight
            self.saturationWeight = saturationWeight
            self.exposureWeight = exposureWeight
            self.exposureMean = exposureMean
            self.exposureSigma = exposureSigma
            self.levels = levels
            self.threads = threads
        }

        var threadCount: Int { max(1, threads ?? Parallel.defaultThreadCount) }

        func validate() throws(FusionError) {
            for (name, v) in [
                ("contrastWeight", contrastWeight), ("saturationWeight", saturationWeight),
                ("exposureWeight", exposureWeight),
            ] where !(v.isFinite && v >= 0 && v <= 10) {
                throw .invalidParameter(name: name, value: "\(v)", allowed: "0…10")
            }
            guard exposureSigma.isFinite, exposureSigma > 0.01, exposureSigma <= 10 else {
                throw .invalidParameter(name: "exposureSigma", value: "\(exposureSigma)", allowed: "0.01…10")
            }
            guard exposureMean.isFinite else {
                throw .invalidParameter(name: "exposureMean", value: "\(exposureMean)", allowed: "a finite value")
            }
            if let levels, !(1...30).contains(levels) {
                throw .invalidParameter(name: "levels", value: "\(levels)", allowed: "1…30")
            }
        }
    }

    /// The settings.
    public var settings: Settings

    /// Creates an exposure fusion.
    public init(settings: Settings = Settings()) {
        self.settings = settings
    }

    /// Fuses display-referred frames of the same size and format (``PixelFormat/rgba8``, ``PixelFormat/bgra8``,
    /// ``PixelFormat/rgba16``, ``PixelFormat/rgbaHalf`` or ``PixelFormat/rgbaFloat``, values 0…1) into one
    /// frame of that format (integer formats clamped to 0…1, alpha opaque, colour space of the first frame).
    ///
    /// - Parameter pool: Where the output buffer comes from (a fresh allocation when `nil`).
    /// - Throws: ``FusionError`` for no frames, mismatched or unsupported frames, frames smaller than 16 pixels, bad
    ///   settings or an exhausted pool.
    /// - Complexity: O(frames × pixels).
    public func fuse(_ frames: [PixelBuffer], pool: BufferPool? = nil) throws(FusionError) -> PixelBuffer {
        let first = try check(frames)
        var output = try FusionInput.outputBuffer(
            format: first.format, width: first.width, height: first.height, pool: pool)
        output.colorSpace = first.colorSpace
        MertensBlender(frames: frames, settings: settings).run(into: output)
        return output
    }

    /// Fuses like ``fuse(_:pool:)``, but hands the result to `body` a band of rows at a time, top to bottom,
    /// instead of returning a full-size buffer: an encoder can write each band as it is finished, and no output
    /// image is held.
    ///
    /// - Parameter body: Receives each band (the frames' width and format, up to 256 rows, colour space of the first
    ///   frame) and the index of its first row. The band's memory is reused for the next band: consume or copy it
    ///   before returning.
    /// - Throws: ``FusionError`` as ``fuse(_:pool:)`` does (before `body` is called), or what `body` throws (which
    ///   ends the fusion).
    public func fuse(
        _ frames: [PixelBuffer], bands body: (_ band: PixelBuffer, _ firstRow: Int) throws -> Void
    ) throws {
        let first = try check(frames)
        try MertensBlender(frames: frames, settings: settings).run(format: first.format) { band, y in
            var band = band
            band.colorSpace = first.colorSpace
            try body(band, y)
        }
    }

    /// Checks the settings and the frames; returns the first frame.
    func check(_ frames: [PixelBuffer]) throws(FusionError) -> PixelBuffer {
        try settings.validate()
        let first = try FusionInput.checkAlike(frames)
        guard DisplayRowReader.directFormats.contains(first.format) else {
            throw .unsupportedFormat(
                first.format, operation: "exposure fusion", allowed: "RGBA8, BGRA8, RGBA16, RGBAh or RGBAf frames")
        }
        guard first.width >= FusionInput.minimumSide, first.height >= FusionInput.minimumSide else {
            throw .imageTooSmall(width: first.width, height: first.height, minimum: FusionInput.minimumSide)
        }
        return first
    }
}
