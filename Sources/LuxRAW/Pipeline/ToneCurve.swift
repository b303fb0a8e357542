public import LuxRender

/// Stage 7b: the default tone curve that turns scene-referred values into a display rendering.
///
/// The base curve is `T(x) = u / (1 + u)` with `u = x · (2.531 x + 0.855)` — monotonic, 0 → 0, mid-grey
/// 0.18 → 0.19, scene white 1 → 0.77, +2 EV above white → 0.98, approaching 1 without a hard clip. It is
/// applied to the largest channel and the pixel scaled by the same ratio, so hues and saturation survive
/// (no per-channel shifts). ``boost`` blends between no curve (0: linear, scene-referred) and the full
/// curve (1, the default), like Core Image's `boostAmount`.
public struct ToneCurve: Hashable, Sendable {
    /// How much of the curve to apply, 0…1 (default 1).
    public var boost: Float

    /// Creates the stage.
    public init(boost: Float = 1) { self.boost = boost }

    /// The base curve at `x ≥ 0`.
    public static func base(_ x: Float) -> Float {
        let u = x * (2.531 * x + 0.855)
        return u / (1 + u)
    }

    /// Applies the curve (the identity when ``boost`` is 0).
    public func apply(to image: Image) -> Image {
        guard boost > 0 else { return image }
        let k = min(max(boost, 0), 1)
        let kernel = ColorKernel(name: "toneCurve", alphaHandling: .premultiplied, preservesAlpha: true) { row in
            let p = row.pixels
            for i in 0..<row.count {
                let r = p.red[i]
                let g = p.green[i]
                let b = p.blue[i]
                let n = max(max(r, g), max(b, 1e-9))
                let u = n * (2.531 * n + 0.855)
                let ratio = 1 / (1 + u) * (2.531 * n + 0.855)  // T(n) / n
                let f = 1 - k + k * ratio
                p.red[i] = r * f
                p.green[i] = g * f
                p.blue[i] = b * f
            }
        }
        return image.applying(kernel, arguments: "boost=\(k)")
    }
}
