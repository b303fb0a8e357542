/// The à-trous (B3-spline, "with holes") wavelet used by noise reduction, on planes of `Float`.
enum Wavelet {
    /// Smooths `src` (`w × h`, dense) into `dst` with the separable kernel [1, 4, 6, 4, 1]/16 whose taps are
    /// `step` apart, clamping at the plane's edges. `tmp` holds `w × h` floats.
    @inline(never)
    static func smooth(
        _ src: UnsafePointer<Float>, into dst: UnsafeMutablePointer<Float>, width w: Int, height h: Int, step s: Int,
        tmp: UnsafeMutablePointer<Float>
    ) {
        let k0: Float = 6.0 / 16
        let k1: Float = 4.0 / 16
        let k2: Float = 1.0 / 16
        // Horizontal pass into tmp.
        for y in 0..<h {
            let r = src + y * w
            let o = tmp + y * w
            let lo = min(2 * s, w)
            let hi = max(lo, w - 2 * s)
            for x in 0..<lo { o[x] = tap(r, x, s, w, k0, k1, k2) }
            for x in lo..<hi {
                o[x] = k0 * r[x] + k1 * (r[x - s] + r[x + s]) + k2 * (r[x - 2 * s] + r[x + 2 * s])
            }
            for x in hi..<w { o[x] = tap(r, x, s, w, k0, k1, k2) }
        }
        // Vertical pass into dst.
        for y in 0..<h {
            let c = tmp + y * w
            let a1 = tmp + min(max(y - s, 0), h - 1) * w
            let b1 = tmp + min(max(y + s, 0), h - 1) * w
            let a2 = tmp + min(max(y - 2 * s, 0), h - 1) * w
            let b2 = tmp + min(max(y + 2 * s, 0), h - 1) * w
            let o = dst + y * w
            for x in 0..<w { o[x] = k0 * c[x] + k1 * (a1[x] + b1[x]) + k2 * (a2[x] + b2[x]) }
        }
    }

    @inline(__always)
    static func tap(_ r: UnsafePointer<Float>, _ x: Int, _ s: Int, _ w: Int, _ k0: Float, _ k1: Float, _ k2: Float)
        -> Float
    {
        func at(_ i: Int) -> Float { r[min(max(i, 0), w - 1)] }
        return k0 * r[x] + k1 * (at(x - s) + at(x + s)) + k2 * (at(x - 2 * s) + at(x + 2 * s))
    }

    /// Noise standard deviation of B3 à-trous detail scales 0…4 relative to white noise of σ = 1.
    static let scaleNoise: [Float] = [0.89, 0.20, 0.086, 0.041, 0.020]

    /// Denoises `plane` in place over `scales` scales: each detail band is soft-thresholded at
    /// `strength · scaleNoise[j] · σ(signal)`, with `σ² = variance.x · signal + variance.y` read per pixel from
    /// `signal`. Scratch: `3 · w · h` floats.
    @inline(never)
    static func denoise(
        _ plane: UnsafeMutablePointer<Float>, width w: Int, height h: Int, scales: Int, strength: Float,
        variance: SIMD2<Float>, signal: UnsafePointer<Float>, scratch: UnsafeMutablePointer<Float>
    ) {
        let n = w * h
        let next = scratch
        let tmp = scratch + n
        let acc = scratch + 2 * n
        acc.update(repeating: 0, count: n)
        let cur = plane
        for j in 0..<scales {
            smooth(cur, into: next, width: w, height: h, step: 1 << j, tmp: tmp)
            let f = strength * scaleNoise[min(j, scaleNoise.count - 1)]
            let vs = variance.x
            let vo = variance.y
            for i in 0..<n {
                let d = cur[i] - next[i]
                let t = f * max(vs * signal[i] + vo, vo).squareRoot()
                acc[i] += d - min(max(d, -t), t)
                cur[i] = next[i]
            }
        }
        for i in 0..<n { plane[i] += acc[i] }
    }
}
