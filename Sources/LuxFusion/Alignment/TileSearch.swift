import LuxPixels

/// The coarse-to-fine search for whole-pixel tile displacements (HDR+ style).
///
/// The coarsest level's tiles are searched over the full radius around zero; each finer level searches around the
/// best of its starting points from the coarser level, and every level's field is regularized against repetitive
/// texture before the next one starts from it. The finest level is matched with an L1 distance and keeps the L2
/// costs of the 3×3 offsets around each starting point for the sub-pixel fit.
struct TileSearch: Sendable {
    /// The levels, finest first.
    let plan: [AlignmentLevelPlan]
    let threads: Int

    /// What the search found at the finest level, per block.
    struct Result: Sendable {
        /// The whole-pixel displacements.
        let displacements: [SIMD2<Int32>]
        /// The starting point each block was searched around.
        let starts: [SIMD2<Int32>]
        /// The L2 costs of the 3×3 offsets around each starting point, row by row (nine per block).
        let costGrid: [Float]
    }

    /// Searches every level of `alternate` against the same level of `reference` (pyramids on ``plan``).
    func run(reference: [PlanarBuffer<Float>], alternate: [PlanarBuffer<Float>]) -> Result {
        var coarse: [SIMD2<Int32>] = []
        var grid: [Float] = []
        let startCount = plan[0].columns * plan[0].rows
        let startStorage = UnsafeMutablePointer<SIMD2<Int32>>.allocate(capacity: startCount)
        // The finest level's L1 costs of the 3×3 offsets around each starting point (for its regularization).
        let l1GridStorage = UnsafeMutablePointer<Float>.allocate(capacity: 9 * startCount)
        defer {
            startStorage.deallocate()
            l1GridStorage.deallocate()
        }
        let starts = SendablePointer(startStorage)
        let l1Grid = SendablePointer(l1GridStorage)
        var coarsePlan: AlignmentLevelPlan? = nil
        for k in stride(from: plan.count - 1, through: 0, by: -1) {
            let p = plan[k]
            let ref = reference[k]
            let img = alternate[k]
            let previous = coarse
            let prevPlan = coarsePlan
            let scale = k + 1 < plan.count ? plan[k + 1].downsampling : 1
            let global = Self.median(previous) &* Int32(scale)
            let l1 = k == 0
            var result = [SIMD2<Int32>](repeating: .zero, count: p.columns * p.rows)
            var costs = [Float](repeating: 0, count: p.columns * p.rows)
            // At the finest level the L2 costs of the 3×3 offsets around the starting point are kept for the
            // sub-pixel fit.
            var levelGrid = [Float](repeating: 0, count: k == 0 ? 9 * p.columns * p.rows : 0)
            result.withUnsafeMutableBufferPointer { buffer in
                costs.withUnsafeMutableBufferPointer { costBuffer in
                    levelGrid.withUnsafeMutableBufferPointer { gridBuffer in
                        let out = SendablePointer(buffer.baseAddress!)
                        let costOut = SendablePointer(costBuffer.baseAddress!)
                        let gridOut = k == 0 ? gridBuffer.baseAddress.map(SendablePointer.init) : nil
                        Parallel.forEachBand(p.rows, threads: threads, minimumBand: 1) { rows in
                            for j in rows {
                                for i in 0..<p.columns {
                                    let index = j * p.columns + i
                                    let t = p.tile(i, j)
                                    // Starting points: the coarser tile under this block, its two nearest
                                    // neighbours, and the coarser level's median motion, scaled to this level.
                                    var candidates = CandidateList()
                                    if let cp = prevPlan {
                                        Self.candidates(
                                            i, j, plan: p, coarse: cp, displacements: previous, scale: scale,
                                            into: &candidates)
                                        candidates.append(global)
                                    } else {
                                        candidates.append(.zero)
                                    }
                                    var best = candidates[0]
                                    var bestCost = Float.infinity
                                    for n in 0..<candidates.count {
                                        let c = candidates[n]
                                        let cost = TileCost.cost(ref, img, t, Int(c.x), Int(c.y), l1: l1)
                                        if cost < bestCost {
                                            bestCost = cost
                                            best = c
                                        }
                                    }
                                    let start = best
                                    let r = Int32(p.searchRadius)
                                    if let gridOut {
                                        // ±1 at the finest level: L1 chooses, L2 is kept for the fit.
                                        let g = gridOut.pointer + 9 * index
                                        let g1 = l1Grid.pointer + 9 * index
                                        let (sx, sy) = (Int(start.x), Int(start.y))
                                        // The nine offsets in one pass where all are wide (both corners inside).
                                        let wide =
                                            TileCost.isWide(img, t, sx - 1, sy - 1)
                                            && TileCost.isWide(img, t, sx + 1, sy + 1)
                                        if wide { TileCost.wideGridCosts(ref, img, t, sx, sy, l1: g1, l2: g) }
                                        for dy in Int32(-1)...1 {
                                            for dx in Int32(-1)...1 {
                                                let cell = Int(dy + 1) * 3 + Int(dx + 1)
                                                if !wide {
                                                    let cost = TileCost.costs(ref, img, t, sx + Int(dx), sy + Int(dy))
                                                    g[cell] = cost.y
                                                    g1[cell] = cost.x
                                                }
                                                if g1[cell] < bestCost {
                                                    bestCost = g1[cell]
                                                    best = start &+ SIMD2(dx, dy)
                                                }
                                            }
                                        }
                                    }
                                    let searchFrom: Int32 = gridOut == nil ? 1 : 2
                                    if r >= searchFrom {
                                        for dy in -r...r {
                                            for dx in -r...r where max(abs(dx), abs(dy)) >= searchFrom {
                                                let cost = TileCost.cost(
                                                    ref, img, t, Int(start.x + dx), Int(start.y + dy), l1: l1)
                                                if cost < bestCost {
                                                    bestCost = cost
                                                    best = start &+ SIMD2(dx, dy)
                                                }
                                            }
                                        }
                                    }
                                    if gridOut != nil { starts.pointer[index] = start }
                                    out.pointer[index] = best
                                    costOut.pointer[index] = bestCost
                                }
                            }
                        }
                    }
                }
            }
            if k == 0 { grid = levelGrid }
            coarse = regularized(
                result, costs: costs, plan: p, ref: ref, alt: img, finest: k == 0 ? (starts, l1Grid) : nil)
            coarsePlan = p
        }
        return Result(
            displacements: coarse, starts: Array(UnsafeBufferPointer(start: startStorage, count: startCount)),
            costGrid: grid)
    }

