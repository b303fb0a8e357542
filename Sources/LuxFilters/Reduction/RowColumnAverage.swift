import LuxPixels
import LuxRender

/// The shared processor of ``Filters/ColumnAverage`` and ``Filters/RowAverage``.
enum LineAverage {
    /// Column means (a `width`×1 image at the origin) or row means (1×`height`) of `area` of `image`.
    static func apply(_ image: Image, area: Rect, columns: Bool) -> Image {
        let (ax, ay) = (area.minX, area.minY)
        let out = columns ? Rect(x: 0, y: 0, width: area.width, height: 1) : Rect(x: 0, y: 0, width: 1, height: area.height)
        let processor = ImageProcessor(
            description: columns ? "columnAverage" : "rowAverage", argumentDigest: "\(area)", inputFormat: nil,
            outputFormat: .rgbaFloat,
            roi: { _, r in
                columns
                    ? Rect(minX: ax + r.minX, minY: area.minY, maxX: ax + r.maxX, maxY: area.maxY)
                    : Rect(minX: area.minX, minY: ay + r.minY, maxX: area.maxX, maxY: ay + r.maxY)
            }
        ) { inputs, output in
            let input = inputs[0]
            if columns {
                // Column sums over fixed bands of 64 rows (in parallel), then the bands in order: the same sums
                // whatever the thread count.
                let w = input.width
                let h = input.height
                let bandRows = 64
                let bandCount = (h + bandRows - 1) / bandRows
                let bands = Reduction.RowResults(rows: bandCount, stride: 4 * w)
                Parallel.forEachBand(bandCount, threads: Parallel.defaultThreadCount, minimumBand: 1) { range in
                    let line = UnsafeMutablePointer<Float>.allocate(capacity: 4 * w)
                    defer { line.deallocate() }
                    for b in range {
                        for j in (b * bandRows)..<min(h, (b + 1) * bandRows) {
                            ProcessorRows.loadInterleaved(input, row: j, into: line)
                            Reduction.accumulate(bands.row(b), line, 4 * w)
                        }
                    }
                }
                let sum = UnsafeMutablePointer<Double>.allocate(capacity: 4 * w)
                defer { sum.deallocate() }
                sum.initialize(repeating: 0, count: 4 * w)
                for b in 0..<bandCount { ExactSum.add(sum, bands.row(b), 4 * w) }
                ExactSum.store(sum, 1 / Double(h), into: output.row(0, as: Float.self), 4 * w)
            } else {
                let rows = Reduction.RowResults(rows: input.height, stride: 4)
                Reduction.forEachRow(input) { j, row in
                    let s = Reduction.channelSums(row, input.width)
                    let d = rows.row(j)
                    (d[0], d[1], d[2], d[3]) = (s.x, s.y, s.z, s.w)
                }
                let n = Double(input.width)
                for j in 0..<input.height {
                    let d = rows.row(j)
                    Reduction.store(SIMD4(d[0], d[1], d[2], d[3]) / n, output, y: j)
                }
            }
        }
        return processor.apply(to: [image], extent: out)
    }
}
