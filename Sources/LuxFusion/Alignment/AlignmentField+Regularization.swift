import LuxPixels

extension AlignmentField {
    /// The field averaged over `(2·radius + 1)²` blocks, each neighbour weighted by its confidence and counted only
    /// when it moves like the centre block (within one pixel), so motion boundaries stay sharp.
    ///
    /// In noisy frames this averages the estimates of neighbouring tiles the way a larger tile would, at no extra
    /// matching cost.
    func smoothed(radius: Int) -> AlignmentField {
        let d = displacements
        let c = confidences
        var out = d
        for j in 0..<rows {
            for i in 0..<columns {
                let centre = d[j * columns + i]
                var sum = centre * (c[j * columns + i] + 1e-3)
                var weight = c[j * columns + i] + 1e-3
                for v in max(j - radius, 0)...min(j + radius, rows - 1) {
                    for u in max(i - radius, 0)...min(i + radius, columns - 1) where u != i || v != j {
                        let k = v * columns + u
                        let e = d[k] - centre
                        if abs(e.x) < 1 && abs(e.y) < 1 {
                            sum += d[k] * c[k]
                            weight += c[k]
                        }
                    }
                }
                out[j * columns + i] = sum / weight
            }
        }
        return AlignmentField(
            blockSize: blockSize, columns: columns, rows: rows, displacements: out, confidences: confidences)
    }

    /// Blocks without texture (confidence below 0.1) take the camera motion fitted robustly to the textured ones;
    /// between 0.1 and 0.5 the two are blended.
    ///
    /// Flat or clipped areas carry no information about their own motion, and a burst's motion there is almost always
    /// the camera's.
    func anchored() -> AlignmentField {
        let field = self
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
}
