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
    /// Finished rows of the current batch (`batchSize` rows of `rowLength`).
    private let batch: UnsafeMutablePointer<Float>
    /// The floats ``batch`` holds (a block of ``ScratchPool/shared``).
    private let batchCapacity: Int
    private var batchStart = Int.min
    private var batchCount = 0
    /// Which strips of each batch row are non-empty (row-major, `stripColumns.count` a row); a row with none is
    /// empty.
    private let batchStrips: UnsafeMutableBufferPointer<Bool>
    private let stripRow: UnsafeMutablePointer<Float>
    /// The plan's shape spans, the time samples' one after another, copied for this stream: reading the plan's
    /// arrays, which the streams of every thread share, would update their reference counts for every row.
    private let spans: UnsafeMutableBufferPointer<ShapeSpan>
    /// Where each time sample's spans begin in ``spans`` (one more entry: the end).
    private let sampleStarts: UnsafeMutableBufferPointer<Int>
    private let sample: UnsafeMutablePointer<Float>
    private let scratch: UnsafeMutablePointer<Float>

    static let batchSize = 32
    /// Bytes of row rings one strip may hold (three passes), to stay within a 1 MiB L2 with room to spare.
    static let stripRingBytes = 512 << 10
    /// The widest strip: narrow enough that a depth slice's empty parts leave whole strips empty for many rows.
    static let maximumStripColumns = 256

    /// A stream over card rows `firstRow…lastRow`.
    init(plan: LayerPlan, firstRow: Int, lastRow: Int) {
        self.plan = plan
        self.lastRow = lastRow
        let width = plan.box.width
        let planes = plan.planes
        self.width = width
        self.planes = planes
        rowLength = planes * width
        let blurred = plan.blur != nil
        (batch, batchCapacity) = ScratchPool.shared.take((blurred ? Self.batchSize : 1) * rowLength)
        spans = .allocate(capacity: plan.samples.reduce(0) { $0 + $1.count })
        _ = spans.initialize(from: plan.samples.joined())
        sampleStarts = .allocate(capacity: plan.samples.count + 1)
        var start = 0
        for (i, sample) in plan.samples.enumerated() {
            sampleStarts[i] = start
            start += sample.count
        }
        sampleStarts[plan.samples.count] = start
        sample = .allocate(capacity: plan.samples.count > 1 ? rowLength : 1)
        scratch = .allocate(capacity: 4 * width)
        horizontal = plan.blur.map { HorizontalBlur(plan: $0, count: plan.box.width) }
        var columns: [Range<Int>] = []
        if let blur = plan.blur {
            let window = 2 * blur.radius + 3
            let perColumn = BlurPlan.passes * window * planes * MemoryLayout<Float>.size
            let target = min(Self.maximumStripColumns, max(64, Self.stripRingBytes / perColumn) & ~15)
            let count = max(1, (width + target - 1) / target)
            let stripWidth = (width + count - 1) / count
            columns = (0..<count).map { ($0 * stripWidth)..<min(width, ($0 + 1) * stripWidth) }.filter { !$0.isEmpty }
        }
        stripColumns = columns
        batchStrips = .allocate(capacity: Self.batchSize * columns.count)
        batchStrips.initialize(repeating: false)
        stripRow = .allocate(capacity: planes * (columns.map(\.count).max() ?? 1))
        if let blur = plan.blur {
            // Unretained: the strips live no longer than the stream (its deinit lets them go first), and counting the
            // reference would cost two atomic updates per row.
            let stream = Unmanaged.passUnretained(self)
            strips = columns.map { columns in
                VerticalBlur(plan: blur, rowLength: planes * columns.count, firstRow: firstRow) { k, dst in
                    stream._withUnsafeGuaranteedRef { $0.paint(row: k, columns: columns, into: dst) }
                }
            }
        }
    }

    deinit {
        strips = []
        batchStrips.deallocate()
        horizontal?.deallocate()
        ScratchPool.shared.give(batch, capacity: batchCapacity)
        stripRow.deallocate()
        spans.deallocate()
        sampleStarts.deallocate()
        sample.deallocate()
        scratch.deallocate()
    }

    /// Finished card row `k` (planes `width` apart), or nil when it is empty.
    ///
    /// Rows must be requested in order.
    func row(_ k: Int) -> UnsafePointer<Float>? {
        guard horizontal != nil else {
            return paint(row: k, columns: 0..<width, into: batch) ? UnsafePointer(batch) : nil
        }
        if k < batchStart || k >= batchStart + batchCount { fillBatch(from: k) }
        let j = k - batchStart
        let present = UnsafeBufferPointer(
            rebasing: batchStrips[(j * stripColumns.count)..<((j + 1) * stripColumns.count)])
        guard present.contains(true) else { return nil }
        let row = batch + j * rowLength
        if let horizontal { blurHorizontally(row, present: present, with: horizontal) }
        return UnsafePointer(row)
    }

    /// Runs the horizontal passes over the `present` strips of `row` and the blur's reach around them only (the
    /// other strips are zero and stay so).
    private func blurHorizontally(
        _ row: UnsafeMutablePointer<Float>, present: UnsafeBufferPointer<Bool>, with blur: HorizontalBlur
    ) {
        let reach = blur.plan.support
        var run: Range<Int>? = nil
        for (columns, isPresent) in zip(stripColumns, present) where isPresent {
            let grown = max(0, columns.lowerBound - reach)..<min(width, columns.upperBound + reach)
            if let r = run, grown.lowerBound <= r.upperBound {
                run = r.lowerBound..<grown.upperBound
            } else {
                if let r = run { blur.apply(row, planes: planes, stride: width, columns: r) }
                run = grown
            }
        }
        if let r = run { blur.apply(row, planes: planes, stride: width, columns: r) }
    }

    /// Runs every strip's vertical passes over rows `k…` (a batch) and gathers the strips into whole rows.
    private func fillBatch(from k: Int) {
        batchStart = k
        batchCount = max(1, min(Self.batchSize, lastRow - k + 1))
        for (s, columns) in stripColumns.enumerated() {
            let n = columns.count
            let strip = strips[s]
            for j in 0..<batchCount {
                let row = batch + j * rowLength
                let present = strip.row(k + j, into: stripRow)
                batchStrips[j * stripColumns.count + s] = present
                if present {
                    for p in 0..<planes {
                        (row + p * width + columns.lowerBound).update(from: stripRow + p * n, count: n)
                    }
                } else {
                    for p in 0..<planes { (row + p * width + columns.lowerBound).update(repeating: 0, count: n) }
                }
            }
        }
    }

    /// Paints columns `columns` of card row `k` into `dst` (planes `columns.count` apart): the average over time
    /// samples.
    ///
    /// False when nothing covers that part of the row: no shape reaches it, or (a layer with alpha) every pixel the
    /// shapes reach was left uncovered, as a depth slice of a photograph leaves the parts at other depths. The
    /// vertical passes then skip the strip's rows whose windows hold nothing.
    private func paint(row k: Int, columns: Range<Int>, into dst: UnsafeMutablePointer<Float>) -> Bool {
        guard k >= 0, k < plan.box.height else { return false }
        let samples = sampleStarts.count - 1
        let length = planes * columns.count
        dst.update(repeating: 0, count: length)
        var any = false
        if samples == 1 {
            any = paint(spans: 0..<sampleStarts[1], row: k, columns: columns, into: dst)
        } else {
            let weight = 1 / Float(samples)
            for t in 0..<samples {
                sample.update(repeating: 0, count: length)
                if paint(spans: sampleStarts[t]..<sampleStarts[t + 1], row: k, columns: columns, into: sample) {
                    any = true
                    for i in 0..<length { dst[i] += weight * sample[i] }
                }
            }
        }
        // Premultiplied paint: no coverage, no colour.
        return any && (planes < 4 || Self.hasCoverage(dst + 3 * columns.count, count: columns.count))
    }

    /// Whether any of `count` coverage values is not zero.
    private static func hasCoverage(_ alpha: UnsafeMutablePointer<Float>, count: Int) -> Bool {
        var i = 0
        while i + 8 <= count {
            let v = UnsafeRawPointer(alpha + i).loadUnaligned(as: SIMD8<Float>.self)
            if v != SIMD8(repeating: 0) { return true }
            i += 8
        }
        while i < count {
            if alpha[i] != 0 { return true }
            i += 1
        }
        return false
    }

    /// Paints ``spans`` `range` over columns `columns` of card row `k`; false when none reaches them.
    private func paint(
        spans range: Range<Int>, row k: Int, columns: Range<Int>, into dst: UnsafeMutablePointer<Float>
    ) -> Bool {
        var any = false
        let w = columns.count
        for span in spans[range] where k >= span.y0 && k < span.y1 {
            let x0 = max(span.x0, columns.lowerBound)
            let x1 = min(span.x1, columns.upperBound)
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
