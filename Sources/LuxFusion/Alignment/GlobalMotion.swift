public import LuxPixels
import RealModule

/// The camera motion between two frames as one transform, fitted robustly to an ``AlignmentField``.
///
/// Blocks weigh in by their ``AlignmentField/confidences`` (flat blocks hardly count) and by how well they agree
/// with the fit (Tukey's biweight, iteratively reweighted), so moving objects and mismatched blocks are ignored.
///
/// ```swift
/// let field = try TileAligner().align(frame, to: reference, noise: profile)
/// let motion = GlobalMotion(fitting: field, model: .similarity)
/// motion.transform.apply(to: Point(x: 100, y: 100))   // where the reference's (100, 100) is in `frame`
/// ```
public struct GlobalMotion: Hashable, Sendable {
    /// The family of transforms fitted.
    public enum Model: String, Hashable, Sendable, Codable {
        /// A shift.
        case translation
        /// A shift, a rotation and a uniform scale.
        case similarity
    }

    /// Maps reference coordinates to the aligned frame's coordinates.
    public var transform: AffineTransform
    /// The confidence-weighted fraction of blocks that follow the transform (within 3 robust standard deviations,
    /// at least 1 pixel).
    public var inlierFraction: Double
    /// The RMS distance between the inliers' displacements and the transform, in pixels.
    public var residualRMS: Double

    /// Creates a motion from its values.
    public init(transform: AffineTransform, inlierFraction: Double, residualRMS: Double) {
        self.transform = transform
        self.inlierFraction = inlierFraction
        self.residualRMS = residualRMS
    }

    /// Fits `model` to `field`.
    ///
    /// - Complexity: O(blocks) per iteration, 10 iterations.
    public init(fitting field: AlignmentField, model: Model = .similarity) {
        var points: [SIMD2<Double>] = []
        var targets: [SIMD2<Double>] = []
        var prior: [Double] = []
        for j in 0..<field.rows {
            for i in 0..<field.columns {
                let k = j * field.columns + i
                let c = field.blockCenter(column: i, row: j)
                let p = SIMD2(Double(c.x), Double(c.y))
                points.append(p)
                targets.append(p + SIMD2(Double(field.displacements[k].x), Double(field.displacements[k].y)))
                prior.append(Double(max(field.confidences[k], 0)) + 1e-3)
            }
        }
        self = Self.fit(points: points, targets: targets, weights: prior, model: model)
    }

    /// Robust weighted fit of `targets ≈ T(points)`.
    static func fit(points: [SIMD2<Double>], targets: [SIMD2<Double>], weights prior: [Double], model: Model)
        -> GlobalMotion
    {
        let n = points.count
        guard n > 0 else { return GlobalMotion(transform: .identity, inlierFraction: 0, residualRMS: 0) }
        // Robust statistics on an evenly spaced sample of at most 4096 blocks (the fit itself uses all).
        let step = max(1, n / 4096)
        let sample = Array(stride(from: 0, to: n, by: step))
        let samplePrior = sample.map { prior[$0] }
        // Start from the weighted median shift.
        let shifts = sample.map { targets[$0] - points[$0] }
        var t = AffineTransform(
            translationX: weightedMedian(shifts.map(\.x), samplePrior),
            y: weightedMedian(shifts.map(\.y), samplePrior))
        let wsum = prior.reduce(0, +)
        let centre = (0..<n).reduce(SIMD2<Double>.zero) { $0 + points[$1] * prior[$1] } / wsum
        var scale = 1.0
        for _ in 0..<10 {
            let sampled = sample.map { residual(t, points[$0], targets[$0]) }
            scale = max(1.4826 * weightedMedian(sampled, samplePrior), 0.05)
            let c = 4.685 * scale
            var w = [Double](repeating: 0, count: n)
            for i in 0..<n {
                let u = residual(t, points[i], targets[i]) / c
                w[i] = u < 1 ? prior[i] * (1 - u * u) * (1 - u * u) : 0
            }
            guard let next = solve(points: points, targets: targets, weights: w, centre: centre, model: model) else {
                break
            }
            t = next
        }
        var inliers = 0.0
        var sq = 0.0
        var count = 0.0
        let limit = max(3 * scale, 1)
        for i in 0..<n {
            let r = residual(t, points[i], targets[i])
            if r <= limit {
                inliers += prior[i]
                sq += r * r
                count += 1
            }
        }
        return GlobalMotion(
            transform: t, inlierFraction: inliers / wsum, residualRMS: count > 0 ? (sq / count).squareRoot() : 0)
    }

    @inline(__always)
    static func residual(_ t: AffineTransform, _ p: SIMD2<Double>, _ q: SIMD2<Double>) -> Double {
        let m = t.apply(to: Point(x: p.x, y: p.y))
        let dx = m.x - q.x
        let dy = m.y - q.y
        return (dx * dx + dy * dy).squareRoot()
    }

