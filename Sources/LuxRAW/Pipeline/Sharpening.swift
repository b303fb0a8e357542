import CLuxKernels
public import LuxRender
import RealModule

/// Stage 7d: luminance unsharp mask.
///
/// `Y′ = Y + amount · shrink(Y − G_σ ∗ Y)`, where `shrink` subtracts a small threshold (0.4 % of white) so
/// noise is not sharpened, and the pixel's colour is scaled by `Y′/Y` — sharpening touches lightness only,
/// so edges get no coloured halos (ALGORITHMS.md §8.5). Runs last, on display-referred values.
public struct Sharpening: Hashable, Sendable {
    /// The unsharp-mask amount, 0…2 (0 disables).
    public var amount: Float
    /// The Gaussian's standard deviation in pixels, 0.3…5.
    public var radius: Float

    /// Creates the stage.
    public init(amount: Float, radius: Float = 1) {
        self.amount = amount
        self.radius = radius
    }

    /// Applies the unsharp mask (the image itself when ``amount`` is 0).
    public func apply(to image: Image) -> Image {
        guard amount > 0 else { return image }
        let sigma = min(max(radius, 0.3), 5)
        let r = Int((3 * sigma).rounded(.up))
        var weights = (0...r).map { t in Float.exp(-Float(t * t) / (2 * sigma * sigma)) }
        let sum = weights[0] + 2 * weights[1...].reduce(0, +)
        weights = weights.map { $0 / sum }
        let amount = min(amount, 2)
        let threshold: Float = 0.004
        let (kr, kg, kb) = ColorAdjustments.luma
        let d = Double(r)
        let taps = weights
        let processor = ImageProcessor(
            description: "lumaSharpen", argumentDigest: "amount=\(amount) sigma=\(sigma)", inputFormat: .rgbaFloat,
            inputLayout: .planarRows, outputFormat: .rgbaFloat, outputLayout: .planarRows,
            roi: { _, rect in rect.insetBy(dx: -d, dy: -d) },
            process: { inputs, output in
                let input = inputs[0]
                let w = input.width
                let h = input.height
                let ow = output.width
                let oh = output.height
                let ox = Int(output.region.minX - input.region.minX)
                let oy = Int(output.region.minY - input.region.minY)
                // The luminance, the horizontal pass and one blurred row: with the planar input and output rows, every
                // loop below is contiguous and vectorises.
                let count = w * h + ow * h + ow
                let luma = output.scratch(byteCount: 4 * count).assumingMemoryBound(to: Float.self)
                let horizontal = luma + w * h
                let blurred = horizontal + ow * h
                for j in 0..<h {
                    let p = input.planes(j)
                    Self.luma(p.red, p.green, p.blue, weights: (kr, kg, kb), count: w, into: luma + j * w)
                }
                taps.withUnsafeBufferPointer { t in
                    // Horizontal pass over all rows of the output's columns, then per output row the vertical
                    // pass and the mask (C row kernels, 8 lanes wide with AVX2).
                    for j in 0..<h {
                        let l = luma + j * w + ox
                        Self.blurRow(l, step: 1, taps: t, radius: r, count: ow, into: horizontal + j * ow)
                    }
                    for j in 0..<oh {
                        let p = input.planes(j + oy)
                        let o = output.planes(j)
                        Self.blurRow(horizontal + (j + oy) * ow, step: ow, taps: t, radius: r, count: ow, into: blurred)
                        Self.mask(
                            p.red + ox, p.green + ox, p.blue + ox, luma: luma + (j + oy) * w + ox, blurred: blurred,
                            amount: amount, threshold: threshold, count: ow, red: o.red, green: o.green, blue: o.blue)
                        o.alpha.update(repeating: 1, count: ow)
                    }
                }
            }
        )
        return processor.apply(to: [image.clampedToExtent()], extent: image.extent, isOpaque: true)
    }

    /// `o[i] = Σₖ t[|k|] · c[i + k·step]` for `|k| ≤ radius`.
    @inline(never)
    static func blurRow(
        _ c: UnsafePointer<Float>, step: Int, taps t: UnsafeBufferPointer<Float>, radius r: Int, count n: Int,
        into o: UnsafeMutablePointer<Float>
    ) {
        lux_sharpen_blur(c, step, t.baseAddress!, Int32(r), o, n)
    }

    /// `l[i] = wr·r[i] + wg·g[i] + wb·b[i]`.
    @inline(never)
    static func luma(
        _ r: UnsafePointer<Float>, _ g: UnsafePointer<Float>, _ b: UnsafePointer<Float>,
        weights: (Float, Float, Float), count n: Int, into l: UnsafeMutablePointer<Float>
    ) {
        lux_sharpen_luma(r, g, b, weights.0, weights.1, weights.2, l, n)
    }

    /// The unsharp mask on one row: the luminance detail shrunk by the threshold, scaled by `amount`, applied
    /// as a ratio to RGB.
    @inline(never)
    static func mask(
        _ r: UnsafePointer<Float>, _ g: UnsafePointer<Float>, _ b: UnsafePointer<Float>, luma l: UnsafePointer<Float>,
        blurred: UnsafePointer<Float>, amount: Float, threshold: Float, count n: Int,
        red: UnsafeMutablePointer<Float>, green: UnsafeMutablePointer<Float>, blue: UnsafeMutablePointer<Float>
    ) {
        lux_sharpen_mask(r, g, b, l, blurred, amount, threshold, red, green, blue, n)
    }
}
