import CLuxKernels
import LuxCodecs
import LuxPixels
public import LuxRender

/// Stage 5: edge-preserving noise reduction of luminance and colour, guided by the sensor's noise model.
///
/// Works on white-balanced camera RGB split into luminance `Y = (R + 2G + B)/4` and colour differences
/// `R − G`, `B − G`. Each is decomposed with the à-trous B3 wavelet and every detail band soft-thresholded at
/// a multiple of the noise expected in that band: the noise σ of a pixel comes from the DNG noise model
/// `σ² = S·x + O` (propagated through the white-balance gains), evaluated at the locally smoothed
/// luminance, so shadows and highlights get what their noise needs. Edges, whose coefficients are far above
/// the noise, pass. Colour uses more (coarser) scales than luminance: chroma noise is blotchy.
///
/// Colour is processed as a two-level pyramid: the finest detail band is soft-thresholded at full resolution,
/// the coarser scales on a 2×2-averaged half-resolution copy whose correction is upsampled bilinearly — a
/// quarter of the work for the scales where chroma noise lives.
///
/// Cost grows with the amounts: 0 skips a channel entirely; luminance uses 1–3 scales, colour 2–5.
///
/// Three more controls shape the luminance result (their defaults leave it as described): ``detail`` scales the
/// finest scale's threshold by `2·(1 − detail)`; ``sharpness`` multiplies the finest detail kept by `1 + sharpness`,
/// and ``contrast`` the coarser scales' detail by `1 + contrast/2` (using at least one, and for contrast two,
/// luminance scales even when the luminance amount is 0).
public struct NoiseReduction: Hashable, Sendable {
    /// Luminance amount, 0…1.
    public var luminanceAmount: Float
    /// Colour amount, 0…1.
    public var colorAmount: Float
    /// The noise variance model `(S, O)` of the normalised sensor signal.
    public var noiseModel: SIMD2<Float>
    /// The white-balance gains the mosaic was multiplied by (red, green, blue).
    public var gains: SIMD3<Float>
    /// How much fine luminance detail is kept, 0…1 (default 0.5).
    public var detail: Float
    /// Amplification of the finest luminance detail kept, 0…1 (default 0).
    public var sharpness: Float
    /// Amplification of the coarser luminance detail (local contrast), 0…1 (default 0).
    public var contrast: Float
    /// Highlight fringes faded in the input first (`nil`: none): the result of ``HighlightDefringe/apply(to:)`` before
    /// this stage, in one pass over each tile fewer.
    public var defringe: HighlightDefringe?

    /// Creates the stage.
    public init(
        luminanceAmount: Float, colorAmount: Float, noiseModel: SIMD2<Float>, gains: SIMD3<Float>, detail: Float = 0.5,
        sharpness: Float = 0, contrast: Float = 0, defringe: HighlightDefringe? = nil
    ) {
        self.luminanceAmount = luminanceAmount
        self.colorAmount = colorAmount
        self.noiseModel = noiseModel
        self.gains = gains
        self.detail = detail
        self.sharpness = sharpness
        self.contrast = contrast
        self.defringe = defringe
    }

    /// Luminance scales for the amount (0 when off), at least one with sharpness and two with contrast.
    var luminanceScales: Int {
        let byAmount = luminanceAmount <= 0 ? 0 : 1 + Int(min(luminanceAmount, 1) * 2.999)
        return max(byAmount, contrast > 0 ? 2 : (sharpness > 0 ? 1 : 0))
    }
    /// Colour scales for the amount (0 when off), counted at full resolution: the finest is thresholded at
    /// full resolution, the others run on a half-resolution copy.
    var colorScales: Int { colorAmount <= 0 ? 0 : 2 + Int(min(colorAmount, 1) * 3.999) }

    /// The support the filter needs around an output pixel (even, so the half-resolution grid stays aligned).
    var margin: Int {
        let luma = luminanceScales == 0 ? 0 : 2 * ((1 << luminanceScales) - 1)
        let color = colorScales == 0 ? 0 : 4 * ((1 << (colorScales - 1)) - 1) + 2
        let m = max(luma, color)
        return (m + 1) & ~1
    }

