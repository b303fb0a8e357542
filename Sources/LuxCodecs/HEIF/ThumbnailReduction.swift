import LuxPixels

/// Reduces an image fed in bands to a thumbnail whose long side is `side` (even width and height), each thumbnail
/// pixel the mean of the source pixels it covers.
struct ThumbnailReduction {
    let width: Int
    let height: Int
    let thumbWidth: Int
    let thumbHeight: Int
    private var sums: [Float]
    private var counts: [Float]
    private var row = 0

    init(width: Int, height: Int, side: Int) {
        self.width = width
        self.height = height
        let scale = Double(side) / Double(max(width, height))
        func even(_ v: Double) -> Int { max(2, Int((v / 2).rounded()) * 2) }
        thumbWidth = min(even(Double(width) * scale), max(2, width / 2 * 2))
        thumbHeight = min(even(Double(height) * scale), max(2, height / 2 * 2))
        sums = [Float](repeating: 0, count: thumbWidth * thumbHeight * 3)
        counts = [Float](repeating: 0, count: thumbWidth * thumbHeight)
    }

    /// Adds the next rows (`.rgba8` or `.rgba16`, the source's width).
    mutating func add(_ band: PixelBuffer) {
        let sixteen = band.format.componentType == .uint16
        let columns = (0..<width).map { $0 * thumbWidth / width }
        band.withUnsafePlane { plane in
            for r in 0..<band.height {
                let ty = min((row + r) * thumbHeight / height, thumbHeight - 1)
                let base = ty * thumbWidth
                for x in 0..<width {
                    let tx = columns[x]
                    let i = base + tx
                    let v: SIMD3<Float>
                    if sixteen {
                        let p = plane.row(r, as: UInt16.self) + 4 * x
                        v = SIMD3(Float(p[0]), Float(p[1]), Float(p[2]))
                    } else {
                        let p = plane.row(r, as: UInt8.self) + 4 * x
                        v = SIMD3(Float(p[0]), Float(p[1]), Float(p[2]))
                    }
                    sums[3 * i] += v.x
                    sums[3 * i + 1] += v.y
                    sums[3 * i + 2] += v.z
                    counts[i] += 1
                }
            }
        }
        row += band.height
    }

    /// The thumbnail in `format` (`.rgba8` or `.rgba16`).
    func result(format: PixelFormat) -> PixelBuffer {
        var out = PixelBuffer(width: thumbWidth, height: thumbHeight, format: format)
        let sixteen = format.componentType == .uint16
        out.withUnsafeMutablePlane { plane in
            for y in 0..<thumbHeight {
                for x in 0..<thumbWidth {
                    let i = y * thumbWidth + x
                    let n = max(counts[i], 1)
                    let v = (0..<3).map { sums[3 * i + $0] / n }
                    if sixteen {
                        let p = plane.row(y, as: UInt16.self) + 4 * x
                        for c in 0..<3 { p[c] = UInt16(min(max(v[c].rounded(), 0), 65535)) }
                        p[3] = .max
                    } else {
                        let p = plane.row(y, as: UInt8.self) + 4 * x
                        for c in 0..<3 { p[c] = UInt8(min(max(v[c].rounded(), 0), 255)) }
                        p[3] = .max
                    }
                }
            }
        }
        return out
    }
}
