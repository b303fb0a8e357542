import RealModule
public import LuxRender

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
            outputFormat: .rgbaFloat, roi: { _, rect in rect.insetBy(dx: -d, dy: -d) }
        ) { inputs, output in
            let input = inputs[0]
            let w = input.width
            let h = input.height
            let ow = output.width
            let oh = output.height
            let ox = Int(output.region.minX - input.region.minX)
            let oy = Int(output.region.minY - input.region.minY)
            let luma = output.scratch(byteCount: 4 * (w * h + ow * h + ow)).assumingMemoryBound(to: Float.self)
            let horizontal = luma + w * h
            let blurred = horizontal + ow * h
            for j in 0..<h {
                let s = input.row(j, as: Float.self)
                let l = luma + j * w
                for i in 0..<w { l[i] = kr * s[4 * i] + kg * s[4 * i + 1] + kb * s[4 * i + 2] }
            }
            taps.withUnsafeBufferPointer { t in
                for j in 0..<h {
                    let l = luma + j * w + ox
                    let o = horizontal + j * ow
                    for i in 0..<ow {
                        var acc = t[0] * l[i]
                        for k in 1...r { acc += t[k] * (l[i - k] + l[i + k]) }
                        o[i] = acc
                    }
                }
                for j in 0..<oh {
                    let c = horizontal + (j + oy) * ow
                    for i in 0..<ow {
                        var acc = t[0] * c[i]
                        for k in 1...r { acc += t[k] * (c[i - k * ow] + c[i + k * ow]) }
                        blurred[i] = acc
                    }
                    let s = input.row(j + oy, as: Float.self) + 4 * ox
                    let l = luma + (j + oy) * w + ox
                    let dst = output.row(j, as: Float.self)
                    for i in 0..<ow {
                        let y = l[i]
                        let detail = y - blurred[i]
                        let shrunk = detail - min(max(detail, -threshold), threshold)
                        let y2 = max(y + amount * shrunk, 0)
                        let f = y > 1e-4 ? y2 / y : 1
                        let add = y > 1e-4 ? 0 : y2 - y
                        dst[4 * i] = s[4 * i] * f + add
                        dst[4 * i + 1] = s[4 * i + 1] * f + add
                        dst[4 * i + 2] = s[4 * i + 2] * f + add
                        dst[4 * i + 3] = 1
                    }
                }
            }
        }
        return processor.apply(to: [image.clampedToExtent()], extent: image.extent).settingAlphaOne()
    }
}
