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
        band.withUnsafePlane { plane in
            addRows(band.height) { r, x in
                if sixteen {
                    let p = plane.row(r, as: UInt16.self) + 4 * x
                    return SIMD3(Float(p[0]), Float(p[1]), Float(p[2]))
                }
                let p = plane.row(r, as: UInt8.self) + 4 * x
                return SIMD3(Float(p[0]), Float(p[1]), Float(p[2]))
            }
        }
    }

    /// Adds the next rows, `rows` of 8-bit planes.
    mutating func add(planes: PlanarRGB8, rows: Range<Int>) {
        let (red, green, blue) = (planes.red, planes.green, planes.blue)
        addRows(rows.count) { r, x in
            let y = rows.lowerBound + r
            return SIMD3(
                Float(red.base[y * red.stride + x]), Float(green.base[y * green.stride + x]),
                Float(blue.base[y * blue.stride + x]))
        }
    }

    /// Adds `count` rows whose pixel (`x`, row `r` of them) `sample` gives.
    private mutating func addRows(_ count: Int, _ sample: (_ r: Int, _ x: Int) -> SIMD3<Float>) {
        let columns = (0..<width).map { $0 * thumbWidth / width }
        for r in 0..<count {
            let ty = min((row + r) * thumbHeight / height, thumbHeight - 1)
            let base = ty * thumbWidth
            for x in 0..<width {
                let i = base + columns[x]
                let v = sample(r, x)
                sums[3 * i] += v.x
                sums[3 * i + 1] += v.y
                sums[3 * i + 2] += v.z
                counts[i] += 1
            }
        }
        row += count
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
