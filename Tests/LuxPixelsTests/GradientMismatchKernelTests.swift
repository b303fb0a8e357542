import CLuxKernels
import LuxTestSupport
import Testing

/// The Lucas–Kanade sums of burst alignment (`lux_gradient_mismatch`) against their definition written as scalar
/// Swift, on both of the kernel's paths: the same bits.
@Suite(.serialized) struct GradientMismatchKernelTests {
    static let stride = 61

    /// Two 61 × 40 frames of pseudo-random samples.
    static let frames: [[Float]] = {
        var random = SplitMix(seed: 2024)
        return (0..<2).map { _ in (0..<(stride * 40)).map { _ in random.unit() * 1.5 - 0.25 } }
    }()

    /// The definition of the sums.
    ///
    /// Per row, lane k (+0 for lane 0, −0 for the others) adds the terms of columns k, k + 4, … of the whole groups of
    /// four; the lanes are reduced as (l0 + l2) + (l1 + l3) and the other columns added one by one (rows shorter than
    /// four: one by one from +0); the rows are added in order. `sequential` sums every row one column after the other
    /// instead (a changed order, which the kernel must not match).
    static func reference(
        x0: Int, y0: Int, ax0: Int, ay0: Int, width: Int, rows: Int, weights w: (Float, Float, Float, Float),
        sequential: Bool = false
    ) -> SIMD2<Float> {
        let (ref, alt, s) = (frames[0], frames[1], stride)
        var bx: Float = 0
        var by: Float = 0
        let whole = sequential || width < 4 ? 0 : width & ~3
        for y in 0..<rows {
            let mid = (y0 + y) * s + x0
            let p0 = (ay0 + y) * s + ax0
            let p1 = p0 + s
            func terms(_ x: Int) -> (Float, Float) {
                var value = w.0 * alt[p0 + x]
                value = value + w.1 * alt[p0 + x + 1]
                value = value + w.2 * alt[p1 + x]
                value = value + w.3 * alt[p1 + x + 1]
                let e = value - ref[mid + x]
                let gx = (ref[mid + x + 1] - ref[mid + x - 1]) * 0.5
                let gy = (ref[mid + s + x] - ref[mid - s + x]) * 0.5
                return (gx * e, gy * e)
            }
            var sx: Float = 0
            var sy: Float = 0
            if whole > 0 {
                var lx: [Float] = [0, -0.0, -0.0, -0.0]
                var ly: [Float] = [0, -0.0, -0.0, -0.0]
                for x in 0..<whole {
                    let (tx, ty) = terms(x)
                    lx[x % 4] = lx[x % 4] + tx
                    ly[x % 4] = ly[x % 4] + ty
                }
                sx = (lx[0] + lx[2]) + (lx[1] + lx[3])
                sy = (ly[0] + ly[2]) + (ly[1] + ly[3])
            }
            for x in whole..<width {
                let (tx, ty) = terms(x)
                sx = sx + tx
                sy = sy + ty
            }
            bx = bx + sx
            by = by + sy
        }
        return SIMD2(bx, by)
    }

    static func kernel(
        x0: Int, y0: Int, ax0: Int, ay0: Int, width: Int, rows: Int, weights w: (Float, Float, Float, Float)
    ) -> SIMD2<Float> {
        var out: [Float] = [.nan, .nan]
        frames[0].withUnsafeBufferPointer { ref in
            frames[1].withUnsafeBufferPointer { alt in
                lux_gradient_mismatch(
                    ref.baseAddress! + y0 * stride + x0, stride, alt.baseAddress! + ay0 * stride + ax0, stride,
                    width, rows, w.0, w.1, w.2, w.3, &out)
            }
        }
        return SIMD2(out[0], out[1])
    }

    /// Bilinear weights of a displacement's fraction (as the refinement computes them).
    static func weights(_ ax: Float, _ ay: Float) -> (Float, Float, Float, Float) {
        ((1 - ax) * (1 - ay), ax * (1 - ay), (1 - ax) * ay, ax * ay)
    }

    @Test(
        "sums match the definition on both paths",
        arguments: [(16, 16), (24, 20), (32, 9), (17, 5), (13, 7), (12, 3), (4, 2), (3, 6), (1, 1), (0, 4), (5, 0)])
    func matchesDefinition(width: Int, rows: Int) {
        let w = Self.weights(0.3125, 0.71)
        // The reference region at (7, 5); the other frame's samples from (7 − 3, 5 + 2) on.
        let expected = Self.reference(x0: 7, y0: 5, ax0: 4, ay0: 7, width: width, rows: rows, weights: w)
        KernelPaths.each { portable in
            let got = Self.kernel(x0: 7, y0: 5, ax0: 4, ay0: 7, width: width, rows: rows, weights: w)
            #expect(got.x.bitPattern == expected.x.bitPattern, "portable: \(portable)")
            #expect(got.y.bitPattern == expected.y.bitPattern, "portable: \(portable)")
        }
    }

    @Test("a sum in another order gives other bits on these frames")
    func orderMatters() {
        let w = Self.weights(0.625, 0.125)
        var differing = 0
        for width in [16, 24, 32] {
            let got = Self.kernel(x0: 9, y0: 3, ax0: 10, ay0: 2, width: width, rows: 16, weights: w)
            let plain = Self.reference(
                x0: 9, y0: 3, ax0: 10, ay0: 2, width: width, rows: 16, weights: w, sequential: true)
            let expected = Self.reference(x0: 9, y0: 3, ax0: 10, ay0: 2, width: width, rows: 16, weights: w)
            #expect(got == expected)
            if got != plain { differing += 1 }
        }
        #expect(differing > 0)
    }
}