    /// The default amounts for a noise model: luminance grows with the relative noise at mid-grey
    /// (`σ(0.18)/0.18`, full at 8 %), colour starts at 0.1 and is full at 2.7 %.
    public static func defaultAmounts(noiseModel: SIMD2<Double>) -> (luminance: Double, color: Double) {
        let sigma = max(noiseModel.x * 0.18 + noiseModel.y, 0).squareRoot()
        let relative = sigma / 0.18
        let luminance = min(1, relative / 0.08)
        let color = min(1, 0.1 + relative / 0.03)
        return ((luminance * 100).rounded() / 100, (color * 100).rounded() / 100)
    }

    /// Applies the filter (the image itself, or only ``defringe``'s, when both amounts are 0).
    public func apply(to image: Image) -> Image {
        let ls = luminanceScales
        let cs = colorScales
        guard ls > 0 || cs > 0 else { return defringe?.apply(to: image) ?? image }
        let m = Double(margin)
        let defringe = defringe
        let fringe = defringe?.radius ?? 0
        let extent = image.extent
        let g = gains
        // Variances of Y and of a colour difference at grey level Y (independent channel noise).
        let s = noiseModel.x
        let o = noiseModel.y
        let yVar = SIMD2(s * (g.x + 4 * g.y + g.z) / 16, o * (g.x * g.x + 4 * g.y * g.y + g.z * g.z) / 16)
        let cVar = SIMD2(s * (g.x + g.y + g.z) / 1.5, o * (g.x * g.x + g.y * g.y + g.z * g.z) / 1.5)
        let lStrength = 3 * min(max(luminanceAmount, 0), 1)
        let finest = 2 * (1 - min(max(detail, 0), 1))
        let bandGains = (1 + min(max(sharpness, 0), 1), 1 + 0.5 * min(max(contrast, 0), 1))
        let cStrength = 5 * min(colorAmount, 1)
        let processor = ImageProcessor(
            description: "rawNoiseReduction",
            argumentDigest:
                "v2 luma=\(luminanceAmount) color=\(colorAmount) noise=\(noiseModel) gains=\(gains) detail=\(detail) "
                + "sharpness=\(sharpness) contrast=\(contrast)"
                + (defringe.map { " defringe=\($0.radius) \($0.gains) \($0.fadeStart)…\($0.fadeEnd)" } ?? ""),
            inputFormat: .rgbaFloat, inputLayout: .planarRows, outputFormat: .rgbaFloat, outputLayout: .planarRows,
            roi: { _, r in
                // Grown by the margin and aligned to even image coordinates (the half-resolution grid).
                let g = r.insetBy(dx: -m, dy: -m)
                let x0: Double = 2 * (g.minX / 2).rounded(.down)
                let y0: Double = 2 * (g.minY / 2).rounded(.down)
                let x1: Double = 2 * (g.maxX / 2).rounded(.up)
                let y1: Double = 2 * (g.maxY / 2).rounded(.up)
                // And by the defringe's radius, fused in.
                return Rect(minX: x0, minY: y0, maxX: x1, maxY: y1).insetBy(dx: -Double(fringe), dy: -Double(fringe))
            },
            process: { inputs, output in
                let input = inputs[0]
                // The planes: the input less the fused defringe's radius on every side.
                let w = input.width - 2 * fringe
                let h = input.height - 2 * fringe
                let n = w * h
                let hw = w / 2
                let hh = h / 2
                let hn = hw * hh
                let count = 7 * n + 8 * hn + 8 * w + 64
                let defringeCount =
                    defringe == nil ? 0 : HighlightDefringe.splitScratchCount(width: input.width, height: input.height)
                let base = output.scratch(byteCount: 4 * (count + defringeCount)).assumingMemoryBound(to: Float.self)
                let y = base
                let cr = base + n
                let cb = base + 2 * n
                let work = base + 3 * n  // 4n: luma σ, first smoothing, 2n scratch
                let half = base + 7 * n  // 8hn
                let rows = half + 8 * hn  // 8w
                if let defringe {
                    defringe.split(input, extent: extent, y: y, cr: cr, cb: cb, scratch: base + count)
                } else {
                    NRPlanes.split(input, y: y, cr: cr, cb: cb)
                }
                if ls == 1 {
                    // One scale (the usual low-ISO default): smoothing, threshold and reconstruction in one pass.
                    let first = work + n
                    Wavelet.smooth(y, into: first, width: w, height: h, step: 1, tmp: work + 2 * n)
                    NRPlanes.shrinkFinest(
                        y, coarse: first, variance: yVar, factor: lStrength * Wavelet.scaleNoise[0] * finest,
                        gain: bandGains.0, count: n)
                } else if ls > 1 {
                    let sigma = work
                    let first = work + n
                    Wavelet.smooth(y, into: first, width: w, height: h, step: 1, tmp: work + 2 * n)
                    NRPlanes.sigma(first, into: sigma, variance: yVar, scale: 1, count: n)
                    Wavelet.denoise(
                        y, width: w, height: h, scales: ls, strength: lStrength, sigma: sigma, scratch: work + 2 * n,
                        firstSmooth: first, finestFactor: finest, gains: bandGains)
                }
                let ox = Int(output.region.minX - input.region.minX) - fringe
                let oy = Int(output.region.minY - input.region.minY) - fringe
                if cs > 0 && hw > 0 && hh > 0 {
                    let crh = half
                    let cbh = half + hn
                    let sh = half + 2 * hn
                    let crh0 = half + 3 * hn
                    let cbh0 = half + 4 * hn
                    let scratch = half + 5 * hn
                    NRPlanes.downsample(cr, into: crh, width: w, height: h)
                    NRPlanes.downsample(cb, into: cbh, width: w, height: h)
                    NRPlanes.downsample(y, into: sh, width: w, height: h)
                    // σ of a 2×2 mean is half the pixel σ.
                    NRPlanes.sigma(sh, into: sh, variance: cVar, scale: 0.5, count: hn)
                    crh0.update(from: crh, count: hn)
                    cbh0.update(from: cbh, count: hn)
                    for plane in [crh, cbh] {
                        Wavelet.denoise(
                            plane, width: hw, height: hh, scales: cs - 1, strength: cStrength, sigma: sh,
                            scratch: scratch)
                    }
                    NRPlanes.subtract(crh0, from: crh, count: hn)
                    NRPlanes.subtract(cbh0, from: cbh, count: hn)
                    // Full resolution: the coarse correction upsampled, the finest band thresholded, output rows only.
                    let t0 = 2 * cStrength * Wavelet.scaleNoise[0]  // 2×: back from the half-resolution σ
                    for j in oy..<(oy + output.height) {
                        let sigmaRow = rows
                        let up = rows + w
                        let upOrig = rows + 2 * w
                        let vrow = rows + 3 * w
                        NRPlanes.upsampleRow(sh, width: hw, height: hh, row: j, scratch: vrow, into: sigmaRow)
                        for k in 0..<2 {
                            let (full, corr, orig) = k == 0 ? (cr, crh, crh0) : (cb, cbh, cbh0)
                            NRPlanes.upsampleRow(corr, width: hw, height: hh, row: j, scratch: vrow, into: up)
                            NRPlanes.upsampleRow(orig, width: hw, height: hh, row: j, scratch: vrow, into: upOrig)
                            NRPlanes.correct(
                                full + j * w + ox, coarse: upOrig + ox, correction: up + ox, sigma: sigmaRow + ox,
                                factor: t0, count: output.width)
                        }
                    }
                }
                for j in 0..<output.height {
                    let o = (j + oy) * w + ox
                    let ow = output.width
                    let planes = output.planes(j)
                    NRPlanes.merge(
                        y + o, cr + o, cb + o, count: ow, red: planes.red, green: planes.green, blue: planes.blue)
                    planes.alpha.update(repeating: 1, count: ow)
                }
            }
        )
        return processor.apply(to: [image.clampedToExtent()], extent: image.extent, isOpaque: true)
    }
}

