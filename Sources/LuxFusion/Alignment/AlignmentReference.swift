import LuxPixels
import RealModule

/// A reference frame prepared for alignment: its grey pyramid, the level plan and, for the finest level, each
/// block's structure tensor and noise (shared by every frame aligned to it).
struct AlignmentReference: Sendable {
    /// One level of the plan, in its own pixels.
    struct LevelPlan: Sendable {
        var downsampling: Int
        var tileSize: Int
        var blockSize: Int
        var searchRadius: Int
        var width: Int
        var height: Int
        var columns: Int { (width + blockSize - 1) / blockSize }
        var rows: Int { (height + blockSize - 1) / blockSize }

        /// The tile of block `(i, j)` clipped to the level.
        @inline(__always)
        func tile(_ i: Int, _ j: Int) -> (x0: Int, y0: Int, x1: Int, y1: Int) {
            let pad = (tileSize - blockSize) / 2
            let x0 = i * blockSize - pad
            let y0 = j * blockSize - pad
            return (max(x0, 0), max(y0, 0), min(x0 + tileSize, width), min(y0 + tileSize, height))
        }
    }

    let plan: [LevelPlan]
    let levels: [PlanarBuffer<Float>]
    let refinementIterations: Int
    let refinesToSubpixel: Bool
    let threads: Int
    /// Per finest-level block: Σgx², Σgx·gy, Σgy², pixel count (over the tile inside a 1-pixel border).
    let tensors: [SIMD4<Float>]
    /// Per finest-level block: the grey noise variance at the tile's mean level.
    let blockNoise: [Float]
    /// Whether the finest level is smoothed (noisy frames).
    let prefilter: Bool
    /// The radius in blocks over which the sub-pixel field is averaged (noisy frames), 0 for none.
    let smoothingRadius: Int
    /// The variance of a central-difference gradient of the finest level per unit of pixel noise variance.
    let gradientNoiseFactor: Float

