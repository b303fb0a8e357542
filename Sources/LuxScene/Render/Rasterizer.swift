/// Row kernels that paint shapes onto a layer card: coverage by signed distance (a one-pixel box filter, so
/// edges are anti-aliased like a sensor pixel integrating over its area), fills, and the "over" blend.
///
/// Every kernel runs over one row segment with plain scalar math on pointers, so LLVM vectorises it.
enum Rasterizer {
    /// Coverage of an axis-aligned rectangle (centre `c`, half size `h`).
    static func rectangle(
        _ cov: UnsafeMutablePointer<Float>, _ n: Int, q: SIMD2<Float>, step: SIMD2<Float>, center c: SIMD2<Float>,
        half h: SIMD2<Float>, invPixel: Float
    ) {
        for i in 0..<n {
            let fi = Float(i)
            let qx = q.x + fi * step.x
            let qy = q.y + fi * step.y
            let ex = abs(qx - c.x) - h.x
            let ey = abs(qy - c.y) - h.y
            let ox = max(ex, 0)
            let oy = max(ey, 0)
            let d = (ox * ox + oy * oy).squareRoot() + min(max(ex, ey), 0)
            cov[i] = min(max(0.5 - d * invPixel, 0), 1)
        }
    }

    /// Coverage of an ellipse (exact distance for a disc, scaled for an ellipse).
    static func ellipse(
        _ cov: UnsafeMutablePointer<Float>, _ n: Int, q: SIMD2<Float>, step: SIMD2<Float>, center c: SIMD2<Float>,
        radii r: SIMD2<Float>, invPixel: Float
    ) {
        let ix = 1 / r.x
        let iy = 1 / r.y
        let rmin = min(r.x, r.y)
        for i in 0..<n {
            let fi = Float(i)
            let ux = (q.x + fi * step.x - c.x) * ix
            let uy = (q.y + fi * step.y - c.y) * iy
            let k = (ux * ux + uy * uy).squareRoot()
            let d = (k - 1) * rmin
            cov[i] = min(max(0.5 - d * invPixel, 0), 1)
        }
    }

    /// Coverage of a convex polygon given as outward edge normals `normals[k]` and offsets `offsets[k]` (the signed
    /// distance to edge k is `n·q − offset`).
    ///
    /// `scratch` holds the running maximum.
    static func polygon(
        _ cov: UnsafeMutablePointer<Float>, _ n: Int, q: SIMD2<Float>, step: SIMD2<Float>,
        normals: UnsafeBufferPointer<SIMD2<Float>>, offsets: UnsafeBufferPointer<Float>, invPixel: Float
    ) {
        for i in 0..<n { cov[i] = -Float.greatestFiniteMagnitude }
        for k in 0..<normals.count {
            let nx = normals[k].x
            let ny = normals[k].y
            let o = offsets[k]
            for i in 0..<n {
                let fi = Float(i)
                let d = nx * (q.x + fi * step.x) + ny * (q.y + fi * step.y) - o
                cov[i] = max(cov[i], d)
            }
        }
        for i in 0..<n { cov[i] = min(max(0.5 - cov[i] * invPixel, 0), 1) }
    }

    /// Coverage of the dark wedges of a Siemens star with `spokes` wedges in a disc of `radius`.
    ///
    /// Where the wedges get narrower than a pixel near the centre, coverage tends to their area fraction, ½.
    static func siemensStar(
        _ cov: UnsafeMutablePointer<Float>, _ n: Int, q: SIMD2<Float>, step: SIMD2<Float>, center c: SIMD2<Float>,
        radius: Float, spokes: Int, pixel: Float
    ) {
        let invPixel = 1 / pixel
        let wedge = Float.pi / Float(spokes)  // angular width of one wedge (dark and light alternate)
        let invPeriod = 1 / (2 * wedge)
        for i in 0..<n {
            let fi = Float(i)
            let dx = q.x + fi * step.x - c.x
            let dy = q.y + fi * step.y - c.y
            let r = (dx * dx + dy * dy).squareRoot()
            let theta = atan2Approx(dy, dx) + Float.pi  // 0…2π
            let cycles = theta * invPeriod
            let phase = (cycles - cycles.rounded(.down)) * 2 * wedge  // 0…2·wedge
            // Inside a dark wedge when phase < wedge; angular distance to the nearest boundary:
            let inDark = phase < wedge
            let a = inDark ? min(phase, wedge - phase) : min(phase - wedge, 2 * wedge - phase)
            let dAngle = (inDark ? -a : a) * r
            let d = max(dAngle, r - radius)
            let sharp = min(max(0.5 - d * invPixel, 0), 1)
            // Blend toward ½ where a wedge is narrower than ~2 pixels.
            let resolved = min(max(r * wedge * invPixel * 0.5 - 0.5, 0), 1)
            let inside = min(max(0.5 - (r - radius) * invPixel, 0), 1)
            cov[i] = sharp * resolved + 0.5 * inside * (1 - resolved)
        }
    }

    /// A branch-free atan2 approximation (max error ≈ 1e-5 rad).
    @inline(__always)
    static func atan2Approx(_ y: Float, _ x: Float) -> Float {
        let ax = abs(x)
        let ay = abs(y)
        let mx = max(ax, ay)
        let mn = min(ax, ay)
        let a = mn / max(mx, 1e-30)
        let s = a * a
        var r = ((-0.046_496_474_9 * s + 0.159_314_22) * s - 0.327_622_764) * s * a + a
        r = ay > ax ? 1.570_796_33 - r : r
        r = x < 0 ? 3.141_592_65 - r : r
        return y < 0 ? -r : r
    }

