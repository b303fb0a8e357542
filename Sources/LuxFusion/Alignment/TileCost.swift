import CLuxKernels
import LuxPixels
import RealModule

/// The matching costs of a reference tile against a displaced tile of another frame, on single-plane grey images.
///
/// Each function is one concrete loop over row pointers (inside tiles of whole 8-wide vectors, one reduction per
/// tile); coordinates outside the other frame are clamped to its edges.
enum TileCost {
    /// Σ|r − a| (L1) or Σ(r − a)² (L2) over tile `t` of `ref` against `alt` displaced by `(dx, dy)` (alt
    /// coordinates clamped to its edges).
    @inline(__always)
    static func cost(
        _ ref: PlanarBuffer<Float>, _ alt: PlanarBuffer<Float>, _ t: (x0: Int, y0: Int, x1: Int, y1: Int), _ dx: Int,
        _ dy: Int, l1: Bool
    ) -> Float {
        if isWide(alt, t, dx, dy) {
            // Whole 8-wide vectors per row, one reduction per tile.
            let costs = wideCosts(ref, alt, t, dx, dy)
            return l1 ? costs.x : costs.y
        }
        let n = t.x1 - t.x0
        var total: Float = 0
        if isInside(alt, t, dx, dy) {
            for y in t.y0..<t.y1 {
                let r = ref.row(0, y) + t.x0
                let a = alt.row(0, y + dy) + t.x0 + dx
                var s: Float = 0
                if l1 {
                    for x in 0..<n { s = Relaxed.sum(s, abs(r[x] - a[x])) }
                } else {
                    for x in 0..<n {
                        let d = r[x] - a[x]
                        s = Relaxed.multiplyAdd(d, d, s)
                    }
                }
                total += s
            }
        } else {
            for y in t.y0..<t.y1 {
                let r = ref.row(0, y)
                let a = alt.row(0, min(max(y + dy, 0), alt.height - 1))
                var s: Float = 0
                for x in t.x0..<t.x1 {
                    let d = r[x] - a[min(max(x + dx, 0), alt.width - 1)]
                    s += l1 ? abs(d) : d * d
                }
                total += s
            }
        }
        return total
    }

    /// Whether tile `t` displaced by `(dx, dy)` lies inside `alt` and is a whole number of 8-wide vectors wide: then
    /// ``cost(_:_:_:_:_:l1:)`` and ``costs(_:_:_:_:_:)`` both take ``wideCosts(_:_:_:_:_:)``'s sums (the same bits).
    @inline(__always)
    static func isWide(_ alt: PlanarBuffer<Float>, _ t: (x0: Int, y0: Int, x1: Int, y1: Int), _ dx: Int, _ dy: Int)
        -> Bool
    {
        isInside(alt, t, dx, dy) && (t.x1 - t.x0) & 7 == 0
    }

    /// Whether tile `t` displaced by `(dx, dy)` lies inside `alt`.
    @inline(__always)
    static func isInside(_ alt: PlanarBuffer<Float>, _ t: (x0: Int, y0: Int, x1: Int, y1: Int), _ dx: Int, _ dy: Int)
        -> Bool
    {
        t.x0 + dx >= 0 && t.x1 + dx <= alt.width && t.y0 + dy >= 0 && t.y1 + dy <= alt.height
    }

    /// (Σ|r − a|, Σ(r − a)²) of an inside tile whose width is a multiple of 8, with 8-wide accumulators (the C
    /// kernel `lux_tile_cost_lanes`, AVX2 where the CPU has it), reduced here.
    @inline(__always)
    static func wideCosts(
        _ ref: PlanarBuffer<Float>, _ alt: PlanarBuffer<Float>, _ t: (x0: Int, y0: Int, x1: Int, y1: Int), _ dx: Int,
        _ dy: Int
    ) -> SIMD2<Float> {
        var s1 = SIMD8<Float>()
        var s2 = SIMD8<Float>()
        withUnsafeMutableBytes(of: &s1) { l1 in
            withUnsafeMutableBytes(of: &s2) { l2 in
                lux_tile_cost_lanes(
                    ref.row(0, t.y0) + t.x0, ref.rowStride, alt.row(0, t.y0 + dy) + t.x0 + dx, alt.rowStride,
                    t.x1 - t.x0, t.y1 - t.y0, l1.baseAddress!.assumingMemoryBound(to: Float.self),
                    l2.baseAddress!.assumingMemoryBound(to: Float.self))
            }
        }
        return SIMD2(s1.sum(), s2.sum())
    }

    /// ``wideCosts(_:_:_:_:_:)`` at the 3×3 offsets around `(dx, dy)` (every one of them wide), in one pass of the C
    /// kernel `lux_tile_cost_grid`: the L1 cost of offset `(dx + u, dy + v)` goes to `l1[3·(v + 1) + u + 1]`, its L2
    /// cost to `l2[…]` (the same bits as nine calls).
    @inline(__always)
    static func wideGridCosts(
        _ ref: PlanarBuffer<Float>, _ alt: PlanarBuffer<Float>, _ t: (x0: Int, y0: Int, x1: Int, y1: Int), _ dx: Int,
        _ dy: Int, l1: UnsafeMutablePointer<Float>, l2: UnsafeMutablePointer<Float>
    ) {
        withUnsafeTemporaryAllocation(of: SIMD8<Float>.self, capacity: 18) { lanes in
            let base = UnsafeMutableRawPointer(lanes.baseAddress!).assumingMemoryBound(to: Float.self)
            lux_tile_cost_grid(
                ref.row(0, t.y0) + t.x0, ref.rowStride, alt.row(0, t.y0 + dy) + t.x0 + dx, alt.rowStride,
                t.x1 - t.x0, t.y1 - t.y0, base, base + 72)
            for k in 0..<9 {
                l1[k] = lanes[k].sum()
                l2[k] = lanes[9 + k].sum()
            }
        }
    }

    /// (Σ|r − a|, Σ(r − a)²) over tile `t` of `ref` against `alt` displaced by `(dx, dy)`.
    @inline(__always)
    static func costs(
        _ ref: PlanarBuffer<Float>, _ alt: PlanarBuffer<Float>, _ t: (x0: Int, y0: Int, x1: Int, y1: Int), _ dx: Int,
        _ dy: Int
    ) -> SIMD2<Float> {
        if isWide(alt, t, dx, dy) { return wideCosts(ref, alt, t, dx, dy) }
        let n = t.x1 - t.x0
        var l1: Float = 0
        var l2: Float = 0
        if isInside(alt, t, dx, dy) {
            for y in t.y0..<t.y1 {
                let r = ref.row(0, y) + t.x0
                let a = alt.row(0, y + dy) + t.x0 + dx
                var s1: Float = 0
                var s2: Float = 0
                for x in 0..<n {
                    let d = r[x] - a[x]
                    s1 = Relaxed.sum(s1, abs(d))
                    s2 = Relaxed.multiplyAdd(d, d, s2)
                }
                l1 += s1
                l2 += s2
            }
        } else {
            for y in t.y0..<t.y1 {
                let r = ref.row(0, y)
                let a = alt.row(0, min(max(y + dy, 0), alt.height - 1))
                for x in t.x0..<t.x1 {
                    let d = r[x] - a[min(max(x + dx, 0), alt.width - 1)]
                    l1 += abs(d)
                    l2 += d * d
                }
            }
        }
        return SIMD2(l1, l2)
    }
}
