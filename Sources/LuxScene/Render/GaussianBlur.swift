import CLuxKernels

/// A Gaussian blur whose cost does not depend on the radius: three passes of an *extended box* filter in each direction
/// (Gwosdek, Grewenig, Bruhn and Weickert, "Theoretical foundations of Gaussian convolution by extended box filtering",
/// SSVM 2011).
///
/// An extended box is a box of `2r + 1` ones with a fractional weight `f` on one more pixel at each end, so its
/// variance is continuous in `f`; three equal ones match any target variance exactly and approximate the Gaussian
/// closely. Pixels beyond the image are zero.
///
/// The renderer runs the vertical passes as a stream over rows (``VerticalBlur``) and the horizontal passes
/// on each finished row (``HorizontalBlur``).
struct BlurPlan: Sendable, Equatable {
    /// The integer radius of each pass (`2r + 1` full weights).
    let radius: Int
    /// The weight of the two end pixels (0 ≤ f < 1).
    let fraction: Float
    /// Number of passes in each direction.
    static let passes = 3

    /// The plan for a standard deviation in pixels (`nil` when the blur is negligible, σ ≤ 0.05).
    init?(sigma: Double) {
        guard sigma > 0.05 else { return nil }
        let v = sigma * sigma / Double(Self.passes)  // variance of one pass
        // Largest r whose plain box variance r(r + 1)/3 does not exceed v.
        var r = max(0, Int(((1 + 12 * v).squareRoot() - 1) / 2))
        while Double((r + 1) * (r + 2)) / 3 <= v { r += 1 }
        while r > 0, Double(r * (r + 1)) / 3 > v { r -= 1 }
        let n = Double(2 * r + 1)
        let f = (v * n - Double(r * (r + 1)) * n / 3) / (2 * Double((r + 1) * (r + 1)) - 2 * v)
        radius = r
        fraction = Float(min(max(f, 0), 1))
    }

    /// The variance of one pass.
    var passVariance: Double {
        let r = Double(radius)
        let f = Double(fraction)
        return (r * (r + 1) * (2 * r + 1) / 3 + 2 * f * (r + 1) * (r + 1)) / (2 * r + 1 + 2 * f)
    }

    /// 1 / (2r + 1 + 2f), the normalisation of one pass.
    var scale: Float { 1 / (Float(2 * radius + 1) + 2 * fraction) }

    /// The support radius: pixels affected on each side.
    var support: Int { Self.passes * (radius + 1) }

    /// The support radius of the blur for `sigma` (0 when negligible).
    static func support(sigma: Double) -> Int { BlurPlan(sigma: sigma)?.support ?? 0 }
}

/// The horizontal passes of a ``BlurPlan`` over one row of up to four planes, in place.
///
/// The planes are interleaved into `SIMD4` pixels (one running sum carries all channels), the row is padded
/// with zeros so no pass needs bounds checks, and each pass runs four independent running sums over four
/// quarters of the row so the additions overlap instead of waiting on each other.
struct HorizontalBlur {
    let plan: BlurPlan
    let count: Int
    let pad: Int
    /// Two padded SIMD4 rows (ping-pong).
    let a: UnsafeMutablePointer<SIMD4<Float>>
    let b: UnsafeMutablePointer<SIMD4<Float>>

    /// Scratch for rows of `count` pixels.
    init(plan: BlurPlan, count: Int) {
        self.plan = plan
        self.count = count
        pad = plan.radius + 2
        let n = count + 2 * pad
        a = .allocate(capacity: n)
        b = .allocate(capacity: n)
        a.initialize(repeating: .zero, count: n)
        b.initialize(repeating: .zero, count: n)
    }

    func deallocate() {
        a.deallocate()
        b.deallocate()
    }

    /// Blurs planes `0..<planes` of `row` (each `count` long, `stride` apart) in place, over `columns` only (all of
    /// them by default): the row must be zero outside them, and stays so (they must include the blur's support
    /// around whatever is not zero).
    func apply(_ row: UnsafeMutablePointer<Float>, planes: Int, stride: Int, columns: Range<Int>? = nil) {
        let columns = columns ?? 0..<count
        let m = columns.count
        guard m > 0 else { return }
        var src = a + pad
        var dst = b + pad
        if m < count {
            // The padding after a shorter run may hold an earlier, longer run's pixels (the kernel writes only the
            // run, so the padding after the whole row stays zero).
            (a + pad + m).update(repeating: .zero, count: pad)
            (b + pad + m).update(repeating: .zero, count: pad)
        }
        Self.interleave(row + columns.lowerBound, planes: planes, stride: stride, count: m, into: src)
        for _ in 0..<BlurPlan.passes {
            Self.extendedBox(src, dst, count: m, radius: plan.radius, fraction: plan.fraction, scale: plan.scale)
            swap(&src, &dst)
        }
        Self.deinterleave(src, planes: planes, stride: stride, count: m, into: row + columns.lowerBound)
    }

    /// Interleaves planes `0..<planes` of `row` into RGBA pixels (`lux_planar_to_float4`); with three planes the
    /// fourth lane is 1, which no other lane's pass reads.
    static func interleave(
        _ row: UnsafePointer<Float>, planes: Int, stride: Int, count n: Int,
        into out: UnsafeMutablePointer<SIMD4<Float>>
    ) {
        let f = UnsafeMutableRawPointer(out).assumingMemoryBound(to: Float.self)
        lux_planar_to_float4(row, row + stride, row + 2 * stride, planes == 4 ? row + 3 * stride : nil, f, n)
    }

    /// Splits RGBA pixels back into planes `0..<planes` of `row` (`lux_float4_to_planar`).
    static func deinterleave(
        _ src: UnsafePointer<SIMD4<Float>>, planes: Int, stride: Int, count n: Int,
        into row: UnsafeMutablePointer<Float>
    ) {
        let f = UnsafeRawPointer(src).assumingMemoryBound(to: Float.self)
        lux_float4_to_planar(f, row, row + stride, row + 2 * stride, planes == 4 ? row + 3 * stride : nil, n)
    }

    /// One extended-box pass over a zero-padded row:
    /// `dst[x] = (Σ src[x − r … x + r] + f·(src[x − r − 1] + src[x + r + 1])) / (2r + 1 + 2f)`,
    /// as four interleaved running sums over quarters of the row (the C kernel `lux_extended_box_rgba`).
    @inline(__always)
    static func extendedBox(
        _ src: UnsafePointer<SIMD4<Float>>, _ dst: UnsafeMutablePointer<SIMD4<Float>>, count n: Int, radius r: Int,
        fraction: Float, scale: Float
    ) {
        lux_extended_box_rgba(
            UnsafeRawPointer(src).assumingMemoryBound(to: Float.self),
            UnsafeMutableRawPointer(dst).assumingMemoryBound(to: Float.self), n, r, fraction, scale)
    }
}