    /// Blends a solid colour with coverage into a premultiplied card row (planes c0, c1, c2, and alpha when
    /// the layer has one).
    static func blendSolid(
        _ cov: UnsafePointer<Float>, _ n: Int, color: SIMD3<Float>, p0: UnsafeMutablePointer<Float>,
        p1: UnsafeMutablePointer<Float>, p2: UnsafeMutablePointer<Float>, alpha: UnsafeMutablePointer<Float>?
    ) {
        let r = color.x
        let g = color.y
        let b = color.z
        for i in 0..<n {
            let c = cov[i]
            let k = 1 - c
            p0[i] = p0[i] * k + r * c
            p1[i] = p1[i] * k + g * c
            p2[i] = p2[i] * k + b * c
        }
        if let alpha { blendAlpha(cov, n, alpha) }
    }

    /// Blends per-pixel colours (rows `c0…c2`) with coverage into a premultiplied card row.
    static func blendRows(
        _ cov: UnsafePointer<Float>, _ n: Int, c0: UnsafePointer<Float>, c1: UnsafePointer<Float>,
        c2: UnsafePointer<Float>, p0: UnsafeMutablePointer<Float>, p1: UnsafeMutablePointer<Float>,
        p2: UnsafeMutablePointer<Float>, alpha: UnsafeMutablePointer<Float>?
    ) {
        for i in 0..<n {
            let c = cov[i]
            let k = 1 - c
            p0[i] = p0[i] * k + c0[i] * c
            p1[i] = p1[i] * k + c1[i] * c
            p2[i] = p2[i] * k + c2[i] * c
        }
        if let alpha { blendAlpha(cov, n, alpha) }
    }

    static func blendAlpha(_ cov: UnsafePointer<Float>, _ n: Int, _ alpha: UnsafeMutablePointer<Float>) {
        for i in 0..<n { alpha[i] = alpha[i] * (1 - cov[i]) + cov[i] }
    }

    /// Colours of a linear gradient along a row.
    static func gradient(
        _ n: Int, q: SIMD2<Float>, step: SIMD2<Float>, start: SIMD2<Float>, direction g: SIMD2<Float>,
        from a: SIMD3<Float>, to b: SIMD3<Float>, c0: UnsafeMutablePointer<Float>, c1: UnsafeMutablePointer<Float>,
        c2: UnsafeMutablePointer<Float>
    ) {
        let d = b - a
        for i in 0..<n {
            let fi = Float(i)
            let t = min(max((q.x + fi * step.x - start.x) * g.x + (q.y + fi * step.y - start.y) * g.y, 0), 1)
            c0[i] = a.x + t * d.x
            c1[i] = a.y + t * d.y
            c2[i] = a.z + t * d.z
        }
    }

    /// Colours of a value-noise texture along a row: `base × (1 + contrast × noise)`, two octaves.
    static func noise(
        _ n: Int, q: SIMD2<Float>, step: SIMD2<Float>, base: SIMD3<Float>, contrast: Float, frequency: Float,
        seed: UInt32, c0: UnsafeMutablePointer<Float>, c1: UnsafeMutablePointer<Float>, c2: UnsafeMutablePointer<Float>
    ) {
        for i in 0..<n {
            let fi = Float(i)
            let x = (q.x + fi * step.x) * frequency
            let y = (q.y + fi * step.y) * frequency
            let v = 0.7 * valueNoise(x, y, seed) + 0.3 * valueNoise(x * 2.7 + 17.3, y * 2.7 + 5.1, seed ^ 0x9E37)
            let m = 1 + contrast * v
            c0[i] = base.x * m
            c1[i] = base.y * m
            c2[i] = base.z * m
        }
    }

    /// ⌊x⌋ for |x| < 2^22, read from the bit pattern after a round-to-nearest (no trapping conversion, so
    /// loops that use it vectorise).
    @inline(__always)
    static func floorInt(_ x: Float) -> Int32 {
        let nearest = Int32(bitPattern: (x + 12_582_912).bitPattern &- 0x4B40_0000)
        return Float(nearest) > x ? nearest &- 1 : nearest
    }

    @inline(__always)
    static func lattice(_ x: Int32, _ y: Int32, _ seed: UInt32) -> Float {
        let h = CounterRandom.hash32(UInt32(bitPattern: x) &* 0x8DA6_B343 ^ UInt32(bitPattern: y) &* 0xD816_3841 ^ seed)
        return Float(h >> 8) * (2 / 16_777_216) - 1
    }

    /// Smooth value noise in −1…1 with unit lattice spacing.
    @inline(__always)
    static func valueNoise(_ x: Float, _ y: Float, _ seed: UInt32) -> Float {
        let xi = floorInt(x)
        let yi = floorInt(y)
        let fx = x - Float(xi)
        let fy = y - Float(yi)
        let sx = fx * fx * (3 - 2 * fx)
        let sy = fy * fy * (3 - 2 * fy)
        let h00 = lattice(xi, yi, seed)
        let h10 = lattice(xi &+ 1, yi, seed)
        let h01 = lattice(xi, yi &+ 1, seed)
        let h11 = lattice(xi &+ 1, yi &+ 1, seed)
        let top = h00 + (h10 - h00) * sx
        let bottom = h01 + (h11 - h01) * sx
        return top + (bottom - top) * sy
    }
}
