/// Window sums that are exact, so neighbourhood means do not depend on where a tile starts.
///
/// Values are rounded to multiples of 2⁻²⁴ (``unit``) and summed in `Double` as integers: every partial sum is
/// exactly representable while its magnitude stays below 2²⁹ (a 4000² window of values up to 30), so running
/// sums, prefix sums and their differences are exact and order-independent. The rounding (at most 3·10⁻⁸) is
/// far below half-float precision.
enum ExactSum {
    /// The quantum values are rounded to, as a scale: sums count multiples of 2⁻²⁴.
    static let unit = 16_777_216.0

    /// Rounds to the nearest integer for |x| < 2⁵¹ without libm (the 1.5·2⁵² trick).
    @inline(__always)
    static func integer(_ x: Double) -> Double { (x + 6_755_399_441_055_744) - 6_755_399_441_055_744 }

    /// Prefix sums of `n` interleaved RGBA pixels: `out[4·i + c] = Σ_{j<i} round(src[4·j + c]·2²⁴)`,
    /// `n + 1` pixels.
    @inline(never)
    static func prefix4(_ src: UnsafePointer<Float>, _ n: Int, into out: UnsafeMutablePointer<Double>) {
        var s0 = 0.0
        var s1 = 0.0
        var s2 = 0.0
        var s3 = 0.0
        out[0] = 0
        out[1] = 0
        out[2] = 0
        out[3] = 0
        for i in 0..<n {
            s0 += integer(Double(src[4 * i]) * unit)
            s1 += integer(Double(src[4 * i + 1]) * unit)
            s2 += integer(Double(src[4 * i + 2]) * unit)
            s3 += integer(Double(src[4 * i + 3]) * unit)
            out[4 * i + 4] = s0
            out[4 * i + 5] = s1
            out[4 * i + 6] = s2
            out[4 * i + 7] = s3
        }
    }

    /// Prefix sums of one plane: `out[i] = Σ_{j<i} round(src[j]·2²⁴)`, `n + 1` values.
    @inline(never)
    static func prefix(_ src: UnsafePointer<Float>, _ n: Int, into out: UnsafeMutablePointer<Double>) {
        var s = 0.0
        out[0] = 0
        for i in 0..<n {
            s += integer(Double(src[i]) * unit)
            out[i + 1] = s
        }
    }

    /// `out[i] = a[i] − b[i]`.
    @inline(never)
    static func difference(
        _ a: UnsafePointer<Double>, _ b: UnsafePointer<Double>, into out: UnsafeMutablePointer<Double>, _ n: Int
    ) {
        for i in 0..<n { out[i] = a[i] - b[i] }
    }

    /// `acc[i] += row[i]`.
    @inline(never)
    static func add(_ acc: UnsafeMutablePointer<Double>, _ row: UnsafePointer<Double>, _ n: Int) {
        for i in 0..<n { acc[i] += row[i] }
    }

    /// `acc[i] += a[i] − b[i]`.
    @inline(never)
    static func addDifference(
        _ acc: UnsafeMutablePointer<Double>, _ a: UnsafePointer<Double>, _ b: UnsafePointer<Double>, _ n: Int
    ) {
        for i in 0..<n { acc[i] += a[i] - b[i] }
    }

    /// `dst[i] = Float(src[i]·k)`.
    @inline(never)
    static func store(_ src: UnsafePointer<Double>, _ k: Double, into dst: UnsafeMutablePointer<Float>, _ n: Int) {
        for i in 0..<n { dst[i] = Float(src[i] * k) }
    }
}
