import LuxPixels

/// Downscales 8-bit four-channel images (RGBA or BGRA) by area averaging: each output pixel is the mean of the
/// source area it covers, with fractional weights at the edges (the ISP scaler for standard-size photos and
/// previews).
enum AreaScaler {
    /// The taps of one axis: for output `i`, source indices `start[i] ..< start[i] + count[i]` with weights.
    struct Taps {
        var start: [Int]
        var count: [Int]
        var weights: [Float]  // `stride` per output
        var stride: Int

        init(source: Int, destination: Int) {
            let scale = Double(source) / Double(destination)
            stride = Int(scale.rounded(.up)) + 2
            start = []
            count = []
            weights = []
            for i in 0..<destination {
                let a = Double(i) * scale
                let b = Double(i + 1) * scale
                let s = Int(a)
                let e = min(source, Int(b.rounded(.up)))
                var ws = [Float](repeating: 0, count: stride)
                for k in s..<e {
                    let lo = max(a, Double(k))
                    let hi = min(b, Double(k + 1))
                    ws[k - s] = Float(max(0, hi - lo) / scale)
                }
                start.append(s)
                count.append(e - s)
                weights.append(contentsOf: ws)
            }
        }
    }

    /// `source` scaled to `width × height` (no larger than the source), in the source's format and colour space.
    static func scaled(_ source: PixelBuffer, width: Int, height: Int, pool: BufferPool, threads: Int) -> PixelBuffer {
        precondition(source.format == .rgba8 || source.format == .bgra8, "area scaling takes 8-bit RGBA or BGRA")
        if width == source.width && height == source.height { return source }
        let tx = Taps(source: source.width, destination: width)
        let ty = Taps(source: source.height, destination: height)
        let out = PipelineBuffers.buffer(
            pool: pool, format: source.format, width: width, height: height, colorSpace: source.colorSpace)
        let dst = out.unsafeSharedMutablePlane(0)
        source.withUnsafePlane { plane in
            Parallel.forEachBand(height, threads: threads) { rows in
                var acc = [Float](repeating: 0, count: width * 4)
                var line = [Float](repeating: 0, count: width * 4)
                for oy in rows {
                    for i in 0..<acc.count { acc[i] = 0 }
                    for k in 0..<ty.count[oy] {
                        let wy = ty.weights[oy * ty.stride + k]
                        let src = plane.row(ty.start[oy] + k, as: UInt8.self)
                        for ox in 0..<width {
                            var r: Float = 0
                            var g: Float = 0
                            var b: Float = 0
                            var a: Float = 0
                            let s0 = tx.start[ox]
                            let base = ox * tx.stride
                            for j in 0..<tx.count[ox] {
                                let wx = tx.weights[base + j]
                                let p = 4 * (s0 + j)
                                r += wx * Float(src[p])
                                g += wx * Float(src[p + 1])
                                b += wx * Float(src[p + 2])
                                a += wx * Float(src[p + 3])
                            }
                            line[4 * ox] = r
                            line[4 * ox + 1] = g
                            line[4 * ox + 2] = b
                            line[4 * ox + 3] = a
                        }
                        for i in 0..<acc.count { acc[i] += wy * line[i] }
                    }
                    let o = dst.row(oy, as: UInt8.self)
                    // Truncation of x + ½ rounds.
                    for i in 0..<acc.count { o[i] = UInt8(min(max(acc[i] + 0.5, 0), 255)) }
                }
            }
        }
        return out
    }
}
