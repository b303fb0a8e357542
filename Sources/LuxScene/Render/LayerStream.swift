/// The rows of one layer's card for one band of output rows, finished one at a time: painted (averaged
/// over the exposure's time samples), blurred vertically by a ``VerticalBlur`` stream, then horizontally.
///
/// Working memory is a few rows per blur pass, whatever the card's height; rows that no shape touches are
/// never painted.
final class LayerStream {
    let plan: LayerPlan
    let width: Int
    let rowLength: Int
    let planes: Int
    private var vertical: VerticalBlur?
    private let horizontal: HorizontalBlur?
    private let out: UnsafeMutablePointer<Float>
    private let sample: UnsafeMutablePointer<Float>
    private let scratch: UnsafeMutablePointer<Float>

    /// A stream whose first requested row is card row `firstRow`.
    init(plan: LayerPlan, firstRow: Int) {
        self.plan = plan
        width = plan.box.width
        planes = plan.planes
        rowLength = planes * width
        out = .allocate(capacity: rowLength)
        sample = .allocate(capacity: plan.samples.count > 1 ? rowLength : 1)
        scratch = .allocate(capacity: 4 * width)
        horizontal = plan.blur.map { HorizontalBlur(plan: $0, count: plan.box.width) }
        if let blur = plan.blur {
            vertical = VerticalBlur(plan: blur, rowLength: rowLength, firstRow: firstRow) { [unowned self] k, dst in
                self.paint(row: k, into: dst)
            }
        }
    }

    deinit {
        vertical = nil
        horizontal?.deallocate()
        out.deallocate()
        sample.deallocate()
        scratch.deallocate()
    }

    /// Finished card row `k` (planes `width` apart), or nil when it is empty. Rows must be requested in order.
    func row(_ k: Int) -> UnsafePointer<Float>? {
        let present = vertical.map { $0.row(k, into: out) } ?? paint(row: k, into: out)
        guard present else { return nil }
        horizontal?.apply(out, planes: planes, stride: width)
        return UnsafePointer(out)
    }

    /// Paints card row `k` into `dst` (the average over time samples); false when nothing covers the row.
    private func paint(row k: Int, into dst: UnsafeMutablePointer<Float>) -> Bool {
        guard k >= 0, k < plan.box.height else { return false }
        let samples = plan.samples
        if samples.count == 1 {
            dst.update(repeating: 0, count: rowLength)
            return paint(samples[0], row: k, into: dst)
        }
        var any = false
        let weight = 1 / Float(samples.count)
        dst.update(repeating: 0, count: rowLength)
        for spans in samples {
            sample.update(repeating: 0, count: rowLength)
            if paint(spans, row: k, into: sample) {
                any = true
                for i in 0..<rowLength { dst[i] += weight * sample[i] }
            }
        }
        return any
    }

    private func paint(_ spans: [ShapeSpan], row k: Int, into dst: UnsafeMutablePointer<Float>) -> Bool {
        var any = false
        let w = width
        for span in spans where k >= span.y0 && k < span.y1 {
            let q = span.origin + Double(k) * span.dy
            let x0 = span.x0
            span.kernel.run(
                span.x1 - x0, q: SIMD2(Float(q.x), Float(q.y)), step: SIMD2(Float(span.dx.x), Float(span.dx.y)),
                scratch: scratch, p0: dst + x0, p1: dst + w + x0, p2: dst + 2 * w + x0,
                alpha: planes == 4 ? dst + 3 * w + x0 : nil)
            any = true
        }
        return any
    }
}

/// Composites the layers of a set of ``LayerPlan``s row by row over a band of the output grid.
enum BandCompositor {
    /// The fixed band partition of a grid of `height` rows for layers whose largest blur support is
    /// `support`: bands of at least four supports (so re-reading the rows around a band costs little), at most
    /// eight bands. It depends only on the grid and the blur, never on the thread count, so results are
    /// bit-identical on any number of threads.
    static func bandHeight(height: Int, support: Int) -> Int {
        let target = max(32, 4 * support)
        let bands = max(min(2, height / 32), min(8, height / target), 1)
        return (height + bands - 1) / bands
    }

    /// Renders rows `band` of a `width`-wide grid: calls `sink(y, row)` for every row, where `row` holds
    /// three colour planes (and an alpha plane when `withAlpha`), `width` apart, premultiplied.
    static func render(
        _ plans: [LayerPlan], width: Int, band: Range<Int>, withAlpha: Bool,
        sink: (Int, UnsafePointer<Float>) -> Void
    ) {
        // Layers behind the last opaque one are hidden.
        let start = plans.lastIndex { !$0.hasAlpha } ?? 0
        let active = Array(plans[start...])
        let streams = active.map { p -> LayerStream? in
            let first = max(0, band.lowerBound - p.box.y0)
            guard first < p.box.height, band.upperBound > p.box.y0 else { return nil }
            return LayerStream(plan: p, firstRow: first)
        }
        let planes = withAlpha ? 4 : 3
        let acc = UnsafeMutablePointer<Float>.allocate(capacity: planes * width)
        defer { acc.deallocate() }
        for y in band {
            acc.update(repeating: 0, count: planes * width)
            for (i, p) in active.enumerated() {
                guard let stream = streams[i] else { continue }
                let cy = y - p.box.y0
                guard cy >= 0, cy < p.box.height, let row = stream.row(cy) else { continue }
                let ox0 = max(0, p.box.x0), ox1 = min(width, p.box.x0 + p.box.width)
                guard ox1 > ox0 else { continue }
                let n = ox1 - ox0, cx = ox0 - p.box.x0, cw = p.box.width
                if p.hasAlpha {
                    let a = row + 3 * cw + cx
                    for c in 0..<3 {
                        let o = acc + c * width + ox0, s = row + c * cw + cx
                        for x in 0..<n { o[x] = o[x] * (1 - a[x]) + s[x] }
                    }
                    if withAlpha {
                        let o = acc + 3 * width + ox0
                        for x in 0..<n { o[x] = o[x] * (1 - a[x]) + a[x] }
                    }
                } else {
                    for c in 0..<3 { (acc + c * width + ox0).update(from: row + c * cw + cx, count: n) }
                    if withAlpha { (acc + 3 * width + ox0).update(repeating: 1, count: n) }
                }
            }
            sink(y, acc)
        }
    }
}
