import CLuxKernels

/// Row conversions between planar `Float` and interleaved RGBA `Float` for the pipeline's processors (the
/// engine's AVX2 shuffles: a stride-4 Swift loop does not vectorise).
enum PlanarRows {
    /// Interleaves three planes into RGBA with alpha 1.
    @inline(__always)
    static func interleave(
        _ r: UnsafePointer<Float>, _ g: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count n: Int,
        into d: UnsafeMutablePointer<Float>
    ) {
        lux_planar_to_float4(r, g, b, nil, d, n)
    }

    /// Splits RGBA into three planes (alpha dropped).
    @inline(__always)
    static func deinterleave(
        _ s: UnsafePointer<Float>, count n: Int, _ r: UnsafeMutablePointer<Float>, _ g: UnsafeMutablePointer<Float>,
        _ b: UnsafeMutablePointer<Float>
    ) {
        lux_float4_to_planar(s, r, g, b, nil, n)
    }
}
