import LuxPixels
import LuxRender

/// Exact factor-2 resampling steps on a grid anchored at the origin.
///
/// For multi-resolution algorithms (large blurs now, pyramids later).
///
/// Unlike two consecutive affine transforms — which the engine folds into one resampling — these always run as
/// written.
extension Image {
    /// Half resolution: each output pixel is the mean of a 2×2 block (box filter, variance 1/4 px² per axis).
    func halvedResolution() -> Image {
        let kernel = GeneralKernel(name: "box2x2Down") { row in
            let s = row.sampler(0)
            let a = UnsafeRawPointer(s.row(2 * row.y) + 4 * (2 * row.x - s.minX))
            let b = UnsafeRawPointer(s.row(2 * row.y + 1) + 4 * (2 * row.x - s.minX))
            let out = UnsafeMutableRawPointer(row.output)
            // One RGBA pixel per four-lane vector: the two pixels of each row, summed pairwise as (a + a′) + (b + b′).
            for i in 0..<row.count {
                let a0 = a.loadUnaligned(fromByteOffset: 32 * i, as: SIMD4<Float>.self)
                let a1 = a.loadUnaligned(fromByteOffset: 32 * i + 16, as: SIMD4<Float>.self)
                let b0 = b.loadUnaligned(fromByteOffset: 32 * i, as: SIMD4<Float>.self)
                let b1 = b.loadUnaligned(fromByteOffset: 32 * i + 16, as: SIMD4<Float>.self)
                out.storeBytes(of: 0.25 * ((a0 + a1) + (b0 + b1)), toByteOffset: 16 * i, as: SIMD4<Float>.self)
            }
        }
        let e = extent
        let out =
            e.isInfinite
            ? e
            : Rect(
                minX: (e.minX / 2).rounded(.down), minY: (e.minY / 2).rounded(.down), maxX: (e.maxX / 2).rounded(.up),
                maxY: (e.maxY / 2).rounded(.up))
        return kernel.apply(extent: out, inputs: [self]) { _, r in
            Rect(minX: 2 * r.minX, minY: 2 * r.minY, maxX: 2 * r.maxX, maxY: 2 * r.maxY)
        }
    }

    /// Double resolution by linear interpolation between the half-resolution pixel centres (weights ¼ and
    /// ¾ in each direction).
    func doubledResolution() -> Image {
        let kernel = GeneralKernel(name: "linear2xUp") { row in
            let s = row.sampler(0)
            // Output row y (centre at half-resolution coordinate y/2 − 1/4) reads half-resolution rows j0 and
            // j0 + 1 with weights (1 − t, t); even rows sit ¾ of the way from j0 = y/2 − 1, odd rows ¼ from (y−1)/2.
            let y = row.y
            let even = y & 1 == 0
            let t: Float = even ? 0.75 : 0.25
            let top = UnsafeRawPointer(s.row(floorDiv(y, 2) - (even ? 1 : 0)))
            let bottom = top + 4 * s.rowStride
            let out = UnsafeMutableRawPointer(row.output)
            // Half-resolution column k blended between the two rows, one RGBA pixel per four-lane vector.
            @inline(__always) func column(_ k: Int) -> SIMD4<Float> {
                let upper = top.loadUnaligned(fromByteOffset: 16 * (k - s.minX), as: SIMD4<Float>.self)
                let lower = bottom.loadUnaligned(fromByteOffset: 16 * (k - s.minX), as: SIMD4<Float>.self)
                return upper + (lower - upper) * t
            }
            @inline(__always) func store(_ v: SIMD4<Float>, _ i: Int) {
                out.storeBytes(of: v, toByteOffset: 16 * i, as: SIMD4<Float>.self)
            }
            // Output column 2k is ¾ of the way from column k − 1 to k, 2k + 1 is ¼ of the way from k to k + 1: with
            // `a` = column k − 1 and `b` = column k, each pair of outputs blends one new column.
            var i = 0
            var k = floorDiv(row.x, 2)
            var a: SIMD4<Float>
            var b = column(k)
            if row.x & 1 != 0 {
                let c = column(k + 1)
                store(b + (c - b) * 0.25, 0)
                (i, k, a, b) = (1, k + 1, b, c)
            } else {
                a = column(k - 1)
            }
            while i + 1 < row.count {
                let c = column(k + 1)
                store(a + (b - a) * 0.75, i)
                store(b + (c - b) * 0.25, i + 1)
                (i, k, a, b) = (i + 2, k + 1, b, c)
            }
            if i < row.count { store(a + (b - a) * 0.75, i) }
        }
        let e = extent
        let out = e.isInfinite ? e : Rect(minX: 2 * e.minX, minY: 2 * e.minY, maxX: 2 * e.maxX, maxY: 2 * e.maxY)
        return kernel.apply(extent: out, inputs: [self]) { _, r in
            Rect(
                minX: floorDivD(r.minX - 1, 2), minY: floorDivD(r.minY - 1, 2), maxX: floorDivD(r.maxX, 2) + 1,
                maxY: floorDivD(r.maxY, 2) + 1)
        }
    }
}

@inline(__always)
func floorDiv(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : -((-a + b - 1) / b) }

func floorDivD(_ a: Double, _ b: Double) -> Double { (a / b).rounded(.down) }
