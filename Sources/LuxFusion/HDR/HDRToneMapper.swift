import CLuxKernels
public import LuxColor
public import LuxPixels
import RealModule

/// Turns a scene-referred linear image (an ``HDRMerge`` result after demosaicing, or its RGB output) into a display
/// image.
///
/// Two operators:
/// - ``Operator/exposureFusion(stops:)`` (default): the radiance is rendered at several exposures, each clipped and
///   encoded for the display, and the renderings are fused with ``ExposureFusion`` — a local operator that keeps
///   detail in highlights and shadows, as phone cameras do. By default the renderings span the image's own range,
///   at most 2 EV apart: from the exposure that keeps its brightest 0.1 % below clipping to the one that lifts its
///   lower quartile to mid-grey.
/// - ``Operator/reinhard(whitePoint:)``: Reinhard et al.'s global photographic operator, applied to luminance with
///   colour ratios kept; the white point defaults to the image's brightest 0.1 %.
///
/// The exposure of the Reinhard operator (and the centre of explicit fusion stops) is either given in EV or chosen so
/// that the log-average luminance lands at 0.18 (Reinhard's key).
///
/// ```swift
/// let display = try HDRToneMapper().map(hdr)     // RGBA8 sRGB
/// ```
public struct HDRToneMapper: Sendable {
    /// How radiance maps to display values.
    public enum Operator: Hashable, Sendable, Codable {
        /// Exposure fusion of renderings at these EV offsets from the exposure (local); `nil` spans the image's range.
        case exposureFusion(stops: [Double]? = nil)
        /// Reinhard's extended operator, `L·(1 + L/w²)/(1 + L)` on exposure-scaled luminance (global); `nil` puts
        /// the white point at the brightest 0.1 %.
        case reinhard(whitePoint: Double? = nil)
    }

    /// What the mapper does.
    public struct Settings: Hashable, Sendable, Codable {
        /// The operator.
        public var method: Operator
        /// Exposure in EV applied to the radiance first (`nil`: log-average luminance to 0.18).
        public var exposure: Double?
        /// The output pixel format (``PixelFormat/rgba8``, ``PixelFormat/rgba16``, ``PixelFormat/rgbaHalf`` or
        /// ``PixelFormat/rgbaFloat``).
        public var outputFormat: PixelFormat
        /// Worker threads (`nil`: one per core).
        public var threads: Int?

        /// Creates settings.
        public init(
            method: Operator = .exposureFusion(), exposure: Double? = nil,
            outputFormat: PixelFormat = .rgba8, threads: Int? = nil
        ) {
            self.method = method
            self.exposure = exposure
            self.outputFormat = outputFormat
            self.threads = threads
        }
    }

    /// The settings.
    public var settings: Settings

    /// Creates a tone mapper.
    public init(settings: Settings = Settings()) {
        self.settings = settings
    }

    /// Maps linear radiance (``PixelFormat/rgbaFloat`` or ``PixelFormat/rgbaHalf``, in its colour space's primaries —
    /// extended linear sRGB when it has none) to a display image.
    ///
    /// - Parameter colorSpace: The display space (its transfer function encodes the output).
    /// - Throws: ``FusionError`` for other formats or out-of-range settings.
    public func map(_ hdr: PixelBuffer, to colorSpace: ColorSpace = .sRGB) throws(FusionError) -> PixelBuffer {
        switch try mapping(hdr, to: colorSpace) {
        case .mapped(let buffer):
            return buffer
        case .fusion(let blender):
            let fused = PixelBuffer(
                width: hdr.width, height: hdr.height, format: settings.outputFormat, colorSpace: colorSpace)
            blender.run(into: fused)
            return fused
        }
    }

    /// Maps like ``map(_:to:)-(PixelBuffer,_)``, but hands the display image to `body` a band of rows at a time, top
    /// to bottom: with the exposure-fusion operator the bands are blended as they are handed over, so an encoder can
    /// write them and no display image is held.
    ///
    /// - Parameter body: Receives each band (up to 256 rows of the full width, in ``Settings/outputFormat``, tagged
    ///   with `colorSpace`) and the index of its first row. The band's memory may be reused for the next band:
    ///   consume or copy it before returning.
    /// - Throws: ``FusionError`` as ``map(_:to:)-(PixelBuffer,_)`` does (before `body` is called), or what `body`
    ///   throws (which ends the mapping).
    public func map(
        _ hdr: PixelBuffer, to colorSpace: ColorSpace = .sRGB,
        bands body: (_ band: PixelBuffer, _ firstRow: Int) throws -> Void
    ) throws {
        switch try mapping(hdr, to: colorSpace) {
        case .mapped(let buffer):
            for y in stride(from: 0, to: buffer.height, by: 256) {
                try body(try buffer.view(x: 0, y: y, width: buffer.width, height: min(256, buffer.height - y)), y)
            }
        case .fusion(let blender):
            try blender.run(format: settings.outputFormat) { band, y in
                var band = band
                band.colorSpace = colorSpace
                try body(band, y)
            }
        }
    }

