import CLuxKernels

/// One-dimensional symmetric convolution over a flat `Float` array: the inner loop of separable blurs
/// and resamplers.
///
/// `out[k] = w[0]·src[k] + Σ_{t=1…r} w[t]·(src[k − t·step] + src[k + t·step])` for `k` in `0..<n`.
/// With `step` = 4 it filters interleaved RGBA rows horizontally; with `step` = a row stride it filters
/// vertically. It runs CLuxKernels' `lux_symmetric_fir` (8-lane AVX when the CPU has it, in blocks of 32 floats):
/// every output is summed in the same order whatever its position, which keeps tiled output bit-identical.
@inline(__always)
func symmetricFIR(
    _ src: UnsafePointer<Float>, step: Int, weights w: UnsafePointer<Float>, radius r: Int,
    into out: UnsafeMutablePointer<Float>, count n: Int
) {
    lux_symmetric_fir(src, step, w, Int32(r), out, n)
}

/// Two outputs of ``symmetricFIR(_:step:weights:radius:into:count:)`` a step apart — `out0` from `src`, `out1` from
/// `src + step` — bit for bit what two calls give; with a row stride as `step` each input row is loaded once for
/// both (`lux_symmetric_fir_pair`).
@inline(__always)
func symmetricFIRPair(
    _ src: UnsafePointer<Float>, step: Int, weights w: UnsafePointer<Float>, radius r: Int,
    into out0: UnsafeMutablePointer<Float>, and out1: UnsafeMutablePointer<Float>, count n: Int
) {
    lux_symmetric_fir_pair(src, step, w, Int32(r), out0, out1, n)
}

/// Normalised Gaussian weights `w[0…r]` (the centre and one side) for standard deviation `sigma`.
func gaussianWeights(sigma: Double, radius r: Int) -> [Float] {
    var w = (0...r).map { t in expDouble(-Double(t * t) / (2 * sigma * sigma)) }
    let sum = w[0] + 2 * w[1...].reduce(0, +)
    for i in w.indices { w[i] /= sum }
    return w.map(Float.init)
}
