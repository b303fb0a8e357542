internal import CLuxKernels

/// The grid rows of a layer planned on a coarse card (``LayerPlan/scale`` > 1): card rows from a
/// ``LayerStream``, each interpolated linearly across to the grid's columns once, and grid rows as the linear
/// interpolation between the two card rows around them (done by the compositor, fused with the blend).
///
/// Grid pixel `x` sits at card coordinate `(x + ½)/s − ½`: between card pixels `i = ⌊(x − ⌊s/2⌋)/s⌋` and
/// `i + 1`, at the fraction `t(p) = (⌊s/2⌋ + p + ½)/s − ½` for `p = x − ⌊s/2⌋ − i·s`. Card pixels outside the
/// card are zero. Rows must be requested in order.
final class UpsampledLayerStream {
    let plan: LayerPlan
    /// Grid columns `x0 ..< x0 + width` the layer touches, clipped to the grid.
    let x0: Int
    let width: Int
    private let stream: LayerStream
    private let firstCardRow: Int
    private let lastCardRow: Int
    /// Two interpolated card rows (planes `width` apart), by the parity of the card row, and a zero row.
    private let ring: UnsafeMutablePointer<Float>
    private var tags = [Int.min, Int.min]
    private var present = [false, false]
    private let zero: UnsafeMutablePointer<Float>
    /// A card row with one zero pixel on each side, per plane.
    private let padded: UnsafeMutablePointer<Float>
    /// One padded plane's differences to the next card pixel (`padded[i + 1] − padded[i]`).
    private let differences: UnsafeMutablePointer<Float>
    private let fractions: [Float]
    /// For each of the `width` grid columns: the padded card pixel at or before it and the fraction past it.
    private let columnIndex: UnsafeMutablePointer<Int32>
    private let columnFraction: UnsafeMutablePointer<Float>

    /// A stream over grid rows `rows` of a grid `gridWidth` wide.
    init(plan: LayerPlan, rows: Range<Int>, gridWidth: Int) {
        precondition(plan.scale > 1 && !rows.isEmpty)
        self.plan = plan
        let s = plan.scale
        let h = s / 2
        let g = plan.gridBox
        x0 = max(0, g.x0)
        width = max(0, min(gridWidth, g.x0 + g.width) - x0)
        firstCardRow = max(0, Self.cardIndex(rows.lowerBound, scale: s) - plan.box.y0)
        lastCardRow = min(plan.box.height - 1, Self.cardIndex(rows.upperBound - 1, scale: s) + 1 - plan.box.y0)
        stream = LayerStream(plan: plan, firstRow: firstCardRow, lastRow: max(firstCardRow, lastCardRow))
        let length = plan.planes * max(width, 1)
        ring = .allocate(capacity: 2 * length)
        zero = .allocate(capacity: length)
        zero.initialize(repeating: 0, count: length)
        padded = .allocate(capacity: plan.planes * (plan.box.width + 2))
        padded.initialize(repeating: 0, count: plan.planes * (plan.box.width + 2))
        fractions = (0..<s).map { p in Float((Double(h + p) + 0.5) / Double(s) - 0.5) }
        differences = .allocate(capacity: plan.box.width + 1)
        // Grid column x0 lies `phase` grid pixels past card pixel `first`; each card interval fills s columns.
        columnIndex = .allocate(capacity: max(width, 1))
        columnFraction = .allocate(capacity: max(width, 1))
        let first = Self.cardIndex(x0, scale: s)
        var j = first - plan.box.x0 + 1
        var p = x0 - h - first * s  // j: index in the padded row (card pixel j − 1)
        for o in 0..<width {
            columnIndex[o] = Int32(j)
            columnFraction[o] = fractions[p]
            p += 1
            if p == s {
                p = 0
                j += 1
            }
        }
    }

    deinit {
        ring.deallocate()
        zero.deallocate()
        padded.deallocate()
        differences.deallocate()
        columnIndex.deallocate()
        columnFraction.deallocate()
    }

    /// The card pixel at or before grid pixel `x` (floor division of `x − ⌊s/2⌋` by `s`).
    @inline(__always)
    static func cardIndex(_ x: Int, scale s: Int) -> Int {
        let q = x - s / 2
        return q >= 0 ? q / s : -((-q + s - 1) / s)
    }

    /// Grid row `y` as two interpolated card rows and the fraction between them (`top + t·(bottom − top)`),
    /// or nil when both are empty.
    func row(_ y: Int) -> (top: UnsafePointer<Float>, bottom: UnsafePointer<Float>, t: Float)? {
        let s = plan.scale
        let i = Self.cardIndex(y, scale: s)
        let p = y - s / 2 - i * s
        let top = cardRow(i - plan.box.y0)
        let bottom = cardRow(i + 1 - plan.box.y0)
        guard top != nil || bottom != nil else { return nil }
        return (top ?? UnsafePointer(zero), bottom ?? UnsafePointer(zero), fractions[p])
    }

    /// Card row `k`, interpolated across to the grid's columns, or nil when it is empty.
    private func cardRow(_ k: Int) -> UnsafePointer<Float>? {
        guard k >= firstCardRow, k <= lastCardRow, width > 0 else { return nil }
        let slot = k & 1
        let length = plan.planes * width
        let dst = ring + slot * length
        if tags[slot] != k {
            tags[slot] = k
            present[slot] = false
            if let src = stream.row(k) {
                present[slot] = true
                interpolateColumns(src, into: dst)
            }
        }
        return present[slot] ? UnsafePointer(dst) : nil
    }

    /// Linear interpolation of one card row (planes `box.width` apart) to grid columns `x0 ..< x0 + width`:
    /// each grid pixel is `a + t·(b − a)` between the card pixels `a`, `b` around it (the differences taken
    /// once per card pixel, the columns' card pixels and fractions once per stream).
    private func interpolateColumns(_ src: UnsafePointer<Float>, into dst: UnsafeMutablePointer<Float>) {
        let cw = plan.box.width
        let d = differences
        for plane in 0..<plan.planes {
            let card = padded + plane * (cw + 2)  // card[0] and card[cw + 1] are zero
            (card + 1).update(from: src + plane * cw, count: cw)
            for i in 0...cw { d[i] = card[i + 1] - card[i] }
            lux_lerp_indexed(card, d, cw + 1, columnIndex, columnFraction, dst + plane * width, width)
        }
    }
}