    /// A mapped image, or the blend that makes it.
    enum Mapping {
        case mapped(PixelBuffer)
        case fusion(MertensBlender)
    }

    /// Checks the input and settings, measures the image and maps it (global operators) or prepares the blend of
    /// its exposure renderings.
    func mapping(_ hdr: PixelBuffer, to colorSpace: ColorSpace) throws(FusionError) -> Mapping {
        guard hdr.format == .rgbaFloat || hdr.format == .rgbaHalf else {
            throw .unsupportedFormat(hdr.format, operation: "tone mapping", allowed: "linear RGBAf or RGBAh")
        }
        try validate()
        let source = (hdr.colorSpace ?? .extendedLinearSRGB).linearized().withExtendedRange(true)
        guard source.matrixToXYZ != nil else {
            throw .invalidParameter(name: "colorSpace", value: "\(source)", allowed: "an RGB colour space")
        }
        let luma = Self.luma(of: source)
        let threads = max(1, settings.threads ?? Parallel.defaultThreadCount)
        var input = hdr
        input.colorSpace = source
        let stats = Self.luminanceStatistics(input, luma: luma)
        let scale: Float
        if let ev = settings.exposure {
            scale = Float(Double.exp2(ev))
        } else {
            scale = 0.18 / stats.logAverage
        }
        switch settings.method {
        case .reinhard(let white):
            let w = white.map(Float.init) ?? max(stats.brightest * scale, 1e-3)
            if input.format != .rgbaFloat { input = input.converted(to: .rgbaFloat, threads: threads) }
            let mapped = Self.reinhard(input, scale: scale, white: w, luma: luma, threads: threads)
            return .mapped(try Self.encode(mapped, to: colorSpace, format: settings.outputFormat, threads: threads))
        case .exposureFusion(let stops):
            var gains: [Float]
            if let stops {
                gains = stops.map { scale * Float(Double.exp2($0)) }
            } else {
                // From keeping the brightest 0.1 % below clipping to lifting the lower quartile to mid-grey.
                let low = 0.9 / max(stats.brightest, 1e-6)
                let high = max(0.18 / max(stats.lowerQuartile, 1e-6), low)
                let span = Double.log2(Double(high / low))
                let n = max(2, Int((span / 2).rounded(.up)) + 1)
                gains = (0..<n).map { i in low * Float(Double.exp2(span * Double(i) / Double(n - 1))) }
            }
            // Each rendering is made row by row as the blender reads it, never stored.
            guard hdr.width >= FusionInput.minimumSide, hdr.height >= FusionInput.minimumSide else {
                throw .imageTooSmall(width: hdr.width, height: hdr.height, minimum: FusionInput.minimumSide)
            }
            let display: ColorConverter
            do { display = try ColorConverter(from: source, to: colorSpace) } catch {
                throw .pixels(.colorSpace(error.description))
            }
            let readers = gains.map { DisplayRowReader(radiance: input, gain: $0, display: display) }
            var fusion = ExposureFusion.Settings()
            fusion.threads = threads
            return .fusion(MertensBlender(readers: readers, settings: fusion))
        }
    }

    /// The luminance (Y) weights of an RGB space's linear values (zero for other spaces).
    static func luma(of space: ColorSpace) -> SIMD3<Float> {
        guard let m = space.matrixToXYZ else { return .zero }
        return SIMD3(Float(m[1, 0]), Float(m[1, 1]), Float(m[1, 2]))
    }

