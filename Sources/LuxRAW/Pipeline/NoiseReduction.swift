import LuxCodecs
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
/// Cost grows with the amounts: 0 skips a channel entirely; luminance uses 1–3 scales, colour 2–5.
public struct NoiseReduction: Hashable, Sendable {
    /// Luminance amount, 0…1.
    public var luminanceAmount: Float
    /// Colour amount, 0…1.
    public var colorAmount: Float
    /// The noise variance model `(S, O)` of the normalised sensor signal.
    public var noiseModel: SIMD2<Float>
    /// The white-balance gains the mosaic was multiplied by (red, green, blue).
    public var gains: SIMD3<Float>

    /// Creates the stage.
    public init(luminanceAmount: Float, colorAmount: Float, noiseModel: SIMD2<Float>, gains: SIMD3<Float>) {
        self.luminanceAmount = luminanceAmount
        self.colorAmount = colorAmount
        self.noiseModel = noiseModel
        self.gains = gains
    }

    /// Luminance scales for the amount (0 when off).
    var luminanceScales: Int { luminanceAmount <= 0 ? 0 : 1 + Int(min(luminanceAmount, 1) * 2.999) }
    /// Colour scales for the amount (0 when off).
    var colorScales: Int { colorAmount <= 0 ? 0 : 2 + Int(min(colorAmount, 1) * 3.999) }

    /// The support the filter needs around an output pixel.
    var margin: Int {
        let s = max(luminanceScales, colorScales)
        return s == 0 ? 0 : 2 * ((1 << s) - 1)
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

    /// Applies the filter (the image itself when both amounts are 0).
    public func apply(to image: Image) -> Image {
        let ls = luminanceScales
        let cs = colorScales
        guard ls > 0 || cs > 0 else { return image }
        let m = margin
        let g = gains
        // Variances of Y and of a colour difference at grey level Y (independent channel noise).
        let s = noiseModel.x
        let o = noiseModel.y
        let yVar = SIMD2(s * (g.x + 4 * g.y + g.z) / 16, o * (g.x * g.x + 4 * g.y * g.y + g.z * g.z) / 16)
        let cVar = SIMD2(s * (g.x + g.y + g.z) / 1.5, o * (g.x * g.x + g.y * g.y + g.z * g.z) / 1.5)
        let lStrength = 3 * min(luminanceAmount, 1)
        let cStrength = 5 * min(colorAmount, 1)
        let d = Double(m)
        let processor = ImageProcessor(
            description: "rawNoiseReduction",
            argumentDigest: "luma=\(luminanceAmount) color=\(colorAmount) noise=\(noiseModel) gains=\(gains)",
            inputFormat: .rgbaFloat, outputFormat: .rgbaFloat, roi: { _, r in r.insetBy(dx: -d, dy: -d) }
        ) { inputs, output in
            let input = inputs[0]
            let w = input.width
            let h = input.height
            let n = w * h
            let planes = output.scratch(byteCount: 4 * 8 * n).assumingMemoryBound(to: Float.self)
            let y = planes
            let cr = planes + n
            let cb = planes + 2 * n
            let signal = planes + 3 * n
            let scratch = planes + 4 * n
            for j in 0..<h {
                let s = input.row(j, as: Float.self)
                let o = j * w
                for i in 0..<w {
                    let r = s[4 * i]
                    let gg = s[4 * i + 1]
                    let b = s[4 * i + 2]
                    y[o + i] = 0.25 * (r + 2 * gg + b)
                    cr[o + i] = r - gg
                    cb[o + i] = b - gg
                }
            }
            Wavelet.smooth(y, into: signal, width: w, height: h, step: 1, tmp: scratch)
            if ls > 0 {
                Wavelet.denoise(
                    y, width: w, height: h, scales: ls, strength: lStrength, variance: yVar, signal: signal,
                    scratch: scratch)
            }
            if cs > 0 {
                for plane in [cr, cb] {
                    Wavelet.denoise(
                        plane, width: w, height: h, scales: cs, strength: cStrength, variance: cVar, signal: signal,
                        scratch: scratch)
                }
            }
            let ox = Int(output.region.minX - input.region.minX)
            let oy = Int(output.region.minY - input.region.minY)
            for j in 0..<output.height {
                let dst = output.row(j, as: Float.self)
                let o = (j + oy) * w + ox
                for i in 0..<output.width {
                    let gg = y[o + i] - 0.25 * (cr[o + i] + cb[o + i])
                    dst[4 * i] = cr[o + i] + gg
                    dst[4 * i + 1] = gg
                    dst[4 * i + 2] = cb[o + i] + gg
                    dst[4 * i + 3] = 1
                }
            }
        }
        return processor.apply(to: [image.clampedToExtent()], extent: image.extent).settingAlphaOne()
    }
}