    init(grey: PlanarBuffer<Float>, settings: TileAligner.Settings, noise: GreyNoise) {
        threads = settings.threadCount
        refinementIterations = settings.refinementIterations
        refinesToSubpixel = settings.refinesToSubpixel
        // The plan: stop before a level gets smaller than its tile.
        var plan: [LevelPlan] = []
        var w = grey.width
        var h = grey.height
        var total = 1
        for (k, l) in settings.levels.enumerated() {
            if k > 0 {
                var (nw, nh) = (w, h)
                for _ in 0..<(l.downsampling == 4 ? 2 : 1) {
                    nw = (nw + 1) / 2
                    nh = (nh + 1) / 2
                }
                if nw < l.tileSize || nh < l.tileSize { break }
                (w, h) = (nw, nh)
                total *= l.downsampling
            }
            plan.append(
                LevelPlan(
                    downsampling: l.downsampling, tileSize: l.tileSize,
                    blockSize: k == 0 && settings.finestTilesOverlap ? l.tileSize / 2 : l.tileSize,
                    searchRadius: l.searchRadius, width: w, height: h))
        }
        // Noisy frames: smooth the finest level, enlarge its tiles (the block grid stays) and average the field.
        var smooth = false
        var fieldRadius = 0
        if settings.isNoiseAdaptive {
            let snr = Self.signalToNoise(grey, noise: noise)
            if snr < 12.6 {  // 22 dB
                smooth = true
                let t = plan[0].tileSize
                plan[0].tileSize = snr < 5 ? 2 * t : t + ((t / 2 + 1) & ~1)
                fieldRadius = snr < 5 ? 2 : 1
            }
        }
        prefilter = smooth
        smoothingRadius = fieldRadius
        // Central difference [−½ 0 ½]: σ²/2; after the 5×5 binomial: 84/1024 · 70/256 of σ².
        gradientNoiseFactor = smooth ? 0.022_43 : 0.5
        // The coarsest search must reach the largest expected displacement.
        let reach = Int((settings.maximumDisplacement * Double(grey.width) / Double(total)).rounded(.up)) + 1
        plan[plan.count - 1].searchRadius = min(max(plan[plan.count - 1].searchRadius, reach), 64)
        self.plan = plan
        levels = Self.pyramid(grey, plan: plan, smooth: smooth, threads: threads)

        // Structure tensors and noise of the finest blocks.
        let p0 = plan[0]
        let count = p0.columns * p0.rows
        let t = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: count)
        let nz = UnsafeMutablePointer<Float>.allocate(capacity: count)
        defer {
            t.deallocate()
            nz.deallocate()
        }
        let tp = SendablePointer(t)
        let np = SendablePointer(nz)
        let image = levels[0]
        Parallel.forEachBand(p0.rows, threads: threads, minimumBand: 1) { rows in
            for j in rows {
                for i in 0..<p0.columns {
                    let r = Self.gradientRegion(p0.tile(i, j), width: p0.width, height: p0.height)
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
        blockNoise = Array(UnsafeBufferPointer(start: nz, count: count))
    }

    /// The part of a tile where central differences exist (one pixel inside the image).
    @inline(__always)
    static func gradientRegion(_ t: (x0: Int, y0: Int, x1: Int, y1: Int), width: Int, height: Int)
        -> (x0: Int, y0: Int, x1: Int, y1: Int)
    {
        (max(t.x0, 1), max(t.y0, 1), min(t.x1, width - 1), min(t.y1, height - 1))
    }

    static func pyramid(_ grey: PlanarBuffer<Float>, plan: [LevelPlan], smooth: Bool, threads: Int) -> [PlanarBuffer<
        Float
    >] {
        var out = [grey]
        for l in plan.dropFirst() {
            var image = out[out.count - 1].reducedBinomial(threads: threads)
            if l.downsampling == 4 { image = image.reducedBinomial(threads: threads) }
            out.append(image)
        }
        if smooth { out[0] = grey.smoothedBinomial(threads: threads) }
        return out
    }

    /// The pyramid of another frame's grey image, on this reference's plan.
    func pyramid(of grey: PlanarBuffer<Float>) -> [PlanarBuffer<Float>] {
        Self.pyramid(grey, plan: plan, smooth: prefilter, threads: threads)
    }

    /// The ratio of the median grey level to the noise there (from a sample of rows).
    static func signalToNoise(_ grey: PlanarBuffer<Float>, noise: GreyNoise) -> Float {
        var samples: [Float] = []
        let step = max(1, grey.height / 64)
        for y in stride(from: 0, to: grey.height, by: step) {
            let r = grey.row(0, y)
            for x in stride(from: 0, to: grey.width, by: 4) { samples.append(r[x]) }
        }
        let k = samples.count / 2
        samples.withUnsafeMutableBufferPointer { NoiseEstimate.select($0, k) }
        let m = max(samples[k], 0)
        return m / max(noise.variance(at: m).squareRoot(), 1e-12)
    }

    /// The displacement field of `alt` (a pyramid from ``pyramid(of:)``), in grey pixels.
    func align(_ alt: [PlanarBuffer<Float>]) -> AlignmentField {
        precondition(alt.count == levels.count)
        // Coarse to fine: integer displacements per block.
        var coarse: [SIMD2<Int32>] = []
        var grid: [Float] = []
        let startStorage = UnsafeMutablePointer<SIMD2<Int32>>.allocate(capacity: plan[0].columns * plan[0].rows)
        defer { startStorage.deallocate() }
        let starts = SendablePointer(startStorage)
        var coarsePlan: LevelPlan? = nil
        for k in stride(from: plan.count - 1, through: 0, by: -1) {
            let p = plan[k]
            let ref = levels[k]
            let img = alt[k]
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
                                        let cost = Self.tileCost(ref, img, t, Int(c.x), Int(c.y), l1: l1)
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
                                        for dy in Int32(-1)...1 {
                                            for dx in Int32(-1)...1 {
                                                let cost = Self.tileCosts(
                                                    ref, img, t, Int(start.x + dx), Int(start.y + dy))
                                                g[Int(dy + 1) * 3 + Int(dx + 1)] = cost.y
                                                if cost.x < bestCost {
                                                    bestCost = cost.x
                                                    best = start &+ SIMD2(dx, dy)
                                                }
                                            }
                                        }
                                    }
                                    let searchFrom: Int32 = gridOut == nil ? 1 : 2
                                    if r >= searchFrom {
                                        for dy in -r...r {
                                            for dx in -r...r where max(abs(dx), abs(dy)) >= searchFrom {
                                                let cost = Self.tileCost(
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
            coarse = regularized(result, costs: costs, plan: p, ref: ref, alt: img, l1: l1)
            coarsePlan = p
        }
        // Sub-pixel: quadratic fit of the L2 cost, then Lucas–Kanade.
        let p0 = plan[0]
        var field = AlignmentField(blockSize: p0.blockSize, columns: p0.columns, rows: p0.rows)
        let integer = coarse
        let costGrid = grid
        var displacements = [SIMD2<Float>](repeating: .zero, count: p0.columns * p0.rows)
        var confidences = [Float](repeating: 0, count: p0.columns * p0.rows)
        displacements.withUnsafeMutableBufferPointer { dBuffer in
            confidences.withUnsafeMutableBufferPointer { cBuffer in
                let dOut = SendablePointer(dBuffer.baseAddress!)
                let cOut = SendablePointer(cBuffer.baseAddress!)
                Parallel.forEachBand(p0.rows, threads: threads, minimumBand: 1) { rows in
                    for j in rows {
                        for i in 0..<p0.columns {
                            let index = j * p0.columns + i
                            let known = costGrid.withUnsafeBufferPointer { g in
                                SIMD16<Float>(
                                    g[9 * index], g[9 * index + 1], g[9 * index + 2], g[9 * index + 3],
                                    g[9 * index + 4], g[9 * index + 5], g[9 * index + 6], g[9 * index + 7],
                                    g[9 * index + 8], 0, 0, 0, 0, 0, 0, 0)
                            }
                            let (d, confidence) = refine(
                                i, j, integer[index], alt: alt[0], known: known, knownCentre: starts.pointer[index])
                            dOut.pointer[index] = d
                            cOut.pointer[index] = confidence
                        }
                    }
                }
            }
        }
        field.displacements =
            smoothingRadius > 0
            ? Self.smoothed(displacements, confidences: confidences, plan: p0, radius: smoothingRadius)
            : displacements
        field.confidences = confidences
        return Self.anchored(field)
    }

    /// Blocks without texture (confidence below 0.1) take the camera motion fitted robustly to the textured ones;
    /// between 0.1 and 0.5 the two are blended.
    ///
    /// Flat or clipped areas carry no information about their own motion, and a burst's motion there is almost always
    /// the camera's.
    static func anchored(_ field: AlignmentField) -> AlignmentField {
        let motion = GlobalMotion(fitting: field, model: .similarity)
        guard motion.inlierFraction > 0 else { return field }
        var out = field
        for j in 0..<field.rows {
            for i in 0..<field.columns {
                let k = j * field.columns + i
                let b = min(max((field.confidences[k] - 0.1) / 0.4, 0), 1)
                guard b < 1 else { continue }
                let c = field.blockCenter(column: i, row: j)
                let q = motion.transform.apply(to: Point(x: Double(c.x), y: Double(c.y)))
                let global = SIMD2(Float(q.x) - c.x, Float(q.y) - c.y)
                out.displacements[k] = field.displacements[k] * b + global * (1 - b)
            }
        }
        return out
    }

    /// The field averaged over `(2·radius + 1)²` blocks, each neighbour weighted by its confidence and counted only
    /// when it moves like the centre block (within one pixel), so motion boundaries stay sharp.
    ///
    /// In noisy frames this averages the estimates of neighbouring tiles the way a larger tile would, at no extra
    /// matching cost.
    static func smoothed(_ d: [SIMD2<Float>], confidences c: [Float], plan p: LevelPlan, radius: Int) -> [SIMD2<Float>]
    {
        var out = d
        for j in 0..<p.rows {
            for i in 0..<p.columns {
                let centre = d[j * p.columns + i]
                var sum = centre * (c[j * p.columns + i] + 1e-3)
                var weight = c[j * p.columns + i] + 1e-3
                for v in max(j - radius, 0)...min(j + radius, p.rows - 1) {
                    for u in max(i - radius, 0)...min(i + radius, p.columns - 1) where u != i || v != j {
                        let k = v * p.columns + u
                        let e = d[k] - centre
                        if abs(e.x) < 1 && abs(e.y) < 1 {
                            sum += d[k] * c[k]
                            weight += c[k]
                        }
                    }
                }
                out[j * p.columns + i] = sum / weight
            }
        }
        return out
    }

    /// Replaces displacements that disagree with the median of their 3×3 neighbourhood, or with the median of the whole
    /// field, when that fits the tile almost as well (within 10 % of the cost): repetitive texture (windows, ripples)
    /// matches several offsets equally, and the consensus is the likelier motion.
    ///
    /// True motion keeps its own displacement because the consensus fits it much worse.
    func regularized(
        _ field: [SIMD2<Int32>], costs: [Float], plan p: LevelPlan, ref: PlanarBuffer<Float>, alt: PlanarBuffer<Float>,
        l1: Bool
    ) -> [SIMD2<Int32>] {
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
                        xs[0..<n].sort()
                        ys[0..<n].sort()
                        let index = j * p.columns + i
                        var bestCost = costs[index] * 1.1
                        for m in [global, SIMD2(xs[n / 2], ys[n / 2])] where m != field[index] {
                            let cost = Self.tileCost(ref, alt, p.tile(i, j), Int(m.x), Int(m.y), l1: l1)
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

    /// The component-wise median of a field (zero for an empty one).
    static func median(_ field: [SIMD2<Int32>]) -> SIMD2<Int32> {
        guard !field.isEmpty else { return .zero }
        let xs = field.map(\.x).sorted()
        let ys = field.map(\.y).sorted()
        return SIMD2(xs[xs.count / 2], ys[ys.count / 2])
    }

    /// The starting displacements of block `(i, j)` taken from the coarser level.
    static func candidates(
        _ i: Int, _ j: Int, plan p: LevelPlan, coarse cp: LevelPlan, displacements: [SIMD2<Int32>], scale: Int,
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

    /// Σ|r − a| (L1) or Σ(r − a)² (L2) over tile `t` of `ref` against `alt` displaced by `(dx, dy)` (alt
    /// coordinates clamped to its edges).
    @inline(__always)
    static func tileCost(
        _ ref: PlanarBuffer<Float>, _ alt: PlanarBuffer<Float>, _ t: (x0: Int, y0: Int, x1: Int, y1: Int), _ dx: Int,
        _ dy: Int,
        l1: Bool
    ) -> Float {
        let n = t.x1 - t.x0
        var total: Float = 0
        let inside = t.x0 + dx >= 0 && t.x1 + dx <= alt.width && t.y0 + dy >= 0 && t.y1 + dy <= alt.height
        if inside && n & 7 == 0 {
            // Whole 8-wide vectors per row, one reduction per tile.
            let costs = wideCosts(ref, alt, t, dx, dy)
            return l1 ? costs.x : costs.y
        }
        if inside {
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

    /// (Σ|r − a|, Σ(r − a)²) of an inside tile whose width is a multiple of 8, with 8-wide accumulators.
    @inline(__always)
    static func wideCosts(
        _ ref: PlanarBuffer<Float>, _ alt: PlanarBuffer<Float>, _ t: (x0: Int, y0: Int, x1: Int, y1: Int), _ dx: Int,
        _ dy: Int
    ) -> SIMD2<Float> {
        var s1 = SIMD8<Float>()
        var s2 = SIMD8<Float>()
        let n = t.x1 - t.x0
        for y in t.y0..<t.y1 {
            let r = UnsafeRawPointer(ref.row(0, y) + t.x0)
            let a = UnsafeRawPointer(alt.row(0, y + dy) + t.x0 + dx)
            var k = 0
            while k < n {
                let d =
                    r.loadUnaligned(fromByteOffset: 4 * k, as: SIMD8<Float>.self)
                    - a.loadUnaligned(fromByteOffset: 4 * k, as: SIMD8<Float>.self)
                s1 += unsafeBitCast(unsafeBitCast(d, to: SIMD8<UInt32>.self) & 0x7FFF_FFFF, to: SIMD8<Float>.self)
                s2 += d * d
                k += 8
            }
        }
        return SIMD2(s1.sum(), s2.sum())
    }

    /// (Σ|r − a|, Σ(r − a)²) over tile `t` of `ref` against `alt` displaced by `(dx, dy)`.
    @inline(__always)
    static func tileCosts(
        _ ref: PlanarBuffer<Float>, _ alt: PlanarBuffer<Float>, _ t: (x0: Int, y0: Int, x1: Int, y1: Int), _ dx: Int,
        _ dy: Int
    ) -> SIMD2<Float> {
        let n = t.x1 - t.x0
        var l1: Float = 0
        var l2: Float = 0
        let inside = t.x0 + dx >= 0 && t.x1 + dx <= alt.width && t.y0 + dy >= 0 && t.y1 + dy <= alt.height
        if inside && n & 7 == 0 { return wideCosts(ref, alt, t, dx, dy) }
        if inside {
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

    /// The sub-pixel displacement and confidence of finest block `(i, j)`, starting from integer `d`.
    ///
    /// `known` holds the L2 costs of the 3×3 offsets around `knownCentre` (row by row), reused where they overlap.
    func refine(
        _ i: Int, _ j: Int, _ d: SIMD2<Int32>, alt: PlanarBuffer<Float>, known: SIMD16<Float>, knownCentre: SIMD2<Int32>
    ) -> (SIMD2<Float>, Float) {
        let p0 = plan[0]
        let ref = levels[0]
        let t = p0.tile(i, j)
        let dx = Int(d.x)
        let dy = Int(d.y)
        // Quadratic fit of the 3×3 L2 costs: c(u, v) = A·u² + B·v² + C·u·v + D·u + E·v + F.
        let index = j * p0.columns + i
        let tensor = tensors[index]
        let sigma2 = blockNoise[index]
        let count = tensor.w
        // Confidence: the smaller eigenvalue of the structure tensor, less its expected noise part.
        let half = (tensor.x + tensor.z) / 2
        let diff = (tensor.x - tensor.z) / 2
        let gradientNoise = count * sigma2 * gradientNoiseFactor
        let lambdaMin = max(half - (diff * diff + tensor.y * tensor.y).squareRoot() - gradientNoise, 0)
        let confidence = count > 0 ? lambdaMin / (lambdaMin + 2 * gradientNoise + 1e-20) : 0
        guard refinesToSubpixel else { return (SIMD2(Float(dx), Float(dy)), confidence) }

        var c = SIMD16<Float>()
        for v in -1...1 {
            for u in -1...1 {
                let ku = dx + u - Int(knownCentre.x)
                let kv = dy + v - Int(knownCentre.y)
                c[(v + 1) * 3 + u + 1] =
                    abs(ku) <= 1 && abs(kv) <= 1
                    ? known[(kv + 1) * 3 + ku + 1] : Self.tileCost(ref, alt, t, dx + u, dy + v, l1: false)
            }
        }
        var s0: Float = 0
        var su: Float = 0
        var sv: Float = 0
        var sU: Float = 0
        var sV: Float = 0
        var sUV: Float = 0
        for v in -1...1 {
            for u in -1...1 {
                let value = c[(v + 1) * 3 + u + 1]
                let fu = Float(u)
                let fv = Float(v)
                s0 += value
                su += fu * fu * value
                sv += fv * fv * value
                sU += fu * value
                sV += fv * value
                sUV += fu * fv * value
            }
        }
        let sumAB = (su + sv) / 2 - s0 * (2.0 / 3.0)
        let a = (sumAB + (su - sv) / 2) / 2
        let b = (sumAB - (su - sv) / 2) / 2
        let cc = sUV / 4
        let dd = sU / 6
        let ee = sV / 6
        var sub = SIMD2<Float>.zero
        let det = 4 * a * b - cc * cc
        if a > 0, b > 0, det > 1e-12 * max(1, a * b) {
            sub = SIMD2((-dd * 2 * b + ee * cc) / det, (-ee * 2 * a + dd * cc) / det)
        } else {
            // Separable parabolas where the surface is not a bowl.
            let cx = c[3] - 2 * c[4] + c[5]
            let cy = c[1] - 2 * c[4] + c[7]
            if cx > 0 { sub.x = (c[3] - c[5]) / (2 * cx) }
            if cy > 0 { sub.y = (c[1] - c[7]) / (2 * cy) }
        }
        sub = clampComponents(sub, -1, 1)
        var disp = SIMD2(Float(dx), Float(dy)) + sub

        if refinementIterations > 0, count > 0 {
            let r = Self.gradientRegion(t, width: p0.width, height: p0.height)
            let lambda = gradientNoise
            let h00 = tensor.x + lambda
            let h01 = tensor.y
            let h11 = tensor.z + lambda
            let hDet = h00 * h11 - h01 * h01
            if hDet > 0 {
                let start = disp
                for _ in 0..<refinementIterations {
                    let b = Self.gradientMismatch(ref, alt, r, disp)
                    let step = SIMD2((h11 * b.x - h01 * b.y) / hDet, (h00 * b.y - h01 * b.x) / hDet)
                    disp -= clampComponents(step, -0.5, 0.5)
                }
                if abs(disp.x - start.x) > 1 || abs(disp.y - start.y) > 1 { disp = start }
            }
        }
        return (disp, confidence)
    }

    /// Σ∇R·(A(x + d) − R(x)) over region `r` (A sampled bilinearly, coordinates clamped).
    @inline(__always)
    static func gradientMismatch(
        _ ref: PlanarBuffer<Float>, _ alt: PlanarBuffer<Float>, _ r: (x0: Int, y0: Int, x1: Int, y1: Int),
        _ d: SIMD2<Float>
    ) -> SIMD2<Float> {
        let fx = d.x.rounded(.down)
        let fy = d.y.rounded(.down)
        let ix = Int(fx)
        let iy = Int(fy)
        let ax = d.x - fx
        let ay = d.y - fy
        let w00 = (1 - ax) * (1 - ay)
        let w10 = ax * (1 - ay)
        let w01 = (1 - ax) * ay
        let w11 = ax * ay
        var bx: Float = 0
        var by: Float = 0
        let inside =
            r.x0 + ix >= 0 && r.x1 + ix + 1 <= alt.width && r.y0 + iy >= 0 && r.y1 + iy + 1 <= alt.height
        for y in r.y0..<r.y1 {
            let up = ref.row(0, y - 1)
            let mid = ref.row(0, y)
            let down = ref.row(0, y + 1)
            let a0 = alt.row(0, min(max(y + iy, 0), alt.height - 1))
            let a1 = alt.row(0, min(max(y + iy + 1, 0), alt.height - 1))
            var sx: Float = 0
            var sy: Float = 0
            if inside {
                let p0 = a0 + ix
                let p1 = a1 + ix
                for x in r.x0..<r.x1 {
                    let value = w00 * p0[x] + w10 * p0[x + 1] + w01 * p1[x] + w11 * p1[x + 1]
                    let e = value - mid[x]
                    sx = Relaxed.multiplyAdd((mid[x + 1] - mid[x - 1]) * 0.5, e, sx)
                    sy = Relaxed.multiplyAdd((down[x] - up[x]) * 0.5, e, sy)
                }
            } else {
                for x in r.x0..<r.x1 {
                    let xa = min(max(x + ix, 0), alt.width - 1)
                    let xb = min(max(x + ix + 1, 0), alt.width - 1)
                    let value = w00 * a0[xa] + w10 * a0[xb] + w01 * a1[xa] + w11 * a1[xb]
                    let e = value - mid[x]
                    sx += (mid[x + 1] - mid[x - 1]) * 0.5 * e
                    sy += (down[x] - up[x]) * 0.5 * e
                }
            }
            bx += sx
            by += sy
        }
        return SIMD2(bx, by)
    }
}

@inline(__always)
func clampComponents(_ v: SIMD2<Float>, _ lo: Float, _ hi: Float) -> SIMD2<Float> {
    SIMD2(min(max(v.x, lo), hi), min(max(v.y, lo), hi))
}

/// Up to four candidate displacements without allocating (duplicates are skipped).
struct CandidateList {
    private var storage = SIMD8<Int32>()
    private(set) var count = 0

    mutating func append(_ c: SIMD2<Int32>) {
        for n in 0..<count where self[n] == c { return }
        guard count < 4 else { return }
        storage[2 * count] = c.x
        storage[2 * count + 1] = c.y
        count += 1
    }

    subscript(_ n: Int) -> SIMD2<Int32> { SIMD2(storage[2 * n], storage[2 * n + 1]) }
}
