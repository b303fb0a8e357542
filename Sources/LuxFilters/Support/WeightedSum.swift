import CLuxKernels

/// `out[k] = Σ_t w[t] · rows[t][k]` for `k` in `0..<n`: the vertical pass of resamplers, vectorised in
/// register blocks of 32 floats with a fixed summation order (bit-identical for any tiling).
@inline(__always)
package func weightedSum(
    rows: UnsafePointer<UnsafePointer<Float>>, weights w: UnsafePointer<Float>, taps: Int,
    into out: UnsafeMutablePointer<Float>, count n: Int
) {
    // The C kernel (AVX2 where the CPU has it) keeps the Swift loop's order: bit-identical, and fast in debug builds.
    lux_weighted_rows(UnsafeRawPointer(rows).assumingMemoryBound(to: UnsafePointer<Float>?.self), w, taps, out, n)
}

/// `out[x] = Σ_t w[x·taps + t] · src[first[x] + t]` over RGBA pixels: the horizontal pass of resamplers
/// (one SIMD4 multiply–add per tap; each output has its own window).
@inline(__always)
package func weightedPixelSum(
    _ src: UnsafePointer<Float>, first: UnsafePointer<Int>, weights w: UnsafePointer<Float>, taps: Int,
    into out: UnsafeMutablePointer<Float>, count n: Int
) {
    lux_weighted_pixels(src, first, w, taps, out, n)
}
