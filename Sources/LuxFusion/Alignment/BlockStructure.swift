import LuxPixels
import RealModule

/// What a reference frame's finest level tells about each of its blocks before any matching: the structure tensor of
/// the block's tile (how well its texture pins a displacement down) and the noise at the tile's level.
struct BlockStructure: Sendable {
    /// Per block: Σgx², Σgx·gy, Σgy², pixel count (over the tile inside a 1-pixel border).
    let tensors: [SIMD4<Float>]
    /// Per block: the grey noise variance at the tile's mean level.
    let noise: [Float]

    /// Measures the blocks of level `p0` (the finest of a plan) of `image`.
    init(_ image: PlanarBuffer<Float>, level p0: AlignmentLevelPlan, noise: GreyNoise, threads: Int) {
        let count = p0.columns * p0.rows
        let t = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: count)
        let nz = UnsafeMutablePointer<Float>.allocate(capacity: count)
        defer {
            t.deallocate()
            nz.deallocate()
        }
        let tp = SendablePointer(t)
        let np = SendablePointer(nz)
        Parallel.forEachBand(p0.rows, threads: threads, minimumBand: 1) { rows in
            for j in rows {
                for i in 0..<p0.columns {
                    let r = p0.gradientRegion(p0.tile(i, j))
                    var sxx: Float = 0
                    var sxy: Float = 0
                    var syy: Float = 0
                    var sum: Float = 0
                    if r.x1 > r.x0 && r.y1 > r.y0 {
                        for y in r.y0..<r.y1 {
                            let up = image.row(0, y - 1)
                            let mid = image.row(0, y)
                            let down = image.row(0, y + 1)
                            var a: Float = 0
                            var b: Float = 0
                            var c: Float = 0
                            var s: Float = 0
                            for x in r.x0..<r.x1 {
                                let gx = (mid[x + 1] - mid[x - 1]) * 0.5
                                let gy = (down[x] - up[x]) * 0.5
                                a = Relaxed.multiplyAdd(gx, gx, a)
                                b = Relaxed.multiplyAdd(gx, gy, b)
                                c = Relaxed.multiplyAdd(gy, gy, c)
                                s = Relaxed.sum(s, mid[x])
                            }
                            sxx += a
                            sxy += b
                            syy += c
                            sum += s
                        }
                    }
                    let n = Float(max(0, r.x1 - r.x0) * max(0, r.y1 - r.y0))
                    tp.pointer[j * p0.columns + i] = SIMD4(sxx, sxy, syy, n)
                    np.pointer[j * p0.columns + i] = noise.variance(at: n > 0 ? sum / n : 0)
                }
            }
        }
        tensors = Array(UnsafeBufferPointer(start: t, count: count))
        self.noise = Array(UnsafeBufferPointer(start: nz, count: count))
    }
}