    /// Throws for settings out of range (checked before any pixel is read).
    func validate() throws(FusionError) {
        guard [.rgba8, .rgba16, .rgbaHalf, .rgbaFloat].contains(settings.outputFormat) else {
            throw .invalidParameter(
                name: "outputFormat", value: "\(settings.outputFormat)", allowed: "RGBA8, RGBA16, RGBAh or RGBAf")
        }
        if let ev = settings.exposure, !(ev.isFinite && abs(ev) <= 30) {
            throw .invalidParameter(name: "exposure", value: "\(ev)", allowed: "−30…30 EV")
        }
        switch settings.method {
        case .reinhard(let white?) where !(white.isFinite && white > 0):
            throw .invalidParameter(name: "whitePoint", value: "\(white)", allowed: "> 0")
        case .exposureFusion(let stops?) where stops.isEmpty || !stops.allSatisfy({ $0.isFinite && abs($0) <= 16 }):
            throw .invalidParameter(name: "stops", value: "\(stops)", allowed: "1 or more EV offsets in −16…16")
        default: break
        }
    }

    /// Luminance statistics from a sample of rows: the log-average exp(mean(log(10⁻⁴ + Y))), the 25th and 99.9th
    /// percentiles.
    static func luminanceStatistics(_ image: PixelBuffer, luma: SIMD3<Float>)
        -> (logAverage: Float, lowerQuartile: Float, brightest: Float)
    {
        var values: [Float] = []
        let step = max(1, image.height / 256)
        let half = image.format == .rgbaHalf
        let row = UnsafeMutablePointer<Float>.allocate(capacity: half ? 4 * image.width : 0)
        defer { row.deallocate() }
        image.withUnsafePlane { plane in
            for y in stride(from: 0, to: image.height, by: step) {
                let p: UnsafePointer<Float>
                if half {
                    lux_half_to_float(plane.row(y, as: UInt16.self), row, 4 * image.width)
                    p = UnsafePointer(row)
                } else {
                    p = UnsafePointer(plane.row(y, as: Float.self))
                }
                for x in 0..<image.width {
                    values.append(max(luma.x * p[4 * x] + luma.y * p[4 * x + 1] + luma.z * p[4 * x + 2], 0))
                }
            }
        }
        guard !values.isEmpty else { return (1, 1, 1) }
        var logSum = 0.0
        for v in values { logSum += Double(fastLog2(1e-4 + v)) }
        let logAverage = max(Float(Double.exp2(logSum / Double(values.count))), 1e-6)
        let q = values.count / 4
        let top = min(values.count - 1, values.count * 999 / 1000)
        values.withUnsafeMutableBufferPointer { NoiseEstimate.select($0, top) }
        let brightest = values[top]
        values.withUnsafeMutableBufferPointer { NoiseEstimate.select($0, q) }
        return (logAverage, values[q], brightest)
    }

    /// Reinhard's extended operator on luminance, colour ratios kept, clipped to 0…1.
    static func reinhard(_ image: PixelBuffer, scale: Float, white: Float, luma: SIMD3<Float>, threads: Int)
        -> PixelBuffer
    {
        var out = PixelBuffer(
            width: image.width, height: image.height, format: .rgbaFloat, colorSpace: image.colorSpace)
        let dst = out.unsafeSharedMutablePlane(0)
        let iw2 = 1 / (white * white)
        image.withUnsafePlane { src in
            Parallel.forEachBand(image.height, threads: threads) { rows in
                for y in rows {
                    let s = src.row(y, as: Float.self)
                    let d = dst.row(y, as: Float.self)
                    for x in 0..<image.width {
                        let r = max(s[4 * x], 0) * scale
                        let g = max(s[4 * x + 1], 0) * scale
                        let b = max(s[4 * x + 2], 0) * scale
                        let l = luma.x * r + luma.y * g + luma.z * b
                        let k = l > 0 ? (1 + l * iw2) / (1 + l) : 1
                        d[4 * x] = min(r * k, 1)
                        d[4 * x + 1] = min(g * k, 1)
                        d[4 * x + 2] = min(b * k, 1)
                        d[4 * x + 3] = 1
                    }
                }
            }
        }
        out.colorSpace = image.colorSpace
        return out
    }

    /// Linear 0…1 values in the image's space → `space`'s encoding, in `format`.
    static func encode(_ image: PixelBuffer, to space: ColorSpace, format: PixelFormat, threads: Int)
        throws(FusionError) -> PixelBuffer
    {
        do {
            let matched = try image.matchingColors(to: space, threads: threads)
            return matched.format == format ? matched : matched.converted(to: format, threads: threads)
        } catch {
            throw .pixels(error)
        }
    }
}
