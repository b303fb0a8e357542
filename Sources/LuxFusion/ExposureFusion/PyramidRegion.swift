/// A rectangle of one pyramid level, in that level's pixel coordinates (half-open).
struct LevelRect: Hashable {
    var x0: Int
    var y0: Int
    var x1: Int
    var y1: Int
    var width: Int { x1 - x0 }
    var height: Int { y1 - y0 }
    var area: Int { max(0, width) * max(0, height) }

    init(x: Range<Int>, y: Range<Int>) {
        x0 = x.lowerBound
        x1 = x.upperBound
        y0 = y.lowerBound
        y1 = y.upperBound
    }

    var xs: Range<Int> { x0..<x1 }
    var ys: Range<Int> { y0..<y1 }
}

/// Planar float storage for a ``LevelRect``, addressed by the level's absolute coordinates.
struct RegionPlanes {
    let rect: LevelRect
    let channels: Int
    let stride: Int
    let base: UnsafeMutablePointer<Float>

    /// Row `y` of channel `c`, offset so that `[x]` reads absolute column `x`.
    @inline(__always)
    func row(_ c: Int, _ y: Int) -> UnsafeMutablePointer<Float> {
        assert(rect.ys.contains(y), "row \(y) outside \(rect)")
        return base + (c * rect.height + (y - rect.y0)) * stride - rect.x0
    }

    static func floats(for rect: LevelRect, channels: Int) -> Int { channels * rect.height * ((rect.width + 15) & ~15) }
}

/// A bump allocator over one allocation, reset per tile.
struct Arena {
    let base: UnsafeMutablePointer<Float>
    let capacity: Int
    var used = 0

    init(capacity: Int) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    mutating func planes(_ rect: LevelRect, channels: Int) -> RegionPlanes {
        let stride = (rect.width + 15) & ~15
        let count = channels * rect.height * stride
        precondition(used + count <= capacity, "tile arena too small")
        let p = base + used
        used += (count + 15) & ~15
        return RegionPlanes(rect: rect, channels: channels, stride: stride, base: p)
    }

    mutating func floats(_ count: Int) -> UnsafeMutablePointer<Float> {
        precondition(used + count <= capacity, "tile arena too small")
        let p = base + used
        used += (count + 15) & ~15
        return p
    }

    mutating func reset() { used = 0 }
    func deallocate() { base.deallocate() }
}

/// Which rows (or columns) of each pyramid level a tile computes, along one axis.
///
/// The recursions follow the 5-tap REDUCE (coarse `i` reads fine `2i−2 … 2i+2`) and EXPAND (fine `i` reads coarse
/// `i/2 − 1 … i/2 + 1`) supports; reflected indices at image edges stay inside the ranges because every range that
/// touches an edge starts (or ends) at it.
struct AxisPlan {
    /// Per level `0…F`: where Laplacians are blended and the pyramid collapsed (level 0: the tile's interior).
    var blend: [Range<Int>]
    /// Per level `0…F−1` (pass 2) or `0…F` (pass 1): where Gaussian levels are computed.
    var gaussian: [Range<Int>]
    /// Level-0 samples read from the frames (the Gaussian range plus one for the Laplacian contrast).
    var load: Range<Int>

    static func clamp(_ r: Range<Int>, _ n: Int) -> Range<Int> { max(r.lowerBound, 0)..<min(r.upperBound, n) }

    static func union(_ a: Range<Int>, _ b: Range<Int>) -> Range<Int> {
        min(a.lowerBound, b.lowerBound)..<max(a.upperBound, b.upperBound)
    }

    /// The fine samples a REDUCE of `r` reads.
    static func reduceSupport(_ r: Range<Int>, _ n: Int) -> Range<Int> {
        clamp((2 * r.lowerBound - 2)..<(2 * (r.upperBound - 1) + 3), n)
    }

    /// The coarse samples an EXPAND of `r` reads.
    static func expandSupport(_ r: Range<Int>, _ n: Int) -> Range<Int> {
        clamp((r.lowerBound / 2 - 1)..<((r.upperBound - 1) / 2 + 2), n)
    }