/// Plane helpers of ``NoiseReduction``: whole-row pointer loops, the arithmetic ones in C (`lux_nr_*`, 8 lanes wide
/// with AVX2 when the CPU has it, bit-identical on every width).
enum NRPlanes {
    /// Planar-rows RGBA → `Y = (R + 2G + B)/4`, `R − G`, `B − G`, a row at a time.
    static func split(
        _ input: ImageProcessorInput, y: UnsafeMutablePointer<Float>, cr: UnsafeMutablePointer<Float>,
        cb: UnsafeMutablePointer<Float>
    ) {
        let w = input.width
        for j in 0..<input.height {
            let p = input.planes(j)
            splitRow(p.red, p.green, p.blue, y + j * w, cr + j * w, cb + j * w, w)
        }
    }

    @inline(never)
    static func splitRow(
        _ r: UnsafePointer<Float>, _ g: UnsafePointer<Float>, _ b: UnsafePointer<Float>,
        _ y: UnsafeMutablePointer<Float>,
        _ cr: UnsafeMutablePointer<Float>, _ cb: UnsafeMutablePointer<Float>, _ n: Int
    ) {
        lux_nr_split(r, g, b, y, cr, cb, n)
    }

    /// `Y, R − G, B − G` → red, green and blue planes.
    @inline(never)
    static func merge(
        _ y: UnsafePointer<Float>, _ cr: UnsafePointer<Float>, _ cb: UnsafePointer<Float>, count n: Int,
        red: UnsafeMutablePointer<Float>, green: UnsafeMutablePointer<Float>, blue: UnsafeMutablePointer<Float>
    ) {
        lux_nr_merge(y, cr, cb, red, green, blue, n)
    }

