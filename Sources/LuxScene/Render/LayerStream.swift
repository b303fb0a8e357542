/// The rows of one layer's card for one band of output rows, finished in order: painted (averaged over the
/// exposure's time samples), blurred vertically by ``VerticalBlur`` streams, then horizontally.
///
/// The vertical passes run on column strips sized so that a strip's row rings stay in the core's L2 cache,
/// one batch of output rows at a time (each strip paints only its own columns). Working memory is a few
/// rows per pass and strip, whatever the card's height; rows that no shape touches are never painted. Strips
/// and batches depend only on the plan and the band, so results do not depend on the thread count.
final class LayerStream {
    let plan: LayerPlan
    let width: Int
    let rowLength: Int
    let planes: Int
    /// The last card row the band needs.
    let lastRow: Int
    private var strips: [VerticalBlur] = []
    private let stripColumns: [Range<Int>]
    private let horizontal: HorizontalBlur?
    /// Finished rows of the current batch (`batchSize` rows of `rowLength`), and which are non-empty.
    private let batch: UnsafeMutablePointer<Float>
    private var batchStart = Int.min
    private var batchCount = 0
    private var batchPresent: [Bool]
    private let stripRow: UnsafeMutablePointer<Float>
    private let sample: UnsafeMutablePointer<Float>
    private let scratch: UnsafeMutablePointer<Float>

    static let batchSize = 32
    /// Bytes of row rings one strip may hold (three passes), to stay within a 1 MiB L2 with room to spare.
    static let stripRingBytes = 512 << 10

    /// A stream over card rows `firstRow…lastRow`.
    init(plan: LayerPlan, firstRow: Int, lastRow: Int) {
        self.plan = plan
        self.lastRow = lastRow
        let width = plan.box.width, planes = plan.planes
        self.width = width
        self.planes = planes
        rowLength = planes * width
        let blurred = plan.blur != nil
        batch = .allocate(capacity: (blurred ? Self.batchSize : 1) * rowLength)
        batchPresent = Array(repeating: false, count: Self.batchSize)
        sample = .allocate(capacity: plan.samples.count > 1 ? rowLength : 1)
        scratch = .allocate(capacity: 4 * width)
        horizontal = plan.blur.map { HorizontalBlur(plan: $0, count: plan.box.width) }
        var columns: [Range<Int>] = []
        if let blur = plan.blur {
            let window = 2 * blur.radius + 3
            let perColumn = BlurPlan.passes * window * planes * MemoryLayout<Float>.size
            let target = max(64, Self.stripRingBytes / perColumn) & ~15
            let count = max(1, (width + target - 1) / target)
            let stripWidth = (width + count - 1) / count
            columns = (0..<count).map { ($0 * stripWidth)..<min(width, ($0 + 1) * stripWidth) }.filter { !$0.isEmpty }
        }
        stripColumns = columns
        stripRow = .allocate(capacity: planes * (columns.map(\.count).max() ?? 1))
        if let blur = plan.blur {
            strips = columns.map { columns in
                VerticalBlur(plan: blur, rowLength: planes * columns.count, firstRow: firstRow) { [unowned self] k, dst in
                    self.paint(row: k, columns: columns, into: dst)
                }
            }
        }
    }

    deinit {
        strips = []
        horizontal?.deallocate()
        batch.deallocate()
        stripRow.deallocate()
        sample.deallocate()
        scratch.deallocate()
    }

    /// Finished card row `k` (planes `width` apart), or nil when it is empty. Rows must be requested in order.
    func row(_ k: Int) -> UnsafePointer<Float>? {
        guard horizontal != nil else {
            return paint(row: k, columns: 0..<width, into: batch) ? UnsafePointer(batch) : nil
        }
        if k < batchStart || k >= batchStart + batchCount { fillBatch(from: k) }
        let j = k - batchStart
        guard batchPresent[j] else { return nil }
        let row = batch + j * rowLength
        horizontal?.apply(row, planes: planes, stride: width)
        return UnsafePointer(row)
    }

    /// Runs every strip's vertical passes over rows `k…` (a batch) and gathers the strips into whole rows.
    private func fillBatch(from k: Int) {
        batchStart = k
        batchCount = max(1, min(Self.batchSize, lastRow - k + 1))
        for j in 0..<batchCount { batchPresent[j] = false }
        for (s, columns) in stripColumns.enumerated() {
            let n = columns.count
            for j in 0..<batchCount {
                let row = batch + j * rowLength
                if strips[s].row(k + j, into: stripRow) {
                    batchPresent[j] = true
                    for p in 0..<planes { (row + p * width + columns.lowerBound).update(from: stripRow + p * n, count: n) }
                } else {
                    for p in 0..<planes { (row + p * width + columns.lowerBound).update(repeating: 0, count: n) }
                }
            }
        }
    }

    /// Paints columns `columns` of card row `k` into `dst` (planes `columns.count` apart): the average over
    /// time samples. False when nothing covers that part of the row.
    private func paint(row k: Int, columns: Range<Int>, into dst: UnsafeMutablePointer<Float>) -> Bool {
        guard k >= 0, k < plan.box.height else { return false }
        let samples = plan.samples
        let length = planes * columns.count
        dst.update(repeating: 0, count: length)
        if samples.count == 1 { return paint(samples[0], row: k, columns: columns, into: dst) }
        var any = false
        let weight = 1 / Float(samples.count)
        for spans in samples {
            sample.update(repeating: 0, count: length)
            if paint(spans, row: k, columns: columns, into: sample) {
                any = true
                for i in 0..<length { dst[i] += weight * sample[i] }
            }
        }
        return any
    }

    private func paint(_ spans: [ShapeSpan], row k: Int, columns: Range<Int>, into dst: UnsafeMutablePointer<Float>) -> Bool {
        var any = false
        let w = columns.count
        for span in spans where k >= span.y0 && k < span.y1 {
            let x0 = max(span.x0, columns.lowerBound), x1 = min(span.x1, columns.upperBound)
            guard x1 > x0 else { continue }
            let q = span.origin + Double(k) * span.dy + Double(x0 - span.x0) * span.dx
            let o = x0 - columns.lowerBound
            span.kernel.run(
                x1 - x0, q: SIMD2(Float(q.x), Float(q.y)), step: SIMD2(Float(span.dx.x), Float(span.dx.y)),
                scratch: scratch, p0: dst + o, p1: dst + w + o, p2: dst + 2 * w + o,
                alpha: planes == 4 ? dst + 3 * w + o : nil)
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
            return LayerStream(plan: p, firstRow: first, lastRow: min(p.box.height, band.upperBound - p.box.y0) - 1)
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