    /// The blending pass: `interior` at level 0, sizes per level, `f` fine levels.
    static func blending(interior: Range<Int>, sizes: [Int], fine f: Int) -> AxisPlan {
        var blend = [interior]
        for l in 0..<f { blend.append(expandSupport(blend[l], sizes[l + 1])) }
        var gaussian = [Range<Int>](repeating: 0..<0, count: f)
        gaussian[f - 1] = blend[f - 1]
        for l in stride(from: f - 2, through: 0, by: -1) {
            gaussian[l] = union(blend[l], reduceSupport(gaussian[l + 1], sizes[l]))
        }
        let load = clamp((gaussian[0].lowerBound - 1)..<(gaussian[0].upperBound + 1), sizes[0])
        return AxisPlan(blend: blend, gaussian: gaussian, load: load)
    }

    /// The reduction pass: `interior` at level `f`.
    static func reduction(interior: Range<Int>, sizes: [Int], fine f: Int) -> AxisPlan {
        var gaussian = [Range<Int>](repeating: 0..<0, count: f + 1)
        gaussian[f] = interior
        for l in stride(from: f - 1, through: 0, by: -1) { gaussian[l] = reduceSupport(gaussian[l + 1], sizes[l]) }
        let load = clamp((gaussian[0].lowerBound - 1)..<(gaussian[0].upperBound + 1), sizes[0])
        return AxisPlan(blend: [], gaussian: gaussian, load: load)
    }
}

/// REDUCE and EXPAND (Burt–Adelson, 5-tap binomial, mirrored at image edges) between region buffers.
enum RegionPyramid {
    /// The binomial taps.
    static let k: (Float, Float, Float) = (0.375, 0.25, 0.0625)

    /// `dst = REDUCE(src)` on `dst.rect` (rows and columns of the coarser level), for `channels` channels.
    ///
    /// `fineSize` is the finer level's (width, height); `tmp` holds at least `src.rect.width + 4` floats.
    static func reduce(
        _ src: RegionPlanes, into dst: RegionPlanes, channels: Int, fineSize: (Int, Int),
        tmp: UnsafeMutablePointer<Float>
    ) {
        let (fw, fh) = fineSize
        let sx0 = src.rect.x0
        let sx1 = src.rect.x1
        // Columns of dst whose taps need no mirroring.
        let safeLo = max(dst.rect.x0, 1)
        let safeHi = min(dst.rect.x1, (fw - 3) / 2 + 1)
        let t = tmp - sx0  // absolute-indexed
        for c in 0..<channels {
            for y in dst.rect.ys {
                let r0 = src.row(c, reflect101(2 * y - 2, fh))
                let r1 = src.row(c, reflect101(2 * y - 1, fh))
                let r2 = src.row(c, reflect101(2 * y, fh))
                let r3 = src.row(c, reflect101(2 * y + 1, fh))
                let r4 = src.row(c, reflect101(2 * y + 2, fh))
                for x in sx0..<sx1 {
                    t[x] = (r0[x] + r4[x]) * 0.0625 + (r1[x] + r3[x]) * 0.25 + r2[x] * 0.375
                }
                let o = dst.row(c, y)
                if safeLo < safeHi {
                    for x in safeLo..<safeHi {
                        let i = 2 * x
                        o[x] = (t[i - 2] + t[i + 2]) * 0.0625 + (t[i - 1] + t[i + 1]) * 0.25 + t[i] * 0.375
                    }
                }
                for x in dst.rect.xs where x < safeLo || x >= safeHi {
                    let i = 2 * x
                    o[x] =
                        (t[reflect101(i - 2, fw)] + t[reflect101(i + 2, fw)]) * 0.0625
                        + (t[reflect101(i - 1, fw)] + t[reflect101(i + 1, fw)]) * 0.25 + t[reflect101(i, fw)] * 0.375
                }
            }
        }
    }

