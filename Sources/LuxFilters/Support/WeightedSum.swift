/// `out[k] = Σ_t w[t] · rows[t][k]` for `k` in `0..<n`: the vertical pass of resamplers, vectorised in
/// register blocks of 32 floats with a fixed summation order (bit-identical for any tiling).
@inline(never)
func weightedSum(
    rows: UnsafePointer<UnsafePointer<Float>>, weights w: UnsafePointer<Float>, taps: Int,
    into out: UnsafeMutablePointer<Float>, count n: Int
) {
    var k = 0
    while k + 32 <= n {
        var s0 = SIMD8<Float>()
        var s1 = SIMD8<Float>()
        var s2 = SIMD8<Float>()
        var s3 = SIMD8<Float>()
        for t in 0..<taps {
            let wt = SIMD8<Float>(repeating: w[t])
            let p = UnsafeRawPointer(rows[t] + k)
            s0 += wt * p.loadUnaligned(as: SIMD8<Float>.self)
            s1 += wt * p.loadUnaligned(fromByteOffset: 32, as: SIMD8<Float>.self)
            s2 += wt * p.loadUnaligned(fromByteOffset: 64, as: SIMD8<Float>.self)
            s3 += wt * p.loadUnaligned(fromByteOffset: 96, as: SIMD8<Float>.self)
        }
        let o = UnsafeMutableRawPointer(out + k)
        o.storeBytes(of: s0, as: SIMD8<Float>.self)
        o.storeBytes(of: s1, toByteOffset: 32, as: SIMD8<Float>.self)
        o.storeBytes(of: s2, toByteOffset: 64, as: SIMD8<Float>.self)
        o.storeBytes(of: s3, toByteOffset: 96, as: SIMD8<Float>.self)
        k += 32
    }
    while k < n {
        var s: Float = 0
        for t in 0..<taps { s += w[t] * rows[t][k] }
        out[k] = s
        k += 1
    }
}

/// `out[x] = Σ_t w[x·taps + t] · src[first[x] + t]` over RGBA pixels: the horizontal pass of resamplers
/// (one SIMD4 multiply–add per tap; each output has its own window).
@inline(never)
func weightedPixelSum(
    _ src: UnsafePointer<Float>, first: UnsafePointer<Int>, weights w: UnsafePointer<Float>, taps: Int,
    into out: UnsafeMutablePointer<Float>, count n: Int
) {
    for x in 0..<n {
        var s = SIMD4<Float>()
        let p = UnsafeRawPointer(src + 4 * first[x])
        let wx = w + x * taps
        for t in 0..<taps {
            s += SIMD4(repeating: wx[t]) * p.loadUnaligned(fromByteOffset: 16 * t, as: SIMD4<Float>.self)
        }
        UnsafeMutableRawPointer(out + 4 * x).storeBytes(of: s, as: SIMD4<Float>.self)
    }
}
