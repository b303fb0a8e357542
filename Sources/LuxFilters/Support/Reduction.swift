import LuxPixels
import LuxRender

/// Helpers for filters that reduce a region to a few pixels (averages, extremes, histograms).
///
/// Reductions run inside one processor call over the whole region, so they split its rows across the
/// machine's cores themselves. Each row is reduced in a fixed order and rows are combined in order, so results
/// do not depend on the number of threads.
enum Reduction {
    /// The region a reduction reads: `extent` rounded out to whole pixels, or the image's extent when `extent`
    /// is empty; `nil` when that is infinite or empty.
    static func area(_ extent: Rect, of image: Image) -> Rect? {
        let r = extent.isEmpty ? image.extent : extent
        guard !r.isInfinite, !r.isEmpty else { return nil }
        return r.integral
    }

    /// Rows per band of a reducing processor.
    static let bandRows = 64

    /// A reducing processor over `area` that reduces each row, as interleaved RGBA floats, to four values with
    /// `row(pixels, width)`; `finish` receives every row's values in order (`4 · area.height` values, row `j`'s
    /// at `4 · j`) and the output.
    static func rowwise(
        _ description: String, argumentDigest: String, area: Rect,
        row: @escaping @Sendable (UnsafePointer<Float>, Int) -> SIMD4<Double>,
        finish: @escaping @Sendable (UnsafeBufferPointer<Double>, ImageProcessorOutput) -> Void
    ) -> ImageProcessor {
        let rows = Int(area.integral.height)
        return ImageProcessor(
            description: description, argumentDigest: argumentDigest, inputFormat: .rgbaFloat, outputFormat: .rgbaFloat,
            reducing: area, bandRows: bandRows, partialCount: 4 * bandRows,
            band: { input, partial in
                forEachRow(input) { j, pixels in
                    let v = row(pixels, input.width)
                    (partial[4 * j], partial[4 * j + 1], partial[4 * j + 2], partial[4 * j + 3]) = (v.x, v.y, v.z, v.w)
                }
            },
            combine: { partials, output in
                // The last band may be shorter: its unused row slots are not rows of the area.
                finish(UnsafeBufferPointer(rebasing: partials[..<(4 * rows)]), output)
            })
    }

    /// The four values of row `j` of a ``rowwise(_:argumentDigest:area:row:finish:)`` result.
    static func rowValue(_ partials: UnsafeBufferPointer<Double>, _ j: Int) -> SIMD4<Double> {
        SIMD4(partials[4 * j], partials[4 * j + 1], partials[4 * j + 2], partials[4 * j + 3])
    }

    /// Calls `body(j, row)` for every row of `input` in order, as interleaved RGBA floats (read in place when the
    /// input is ``PixelFormat/rgbaFloat``, converted otherwise).
    static func forEachRow(_ input: ImageProcessorInput, _ body: (Int, UnsafePointer<Float>) -> Void) {
        if input.format == .rgbaFloat {
            for j in 0..<input.height { body(j, input.row(j, as: Float.self)) }
            return
        }
        withUnsafeTemporaryAllocation(of: Float.self, capacity: 4 * input.width) { line in
            for j in 0..<input.height {
                ProcessorRows.loadInterleaved(input, row: j, into: line.baseAddress!)
                body(j, line.baseAddress!)
            }
        }
    }

    /// Per-row results written from several threads (each row by one thread only).
    final class RowResults: @unchecked Sendable {
        // @unchecked: bands write disjoint rows; the results are read after the parallel loop returns.
        let values: UnsafeMutablePointer<Double>
        let stride: Int

        init(rows: Int, stride: Int) {
            self.stride = stride
            values = .allocate(capacity: max(rows * stride, 1))
            values.initialize(repeating: 0, count: max(rows * stride, 1))
        }

        deinit { values.deallocate() }

        func row(_ j: Int) -> UnsafeMutablePointer<Double> { values + j * stride }
    }

    /// Calls `body(j, row)` for every row of `input`, converted to interleaved RGBA floats, on all cores.
    static func forEachRowInParallel(
        _ input: ImageProcessorInput, _ body: @escaping @Sendable (Int, UnsafePointer<Float>) -> Void
    ) {
        let width = input.width
        Parallel.forEachBand(input.height, threads: Parallel.defaultThreadCount, minimumBand: 8) { rows in
            let line = UnsafeMutablePointer<Float>.allocate(capacity: 4 * width)
            defer { line.deallocate() }
            for j in rows {
                ProcessorRows.loadInterleaved(input, row: j, into: line)
                body(j, line)
            }
        }
    }

    /// Sums of each channel of `n` interleaved RGBA pixels (16 independent float lanes, folded in Double).
    @inline(never)
    static func channelSums(_ s: UnsafePointer<Float>, _ n: Int) -> SIMD4<Double> {
        var acc = SIMD16<Float>()
        var i = 0
        while i + 4 <= n {
            acc += UnsafeRawPointer(s + 4 * i).loadUnaligned(as: SIMD16<Float>.self)
            i += 4
        }
        var total = SIMD4<Double>(
            Double(acc[0]) + Double(acc[4]) + Double(acc[8]) + Double(acc[12]),
            Double(acc[1]) + Double(acc[5]) + Double(acc[9]) + Double(acc[13]),
            Double(acc[2]) + Double(acc[6]) + Double(acc[10]) + Double(acc[14]),
            Double(acc[3]) + Double(acc[7]) + Double(acc[11]) + Double(acc[15]))
        while i < n {
            total += SIMD4(Double(s[4 * i]), Double(s[4 * i + 1]), Double(s[4 * i + 2]), Double(s[4 * i + 3]))
            i += 1
        }
        return total
    }

    /// `acc[i] += Double(src[i])`.
    @inline(never)
    static func accumulate(_ acc: UnsafeMutablePointer<Double>, _ src: UnsafePointer<Float>, _ n: Int) {
        for i in 0..<n { acc[i] += Double(src[i]) }
    }

    /// Writes one premultiplied pixel to `output`'s pixel `(x, 0)`.
    static func store(_ v: SIMD4<Double>, _ output: ImageProcessorOutput, x: Int = 0, y: Int = 0) {
        let d = output.row(y, as: Float.self) + 4 * x
        d[0] = Float(v.x)
        d[1] = Float(v.y)
        d[2] = Float(v.z)
        d[3] = Float(v.w)
    }
}
