import CLuxKernels
public import LuxRender

/// Stage 7b: the default tone curve that turns scene-referred values into a display rendering.
///
/// The base curve is `T(x) = u / (1 + u)` with `u = x · (2.531 x + 0.855)` — monotonic, 0 → 0, mid-grey
/// 0.18 → 0.19, scene white 1 → 0.77, +2 EV above white → 0.98, approaching 1 without a hard clip. It is
/// applied to the largest channel and the pixel scaled by the same ratio, so hues and saturation survive
/// (no per-channel shifts). ``boost`` blends between no curve (0: linear, scene-referred) and the full
/// curve (1, the default), like Core Image's `boostAmount`.
///
/// A file's ProfileToneCurve (``profileCurve``) takes the base curve's place: a natural cubic spline through its
/// points, linear in and out over 0…1, tabulated at 4096 points; values above 1 map to 1.
public struct ToneCurve: Hashable, Sendable {
    /// How much of the curve to apply, 0…1 (default 1).
    public var boost: Float
    /// The camera profile's curve as (input, output) points, or `nil` for the base curve.
    public var profileCurve: [SIMD2<Double>]?

    /// Creates the stage.
    public init(boost: Float = 1, profileCurve: [SIMD2<Double>]? = nil) {
        self.boost = boost
        self.profileCurve = profileCurve
    }

    /// The natural cubic spline through `points` (sorted by input, at least two) at `x`, clamped to 0…1.
    static func spline(_ points: [SIMD2<Double>], at x: Double) -> Double {
        let n = points.count
        let xs = points.map(\.x)
        let ys = points.map(\.y)
        // Second derivatives of the natural spline (tridiagonal solve).
        var m = [Double](repeating: 0, count: n)
        if n > 2 {
            var a = [Double](repeating: 0, count: n)
            var b = [Double](repeating: 1, count: n)
            var c = [Double](repeating: 0, count: n)
            var d = [Double](repeating: 0, count: n)
            for i in 1..<(n - 1) {
                let h0 = max(xs[i] - xs[i - 1], 1e-12)
                let h1 = max(xs[i + 1] - xs[i], 1e-12)
                a[i] = h0
                b[i] = 2 * (h0 + h1)
                c[i] = h1
                d[i] = 6 * ((ys[i + 1] - ys[i]) / h1 - (ys[i] - ys[i - 1]) / h0)
            }
            for i in 1..<n {
                let w = a[i] / b[i - 1]
                b[i] -= w * c[i - 1]
                d[i] -= w * d[i - 1]
            }
            for i in stride(from: n - 2, through: 1, by: -1) { m[i] = (d[i] - c[i] * m[i + 1]) / b[i] }
        }
        let k = max(1, min(n - 1, (xs.firstIndex { $0 > x } ?? n)))
        let (x0, x1) = (xs[k - 1], xs[k])
        let h = max(x1 - x0, 1e-12)
        let t0 = (x1 - x) / h
        let t1 = (x - x0) / h
        let y =
            t0 * ys[k - 1] + t1 * ys[k] + ((t0 * t0 * t0 - t0) * m[k - 1] + (t1 * t1 * t1 - t1) * m[k]) * h * h / 6
        return min(max(y, 0), 1)
    }

    /// The base curve at `x ≥ 0`.
    public static func base(_ x: Float) -> Float {
        let u = x * (2.531 * x + 0.855)
        return u / (1 + u)
    }

    /// Applies the curve (the identity when ``boost`` is 0).
    public func apply(to image: Image) -> Image {
        guard boost > 0 else { return image }
        let k = min(max(boost, 0), 1)
        if let points = profileCurve?.sorted(by: { $0.x < $1.x }), points.count >= 2 {
            return applyProfile(points, boost: k, to: image)
        }
        let kernel = ColorKernel(name: "toneCurve", alphaHandling: .premultiplied, preservesAlpha: true) { row in
            // Each pixel times 1 − k + k·T(n)/n, n its largest channel (at least 1e-9), in C (`lux_tone_base`).
            let p = row.pixels
            lux_tone_base(p.red, p.green, p.blue, k, row.count)
        }
        return image.applying(kernel, arguments: "boost=\(k)")
    }

    /// The profile curve applied like the base curve: to the largest channel, the pixel scaled by the same ratio.
    func applyProfile(_ points: [SIMD2<Double>], boost k: Float, to image: Image) -> Image {
        let size = 4096
        let table = (0...size).map { Float(Self.spline(points, at: Double($0) / Double(size))) }
        let kernel = ColorKernel(name: "profileToneCurve", alphaHandling: .premultiplied, preservesAlpha: true) { row in
            let p = row.pixels
            table.withUnsafeBufferPointer { t in
                for i in 0..<row.count {
                    let r = p.red[i]
                    let g = p.green[i]
                    let b = p.blue[i]
                    let n = max(max(r, g), max(b, 1e-9))
                    let x = min(n, 1) * Float(size)
                    let j = min(Int(x), size - 1)
                    let f0 = x - Float(j)
                    let curve = t[j] + (t[j + 1] - t[j]) * f0
                    let ratio = curve / n
                    let f = 1 - k + k * ratio
                    p.red[i] = r * f
                    p.green[i] = g * f
                    p.blue[i] = b * f
                }
            }
        }
        return image.applying(kernel, arguments: "boost=\(k) curve=\(points)")
    }
}
