import CLuxKernels
import LuxFilters
import LuxPixels

/// Downscales 8-bit four-channel images (RGBA or BGRA) by area averaging: each output pixel is the mean of the
/// source area it covers, with fractional weights at the edges (the ISP scaler for standard-size photos and
/// previews).
enum AreaScaler {
    /// The taps of one axis: for output `i`, source indices `start[i] ..< start[i] + taps` with weights (zero beyond
    /// the source area the output covers).
    struct Taps {
        var start: [Int]
        var weights: [Float]  // `taps` per output
        /// The most source indices an output covers.
        var taps: Int

        init(source: Int, destination: Int) {
            let scale = Double(source) / Double(destination)
            var spans: [(start: Int, weights: [Float])] = []
            for i in 0..<destination {
                let a = Double(i) * scale
                let b = Double(i + 1) * scale
                let s = Int(a)
                let e = min(source, Int(b.rounded(.up)))
                spans.append((s, (s..<e).map { k in Float(max(0, min(b, Double(k + 1)) - max(a, Double(k))) / scale) }))
            }
            let taps = spans.map(\.weights.count).max() ?? 1
            self.taps = taps
            start = spans.map(\.start)
            weights = spans.flatMap { $0.weights + [Float](repeating: 0, count: taps - $0.weights.count) }
        }
    }

    /// `source` scaled to `width × height` (no larger than the source), in the source's format and colour space.
    ///
    /// Separable, with the resamplers' passes (LuxFilters' `weightedPixelSum`, `weightedSum`): each band of output
    /// rows filters the source rows it needs horizontally once, into a ring of as many float rows as an output's
    /// vertical footprint spans, and sums them vertically. The sums run in tap order from zero, as a direct
    /// two-dimensional sum per pixel would, and half-way sums round up.
    static func scaled(_ source: PixelBuffer, width: Int, height: Int, pool: BufferPool, threads: Int) -> PixelBuffer {
        precondition(source.format == .rgba8 || source.format == .bgra8, "area scaling takes 8-bit RGBA or BGRA")
        if width == source.width && height == source.height { return source }
        let tx = Taps(source: source.width, destination: width)
        let ty = Taps(source: source.height, destination: height)
        let out = PipelineBuffers.buffer(
            pool: pool, format: source.format, width: width, height: height, colorSpace: source.colorSpace)
        let dst = out.unsafeSharedMutablePlane(0)
        let sourceWidth = source.width
        source.withUnsafePlane { plane in
            Parallel.forEachBand(height, threads: threads) { rows in
                let ringRows = ty.taps
                let ring = UnsafeMutablePointer<Float>.allocate(capacity: ringRows * width * 4)
                // A source row in float, with room for the zero-weighted taps past its right edge.
                let line = UnsafeMutablePointer<Float>.allocate(capacity: (sourceWidth + tx.taps) * 4)
                line.initialize(repeating: 0, count: (sourceWidth + tx.taps) * 4)
                let sum = UnsafeMutablePointer<Float>.allocate(capacity: width * 4)
                let lines = UnsafeMutablePointer<UnsafePointer<Float>>.allocate(capacity: ringRows)
                defer {
                    ring.deallocate()
                    line.deallocate()
                    sum.deallocate()
                    lines.deallocate()
                }
                // The source row each ring slot holds (slot = row % ringRows).
                var held = [Int](repeating: -1, count: ringRows)
                tx.start.withUnsafeBufferPointer { xStart in
                    tx.weights.withUnsafeBufferPointer { xWeights in
                        ty.weights.withUnsafeBufferPointer { yWeights in
                            for oy in rows {
                                let y0 = ty.start[oy]
                                for k in 0..<ringRows {
                                    // A zero-weighted tap past the last row reads the footprint's first row.
                                    let y = y0 + k < source.height ? y0 + k : y0
                                    let slot = ring + y % ringRows * width * 4
                                    lines[k] = UnsafePointer(slot)
                                    guard held[y % ringRows] != y else { continue }
                                    let src = plane.row(y, as: UInt8.self)
                                    lux_widen_bytes(src, line, sourceWidth * 4)
                                    weightedPixelSum(
                                        line, first: xStart.baseAddress!, weights: xWeights.baseAddress!,
                                        taps: tx.taps, into: slot, count: width)
                                    held[y % ringRows] = y
                                }
                                weightedSum(
                                    rows: lines, weights: yWeights.baseAddress! + oy * ringRows, taps: ringRows,
                                    into: sum, count: width * 4)
                                lux_narrow_rounding_up(sum, dst.row(oy, as: UInt8.self), width * 4)
                            }
                        }
                    }
                }
            }
        }
        return out
    }
}
