/// One-dimensional symmetric convolution over a flat `Float` array: the inner loop of separable blurs
/// and resamplers.
///
/// `out[k] = w[0]·src[k] + Σ_{t=1…r} w[t]·(src[k − t·step] + src[k + t·step])` for `k` in `0..<n`.
/// With `step` = 4 it filters interleaved RGBA rows horizontally; with `step` = a row stride it filters
/// vertically. Blocks of 32 floats accumulate in registers (`SIMD8` ×4), so each tap costs two loads and
/// two arithmetic operations per 8 floats; every output is summed in the same order whatever its position
/// in a block, which keeps tiled output bit-identical.
@inline(never)
func symmetricFIR(
    _ src: UnsafePointer<Float>, step: Int, weights w: UnsafePointer<Float>, radius r: Int,
    into out: UnsafeMutablePointer<Float>, count n: Int
) {
    var k = 0
    while k + 32 <= n {
        let c = UnsafeRawPointer(src + k)
        let w0 = SIMD8<Float>(repeating: w[0])
        var s0 = w0 * c.loadUnaligned(as: SIMD8<Float>.self)
        var s1 = w0 * c.loadUnaligned(fromByteOffset: 32, as: SIMD8<Float>.self)
        var s2 = w0 * c.loadUnaligned(fromByteOffset: 64, as: SIMD8<Float>.self)
        var s3 = w0 * c.loadUnaligned(fromByteOffset: 96, as: SIMD8<Float>.self)
        var t = 1
        while t <= r {
            let wt = SIMD8<Float>(repeating: w[t])
            let lo = UnsafeRawPointer(src + k - t * step)
            let hi = UnsafeRawPointer(src + k + t * step)
            s0 += wt * (lo.loadUnaligned(as: SIMD8<Float>.self) + hi.loadUnaligned(as: SIMD8<Float>.self))
            s1 +=
                wt
                * (lo.loadUnaligned(fromByteOffset: 32, as: SIMD8<Float>.self)
                    + hi.loadUnaligned(fromByteOffset: 32, as: SIMD8<Float>.self))
            s2 +=
                wt
                * (lo.loadUnaligned(fromByteOffset: 64, as: SIMD8<Float>.self)
                    + hi.loadUnaligned(fromByteOffset: 64, as: SIMD8<Float>.self))
            s3 +=
                wt
                * (lo.loadUnaligned(fromByteOffset: 96, as: SIMD8<Float>.self)
                    + hi.loadUnaligned(fromByteOffset: 96, as: SIMD8<Float>.self))
            t += 1
        }
        let o = UnsafeMutableRawPointer(out + k)
        o.storeBytes(of: s0, as: SIMD8<Float>.self)
        o.storeBytes(of: s1, toByteOffset: 32, as: SIMD8<Float>.self)
        o.storeBytes(of: s2, toByteOffset: 64, as: SIMD8<Float>.self)
        o.storeBytes(of: s3, toByteOffset: 96, as: SIMD8<Float>.self)
        k += 32
    }
    while k < n {
        let c = src + k
        var s = w[0] * c[0]
        var t = 1
        while t <= r {
            s += w[t] * (c[-t * step] + c[t * step])
            t += 1
        }
        out[k] = s
        k += 1
    }
}

/// Normalised Gaussian weights `w[0…r]` (the centre and one side) for standard deviation `sigma`.
func gaussianWeights(sigma: Double, radius r: Int) -> [Float] {
    var w = (0...r).map { t in expDouble(-Double(t * t) / (2 * sigma * sigma)) }
    let sum = w[0] + 2 * w[1...].reduce(0, +)
    for i in w.indices { w[i] /= sum }
    return w.map(Float.init)
}