    /// Weighted least squares for a translation or a similarity (in coordinates centred on `centre`).
    static func solve(
        points: [SIMD2<Double>], targets: [SIMD2<Double>], weights w: [Double], centre: SIMD2<Double>, model: Model
    ) -> AffineTransform? {
        var sw = 0.0
        var sp = SIMD2<Double>.zero
        var sq = SIMD2<Double>.zero
        for i in points.indices where w[i] > 0 {
            sw += w[i]
            sp += w[i] * (points[i] - centre)
            sq += w[i] * targets[i]
        }
        guard sw > 0 else { return nil }
        let mp = sp / sw
        let mq = sq / sw
        if model == .translation {
            let t = mq - (mp + centre)
            return AffineTransform(translationX: t.x, y: t.y)
        }
        // x' = α·x − β·y + tx, y' = β·x + α·y + ty on centred, mean-removed coordinates.
        var num1 = 0.0
        var num2 = 0.0
        var den = 0.0
        for i in points.indices where w[i] > 0 {
            let p = points[i] - centre - mp
            let q = targets[i] - mq
            num1 += w[i] * (p.x * q.x + p.y * q.y)
            num2 += w[i] * (p.x * q.y - p.y * q.x)
            den += w[i] * (p.x * p.x + p.y * p.y)
        }
        guard den > 0 else {
            let t = mq - (mp + centre)
            return AffineTransform(translationX: t.x, y: t.y)
        }
        let alpha = num1 / den
        let beta = num2 / den
        // q = R·(p − centre − mp) + mq  ⇒  t = mq − R·(centre + mp).
        let o = centre + mp
        let tx = mq.x - (alpha * o.x - beta * o.y)
        let ty = mq.y - (beta * o.x + alpha * o.y)
        return AffineTransform(a: alpha, b: beta, c: -beta, d: alpha, tx: tx, ty: ty)
    }

    /// The weighted median of `values`: in order of value (equal values in index order), the first value at which the
    /// running sum of the weights reaches half their total (the total summed in index order).
    ///
    /// A weighted selection finds it in O(n); only when its sums come within rounding of half the total (where the
    /// running sum's own rounding could decide), or for NaN values or weights that are not positive and finite, are
    /// the pairs sorted and summed in order as the definition says.
    static func weightedMedian(_ values: [Double], _ weights: [Double]) -> Double {
        let half = weights.reduce(0, +) / 2
        if let value = selectedWeightedMedian(values, weights, half: half) { return value }
        return sortedWeightedMedian(values, weights, half: half)
    }

    /// The weighted median by sorting (value, weight, index) triples and summing the weights in that order.
    static func sortedWeightedMedian(_ values: [Double], _ weights: [Double], half: Double) -> Double {
        var pairs = (0..<values.count).map { (values[$0], weights[$0], $0) }
        pairs.sort { $0.0 < $1.0 || ($0.0 == $1.0 && $0.2 < $1.2) }
        var acc = 0.0
        for (value, weight, _) in pairs {
            acc += weight
            if acc >= half { return value }
        }
        return pairs.last?.0 ?? values[0]
    }

    /// The weighted median by quickselect over indices in (value, index) order, or `nil` when the answer is not
    /// certain to be the sorted sum's (see ``weightedMedian(_:_:)``).
    static func selectedWeightedMedian(_ values: [Double], _ weights: [Double], half: Double) -> Double? {
        let n = values.count
        guard n > 0, n == weights.count, half.isFinite, half > 0 else { return nil }
        for i in 0..<n where values[i].isNaN || !(weights[i] > 0) || !weights[i].isFinite { return nil }
        // Every partial sum of n positive weights, in any order, is within n·ε of the exact one (relative to the
        // total): decisions closer to half than four times that (4·n·ε·total) go to the sort.
        let margin = 4 * Double(n) * Double.ulpOfOne * (2 * half)
        var order = [Int32](unsafeUninitializedCapacity: n) { buffer, count in
            for i in 0..<n { buffer[i] = Int32(i) }
            count = n
        }
        return order.withUnsafeMutableBufferPointer { o -> Double? in
            values.withUnsafeBufferPointer { v in
                weights.withUnsafeBufferPointer { w in
                    @inline(__always) func before(_ a: Int32, _ b: Int32) -> Bool {
                        let x = v[Int(a)]
                        let y = v[Int(b)]
                        return x < y || (x == y && a < b)
                    }
                    var lo = 0
                    var hi = n - 1
                    var below = 0.0  // the weights of the elements before o[lo...hi]
                    while lo < hi {
                        // Median of three as the pivot, moved to o[hi]; then o[lo..<hi] split around it.
                        let mid = lo + (hi - lo) / 2
                        if before(o[mid], o[lo]) { o.swapAt(mid, lo) }
                        if before(o[hi], o[lo]) { o.swapAt(hi, lo) }
                        if before(o[mid], o[hi]) { o.swapAt(mid, hi) }
                        let pivot = o[hi]
                        var store = lo
                        var left = 0.0
                        for k in lo..<hi where before(o[k], pivot) {
                            left += w[Int(o[k])]
                            o.swapAt(k, store)
                            store += 1
                        }
                        o.swapAt(store, hi)
                        if below + left >= half {
                            hi = store - 1
                        } else if below + left + w[Int(pivot)] >= half {
                            lo = store
                            hi = store
                            below += left
                        } else {
                            below += left + w[Int(pivot)]
                            lo = store + 1
                        }
                    }
                    // Past the end: the weights summed short of half (rounding); the sort decides.
                    guard lo <= hi else { return nil }
                    let answer = Int(o[lo])
                    guard below + margin < half, below + w[answer] - margin >= half else { return nil }
                    return v[answer]
                }
            }
        }
    }
}

extension GlobalMotion {
    /// The rotation of the transform in radians (positive turns +x towards +y).
    public var rotation: Double { Double.atan2(y: transform.b, x: transform.a) }
    /// The uniform scale of the transform.
    public var scale: Double { (transform.a * transform.a + transform.b * transform.b).squareRoot() }
}