    /// The coarse samples and weights that EXPAND combines for fine sample `i` of a level of size `n`
    /// (taps on the zero-stuffed fine grid, mirrored there).
    @inline(__always)
    static func expandTaps(_ i: Int, _ n: Int) -> (SIMD3<Int32>, SIMD3<Float>) {
        var idx = SIMD3<Int32>(0, 0, 0)
        var w = SIMD3<Float>(0, 0, 0)
        var count = 0
        let weights = SIMD8<Float>(0.125, 0.5, 0.75, 0.5, 0.125, 0, 0, 0)
        for d in -2...2 {
            let j = reflect101(i + d, n)
            if j & 1 == 0 {
                let coarse = Int32(j / 2)
                var placed = false
                for q in 0..<count where idx[q] == coarse {
                    w[q] += weights[d + 2]
                    placed = true
                }
                if !placed {
                    idx[count] = coarse
                    w[count] = weights[d + 2]
                    count += 1
                }
            }
        }
        return (idx, w)
    }

    /// Writes EXPAND(`src`) for fine row `y`, columns `xs`, channel `c` into `out` (absolute-indexed: `out[x]`).
    ///
    /// `fineSize` is the finer level's (width, height); `tmp` holds at least `src.rect.width + 4` floats.
    @inline(__always)
    static func expandRow(
        _ src: RegionPlanes, channel c: Int, y: Int, xs: Range<Int>, fineSize: (Int, Int),
        into out: UnsafeMutablePointer<Float>, tmp: UnsafeMutablePointer<Float>
    ) {
        let (fw, fh) = fineSize
        let (rows, wy) = expandTaps(y, fh)
        let t = tmp - src.rect.x0
        let a = src.row(c, Int(rows[0]))
        let cxs = expandSupport(xs, fw, coarse: src.rect.xs)
        if wy[1] == 0 {
            let wa = wy[0]
            for x in cxs { t[x] = wa * a[x] }
        } else if wy[2] == 0 {
            let b = src.row(c, Int(rows[1]))
            let wa = wy[0]
            let wb = wy[1]
            for x in cxs { t[x] = wa * a[x] + wb * b[x] }
        } else {
            let b = src.row(c, Int(rows[1]))
            let d = src.row(c, Int(rows[2]))
            let wa = wy[0]
            let wb = wy[1]
            let wd = wy[2]
            for x in cxs { t[x] = wa * a[x] + wb * b[x] + wd * d[x] }
        }
        // Interior columns: even x = 2m → 0.125·t[m−1] + 0.75·t[m] + 0.125·t[m+1]; odd → 0.5·(t[m] + t[m+1]).
        let lo = max(xs.lowerBound, 2)
        let hi = min(xs.upperBound, fw - 2)
        if lo < hi {
            var x = lo
            if x & 1 == 1 {
                out[x] = 0.5 * (t[x >> 1] + t[(x >> 1) + 1])
                x += 1
            }
            let pairs = (hi - x) / 2
            let o = out + x
            let tm = t + (x >> 1)
            for p in 0..<pairs {
                o[2 * p] = 0.125 * (tm[p - 1] + tm[p + 1]) + 0.75 * tm[p]
                o[2 * p + 1] = 0.5 * (tm[p] + tm[p + 1])
            }
            x += 2 * pairs
            if x < hi {
                out[x] = 0.125 * (t[(x >> 1) - 1] + t[(x >> 1) + 1]) + 0.75 * t[x >> 1]
            }
        }
        for x in xs where x < lo || x >= hi {
            let (cols, wx) = expandTaps(x, fw)
            var v = wx[0] * t[Int(cols[0])]
            if wx[1] != 0 { v += wx[1] * t[Int(cols[1])] }
            if wx[2] != 0 { v += wx[2] * t[Int(cols[2])] }
            out[x] = v
        }
    }

    /// The coarse columns an EXPAND of fine columns `xs` reads, limited to what `coarse` holds.
    @inline(__always)
    static func expandSupport(_ xs: Range<Int>, _ fw: Int, coarse: Range<Int>) -> Range<Int> {
        let r = AxisPlan.expandSupport(xs, (fw + 1) / 2)
        return max(r.lowerBound, coarse.lowerBound)..<min(r.upperBound, coarse.upperBound)
    }
}
