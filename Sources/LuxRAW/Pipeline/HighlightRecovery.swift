import CLuxKernels
public import LuxRender

/// Stage 7a: reconstruction of clipped highlights in white-balanced camera RGB (before the colour matrix).
///
/// After white balance the channels clip at different levels (red and blue, with gains above 1, clip above
/// green): left alone, a blown white turns magenta; hard-clipped at 1 it turns flat. Where any channel
/// exceeds ``clipLevel``, this keeps the lightness and hue of the unclipped values but takes the chroma of the
/// clipped ones (the "blend" reconstruction of dcraw `-H 2`, in its opponent space
/// `L = R+G+B, a = √3(R−G), b = 2B−R−G`): highlights desaturate smoothly to white while their brightness keeps
/// its gradient. Below the clip level pixels are unchanged, so the transition is continuous.
public struct HighlightRecovery: Hashable, Sendable {
    /// The level (white-balanced camera units) above which a channel counts as clipped (default 0.99: the
    /// least-gained channel's clip).
    public var clipLevel: Float

    /// Creates the stage.
    public init(clipLevel: Float = 0.99) { self.clipLevel = clipLevel }

    /// Applies the reconstruction.
    public func apply(to image: Image) -> Image {
        let clip = clipLevel
        let s3: Float = 1.7320508
        let kernel = ColorKernel(name: "highlightRecovery", alphaHandling: .premultiplied, preservesAlpha: true) {
            row in
            let p = row.pixels
            // Most rows hold no clipped pixel: find out with a cheap scan and leave them as they are.
            guard Self.exceeds(clip, p.red, p.green, p.blue, count: row.count) else { return }
            for i in 0..<row.count {
                let r = p.red[i]
                let g = p.green[i]
                let b = p.blue[i]
                let cr = min(r, clip)
                let cg = min(g, clip)
                let cb = min(b, clip)
                let a0 = s3 * (r - g)
                let b0 = 2 * b - r - g
                let a1 = s3 * (cr - cg)
                let b1 = 2 * cb - cr - cg
                let c0 = a0 * a0 + b0 * b0
                let c1 = a1 * a1 + b1 * b1
                // `max(…, 0)` is a no-op that lets the square root vectorise (no libm `errno` path).
                let ratio = c0 > 1e-20 ? max(c1 / c0, 0).squareRoot() : 1
                let l = r + g + b
                let a = a0 * ratio
                let bb = b0 * ratio
                // Inverse of the opponent transform.
                let nr = (l + 0.8660254 * a - 0.5 * bb) * (1 / 3.0)
                let ng = (l - 0.8660254 * a - 0.5 * bb) * (1 / 3.0)
                let nb = (l + bb) * (1 / 3.0)
                let clipped = max(r, max(g, b)) > clip
                p.red[i] = clipped ? nr : r
                p.green[i] = clipped ? ng : g
                p.blue[i] = clipped ? nb : b
            }
        }
        return image.applying(kernel, arguments: "clip=\(clip)")
    }

    /// Whether any pixel's largest channel exceeds `level`.
    ///
    /// The scan runs on every row of the image, in C (`lux_highlight_exceeds`, 8 lanes wide with AVX2), and stops at
    /// the first pixel above the level.
    @inline(never)
    static func exceeds(
        _ level: Float, _ r: UnsafePointer<Float>, _ g: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count n: Int
    ) -> Bool {
        lux_highlight_exceeds(r, g, b, level, n) != 0
    }
}