    /// `σ = scale · √max(v.x · signal + v.y, v.y, 0)`; `out` may be `signal`. (The `max(…, 0)` changes nothing
    /// for a valid model, `v.y ≥ 0`; it stays so the result is what it was when it let Swift's loop vectorise.)
    @inline(never)
    static func sigma(
        _ signal: UnsafePointer<Float>, into out: UnsafeMutablePointer<Float>, variance v: SIMD2<Float>, scale: Float,
        count n: Int
    ) {
        lux_nr_noise_sigma(signal, out, v.x, v.y, scale, n)
    }

    /// One-scale denoising in place: `p = coarse + gain · shrink(p − coarse, factor·σ(coarse))`, with
    /// `σ² = v.x · coarse + v.y` (at least `v.y`).
    @inline(never)
    static func shrinkFinest(
        _ p: UnsafeMutablePointer<Float>, coarse: UnsafePointer<Float>, variance v: SIMD2<Float>, factor f: Float,
        gain: Float = 1, count n: Int
    ) {
        lux_nr_shrink_finest(p, coarse, v.x, v.y, f, gain, n)
    }

    /// 2×2 box mean of a `w × h` plane (both even) into a `w/2 × h/2` plane.
    @inline(never)
    static func downsample(_ s: UnsafePointer<Float>, into d: UnsafeMutablePointer<Float>, width w: Int, height h: Int)
    {
        lux_nr_downsample(s, d, w, h)
    }

    /// `a −= b`.
    @inline(never)
    static func subtract(_ b: UnsafePointer<Float>, from a: UnsafeMutablePointer<Float>, count n: Int) {
        lux_nr_subtract(a, b, n)
    }

    /// Full-resolution row `row` of the bilinear 2× upsampling of a `hw × hh` plane (half-pixel centres:
    /// weights ¾ and ¼, edges clamped); `v` is `hw` values of scratch.
    @inline(never)
    static func upsampleRow(
        _ p: UnsafePointer<Float>, width hw: Int, height hh: Int, row: Int, scratch v: UnsafeMutablePointer<Float>,
        into d: UnsafeMutablePointer<Float>
    ) {
        let k0 = min(row >> 1, hh - 1)
        let kn = min(max((row & 1) == 0 ? k0 - 1 : k0 + 1, 0), hh - 1)
        lux_nr_upsample_row(p + k0 * hw, p + kn * hw, v, d, hw)
    }

    /// `c += correction − (fine − shrink(fine, factor·σ))` with `fine = c − coarse`: the half-resolution
    /// result plus the soft-thresholded finest band.
    @inline(never)
    static func correct(
        _ c: UnsafeMutablePointer<Float>, coarse: UnsafePointer<Float>, correction: UnsafePointer<Float>,
        sigma: UnsafePointer<Float>, factor f: Float, count n: Int
    ) {
        lux_nr_correct(c, coarse, correction, sigma, f, n)
    }
}