    /// Replaces displacements that disagree with the median of their 3×3 neighbourhood, or with the median of the whole
    /// field, when that fits the tile almost as well (within 10 % of the cost): repetitive texture (windows, ripples)
    /// matches several offsets equally, and the consensus is the likelier motion.
    ///
    /// True motion keeps its own displacement because the consensus fits it much worse.
    ///
    /// `finest` holds the finest level's starting points and the L1 costs of the 3×3 offsets around them: a
    /// consensus among those offsets takes its cost from there where the 8-wide kernel computed it (the same bits).
    /// It is given exactly at the finest level, the one level matched with an L1 distance (the coarser ones use L2).
    func regularized(
        _ field: [SIMD2<Int32>], costs: [Float], plan p: AlignmentLevelPlan, ref: PlanarBuffer<Float>,
        alt: PlanarBuffer<Float>,
        finest: (starts: SendablePointer<SIMD2<Int32>>, l1Grid: SendablePointer<Float>)? = nil
    ) -> [SIMD2<Int32>] {
        let l1 = finest != nil
        var out = field
        let global = Self.median(field)
        out.withUnsafeMutableBufferPointer { buffer in
            let o = SendablePointer(buffer.baseAddress!)
            Parallel.forEachBand(p.rows, threads: threads, minimumBand: 1) { rows in
                var xs = [Int32](repeating: 0, count: 9)
                var ys = [Int32](repeating: 0, count: 9)
                for j in rows {
                    for i in 0..<p.columns {
                        var n = 0
                        for v in max(j - 1, 0)...min(j + 1, p.rows - 1) {
                            for u in max(i - 1, 0)...min(i + 1, p.columns - 1) {
                                xs[n] = field[v * p.columns + u].x
                                ys[n] = field[v * p.columns + u].y
                                n += 1
                            }
                        }
                        Self.insertionSort(&xs, count: n)
                        Self.insertionSort(&ys, count: n)
                        let index = j * p.columns + i
                        var bestCost = costs[index] * 1.1
                        let local = SIMD2(xs[n / 2], ys[n / 2])
                        for k in 0..<2 {
                            let m = k == 0 ? global : local
                            guard m != field[index] else { continue }
                            let t = p.tile(i, j)
                            let cost: Float
                            if let finest, TileCost.isWide(alt, t, Int(m.x), Int(m.y)),
                                case let e = m &- finest.starts.pointer[index], abs(e.x) <= 1, abs(e.y) <= 1
                            {
                                cost = finest.l1Grid.pointer[9 * index + Int(e.y + 1) * 3 + Int(e.x + 1)]
                            } else {
                                cost = TileCost.cost(ref, alt, t, Int(m.x), Int(m.y), l1: l1)
                            }
                            if cost <= bestCost {
                                o.pointer[index] = m
                                bestCost = cost
                            }
                        }
                    }
                }
            }
        }
        return out
    }

    /// Sorts the first `count` values of `values` (at most nine, the neighbourhood of a block) in place.
    @inline(__always)
    static func insertionSort(_ values: inout [Int32], count: Int) {
        values.withUnsafeMutableBufferPointer { v in
            for i in 1..<max(count, 1) {
                let x = v[i]
                var j = i
                while j > 0 && v[j - 1] > x {
                    v[j] = v[j - 1]
                    j -= 1
                }
                v[j] = x
            }
        }
    }

    /// The component-wise median of a field (zero for an empty one).
    static func median(_ field: [SIMD2<Int32>]) -> SIMD2<Int32> {
        guard !field.isEmpty else { return .zero }
        let xs = field.map(\.x).sorted()
        let ys = field.map(\.y).sorted()
        return SIMD2(xs[xs.count / 2], ys[ys.count / 2])
    }

    /// The starting displacements of block `(i, j)` taken from the coarser level.
    static func candidates(
        _ i: Int, _ j: Int, plan p: AlignmentLevelPlan, coarse cp: AlignmentLevelPlan, displacements: [SIMD2<Int32>],
        scale: Int,
        into out: inout CandidateList
    ) {
        let u = (Float(i) + 0.5) * Float(p.blockSize) / Float(scale) / Float(cp.blockSize) - 0.5
        let v = (Float(j) + 0.5) * Float(p.blockSize) / Float(scale) / Float(cp.blockSize) - 0.5
        let ci = min(max(Int(u.rounded()), 0), cp.columns - 1)
        let cj = min(max(Int(v.rounded()), 0), cp.rows - 1)
        let ni = min(max(u > Float(ci) ? ci + 1 : ci - 1, 0), cp.columns - 1)
        let nj = min(max(v > Float(cj) ? cj + 1 : cj - 1, 0), cp.rows - 1)
        let s = Int32(scale)
        out.append(displacements[cj * cp.columns + ci] &* s)
        out.append(displacements[cj * cp.columns + ni] &* s)
        out.append(displacements[nj * cp.columns + ci] &* s)
    }
}
