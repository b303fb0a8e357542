import LuxPixels

/// Reduced grey images of video frames for motion analysis.
enum LumaReader {
    /// The luma of `frame` averaged over `factor × factor` blocks (BT.709 weights on RGB; Y′ for Y′CbCr).
    static func grey(_ frame: PixelBuffer, factor: Int, threads: Int) -> PlanarBuffer<Float> {
        let w = max(1, frame.width / factor)
        let h = max(1, frame.height / factor)
        let out = PlanarBuffer<Float>(width: w, height: h)
        let scale = 1 / Float(factor * factor)
        Parallel.forEachBand(h, threads: threads, minimumBand: 4) { rows in
            let row = UnsafeMutablePointer<Float>.allocate(capacity: 4 * frame.width + 16)
            let luma = UnsafeMutablePointer<Float>.allocate(capacity: frame.width + 16)
            defer {
                row.deallocate()
                luma.deallocate()
            }
            for y in rows {
                let o = out.row(0, y)
                for x in 0..<w { o[x] = 0 }
                for j in 0..<factor {
                    let sy = min(y * factor + j, frame.height - 1)
                    if frame.format.isYCbCr {
                        frame.withUnsafePlane(0) { plane in
                            let p = plane.row(sy, as: UInt8.self)
                            let video = frame.format.isVideoRange
                            for x in 0..<frame.width {
                                luma[x] = video ? (Float(p[x]) - 16) * (1 / 219) : Float(p[x]) * (1 / 255)
                            }
                        }
                    } else {
                        frame.readRGBAFloat(row: sy, into: row)
                        for x in 0..<frame.width {
                            luma[x] = 0.2126 * row[4 * x] + 0.7152 * row[4 * x + 1] + 0.0722 * row[4 * x + 2]
                        }
                    }
                    for x in 0..<w {
                        var s: Float = 0
                        for i in 0..<factor { s += luma[min(x * factor + i, frame.width - 1)] }
                        o[x] += s * scale
                    }
                }
            }
        }
        return out
    }
}
