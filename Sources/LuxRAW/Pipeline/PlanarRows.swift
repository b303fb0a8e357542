/// Row conversions between planar `Float` and interleaved RGBA `Float` for the pipeline's processors.
enum PlanarRows {
    /// Interleaves three planes into RGBA with alpha 1.
    @inline(never)
    static func interleave(
        _ r: UnsafePointer<Float>, _ g: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count n: Int,
        into d: UnsafeMutablePointer<Float>
    ) {
        for i in 0..<n {
            d[4 * i] = r[i]
            d[4 * i + 1] = g[i]
            d[4 * i + 2] = b[i]
            d[4 * i + 3] = 1
        }
    }

    /// Splits RGBA into three planes (alpha dropped).
    @inline(never)
    static func deinterleave(
        _ s: UnsafePointer<Float>, count n: Int, _ r: UnsafeMutablePointer<Float>, _ g: UnsafeMutablePointer<Float>,
        _ b: UnsafeMutablePointer<Float>
    ) {
        for i in 0..<n {
            r[i] = s[4 * i]
            g[i] = s[4 * i + 1]
            b[i] = s[4 * i + 2]
        }
    }
}
