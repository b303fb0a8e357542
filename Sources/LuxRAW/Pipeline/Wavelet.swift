import CLuxKernels

/// The à-trous (B3-spline, "with holes") wavelet used by noise reduction, on dense planes of `Float`.
///
/// Every loop runs over whole rows through pointers (the arithmetic in C, `lux_nr_*` of CLuxKernels' nr_rows.h, 8
/// lanes wide with AVX2 when the CPU has it and bit-identical on every width); borders are clamped.
enum Wavelet {
    /// Smooths `src` (`w × h`, dense) into `dst` with the separable kernel [1, 4, 6, 4, 1]/16 whose taps are `step`
    /// apart, clamping at the plane's edges.
    ///
    /// `tmp` holds `w × h` floats; `dst` may not alias `src`.
    @inline(never)
    static func smooth(
        _ src: UnsafePointer<Float>, into dst: UnsafeMutablePointer<Float>, width w: Int, height h: Int, step s: Int,
        tmp: UnsafeMutablePointer<Float>
    ) {
        let k0: Float = 6.0 / 16
        let k1: Float = 4.0 / 16
        let k2: Float = 1.0 / 16
        // Horizontal pass into tmp.
        let lo = min(2 * s, w)
        let hi = max(lo, w - 2 * s)
        for y in 0..<h {
            let r = src + y * w
            let o = tmp + y * w
            for x in 0..<lo { o[x] = tap(r, x, s, w, k0, k1, k2) }
            horizontal(r, o, lo, hi, s, k0, k1, k2)
            for x in hi..<w { o[x] = tap(r, x, s, w, k0, k1, k2) }
        }
        // Vertical pass into dst.
        for y in 0..<h {
            let a1 = tmp + min(max(y - s, 0), h - 1) * w
            let b1 = tmp + min(max(y + s, 0), h - 1) * w
            let a2 = tmp + min(max(y - 2 * s, 0), h - 1) * w
            let b2 = tmp + min(max(y + 2 * s, 0), h - 1) * w
            vertical(tmp + y * w, a1, b1, a2, b2, dst + y * w, w, k0, k1, k2)
        }
    }

    @inline(__always)
    static func horizontal(
        _ r: UnsafePointer<Float>, _ o: UnsafeMutablePointer<Float>, _ lo: Int, _ hi: Int, _ s: Int, _ k0: Float,
        _ k1: Float, _ k2: Float
    ) {
        lux_nr_taps5(r, r - s, r + s, r - 2 * s, r + 2 * s, o, k0, k1, k2, lo, hi)
    }

    @inline(__always)
    static func vertical(
        _ c: UnsafePointer<Float>, _ a1: UnsafePointer<Float>, _ b1: UnsafePointer<Float>, _ a2: UnsafePointer<Float>,
        _ b2: UnsafePointer<Float>, _ o: UnsafeMutablePointer<Float>, _ w: Int, _ k0: Float, _ k1: Float, _ k2: Float
    ) {
        lux_nr_taps5(c, a1, b1, a2, b2, o, k0, k1, k2, 0, w)
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

    /// Soft-thresholds one detail band: `acc += gain · shrink(fine − coarse, f·σ)` over `n` values.
    @inline(never)
    static func shrink(
        fine: UnsafePointer<Float>, coarse: UnsafePointer<Float>, sigma: UnsafePointer<Float>, factor f: Float,
        gain: Float, accumulator acc: UnsafeMutablePointer<Float>, count n: Int
    ) {
        lux_nr_shrink(fine, coarse, sigma, f, gain, acc, n)
    }

    /// Denoises `plane` (`w × h`) in place over `scales` scales: each detail band is soft-thresholded at
    /// `strength · scaleNoise[j] · sigma[i]` (the noise σ of each value, a plane of `w × h`).
    ///
    /// `scratch` holds `3 · w · h` floats. When `firstSmooth` is given it holds the scale-0 smoothing of
    /// `plane` already (it is consumed). `finestFactor` scales the finest scale's threshold; the kept detail of the
    /// finest scale and of the others is multiplied by `gains.0` and `gains.1`.
    @inline(never)
    static func denoise(
        _ plane: UnsafeMutablePointer<Float>, width w: Int, height h: Int, scales: Int, strength: Float,
        sigma: UnsafePointer<Float>, scratch: UnsafeMutablePointer<Float>,
        firstSmooth: UnsafeMutablePointer<Float>? = nil, finestFactor: Float = 1, gains: (Float, Float) = (1, 1)
    ) {
        guard scales > 0 else { return }
        let n = w * h
        let spare = firstSmooth ?? scratch
        let tmp = firstSmooth == nil ? scratch + n : scratch
        let acc = firstSmooth == nil ? scratch + 2 * n : scratch + n
        acc.update(repeating: 0, count: n)
        // `cur` holds the approximation at scale j, `next` receives scale j + 1; the two buffers alternate.
        var cur = plane
        var next = spare
        for j in 0..<scales {
            if j > 0 || firstSmooth == nil {
                smooth(cur, into: next, width: w, height: h, step: 1 << j, tmp: tmp)
            }
            shrink(
                fine: cur, coarse: next, sigma: sigma,
                factor: strength * scaleNoise[min(j, scaleNoise.count - 1)] * (j == 0 ? finestFactor : 1),
                gain: j == 0 ? gains.0 : gains.1, accumulator: acc, count: n)
            swap(&cur, &next)
        }
        add(cur, acc, into: plane, count: n)
    }

    @inline(never)
    static func add(
        _ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, into o: UnsafeMutablePointer<Float>, count n: Int
    ) {
        for i in 0..<n { o[i] = a[i] + b[i] }
    }
}
