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
            let a = s.row(2 * row.y) + 4 * (2 * row.x - s.minX)
            let b = s.row(2 * row.y + 1) + 4 * (2 * row.x - s.minX)
            let out = row.output
            for i in 0..<row.count {
                for c in 0..<4 {
                    out[4 * i + c] = 0.25 * ((a[8 * i + c] + a[8 * i + 4 + c]) + (b[8 * i + c] + b[8 * i + 4 + c]))
                }
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
            let top = s.row(floorDiv(y, 2) - (even ? 1 : 0))
            let bottom = top + s.rowStride
            let out = row.output
            for i in 0..<row.count {
                let x = row.x + i
                let k0 = x & 1 == 0 ? floorDiv(x, 2) - 1 : floorDiv(x, 2)
                let u: Float = x & 1 == 0 ? 0.75 : 0.25
                let p = 4 * (k0 - s.minX)
                for c in 0..<4 {
                    let upper = top[p + c] + (top[p + 4 + c] - top[p + c]) * u
                    let lower = bottom[p + c] + (bottom[p + 4 + c] - bottom[p + c]) * u
                    out[4 * i + c] = upper + (lower - upper) * t
                }
            }
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
