public import LuxPixels

/// The 3A statistics of one Bayer frame: a grid of cells with the mean normalised red, green and blue of
/// their photosites and the fraction that clipped (ALGORITHMS.md §5.2, §4.5).
public struct FrameStatistics: Sendable {
    /// Grid columns.
    public let columns: Int
    /// Grid rows.
    public let rows: Int
    /// Mean (R, G, B), black-subtracted and divided by the white − black range, per cell, row-major.
    public let means: [SIMD3<Float>]
    /// Fraction of clipped photosites per cell.
    public let clippedFractions: [Float]

    /// Computes the grid from a Bayer buffer.
    public init(raw: PixelBuffer, blackLevel: Int, whiteLevel: Int, columns: Int = 32, rows: Int = 24) {
        precondition(raw.format.isBayer, "statistics need a Bayer frame")
        self.columns = columns
        self.rows = rows
        let w = raw.width, h = raw.height
        let quad = (raw.format.cfaPattern ?? .rggb).quadChannels.map(\.rawValue)
        let inv = 1 / Float(whiteLevel - blackLevel), black = Float(blackLevel)
        let clipCode = UInt16(max(0, whiteLevel - 64))
        let cellOfColumn = (0..<w).map { $0 * columns / w }
        var sums = [SIMD4<Double>](repeating: .zero, count: columns * rows * 3)  // per cell per channel: sum, count, clipped
        raw.withUnsafePlane { plane in
            for y in 0..<h {
                let row = plane.row(y, as: UInt16.self)
                let cy = y * rows / h
                let c0 = quad[(y & 1) * 2], c1 = quad[(y & 1) * 2 + 1]
                var x: Int
                var cellStart = 0
                while cellStart < w {
                    let cx = cellOfColumn[cellStart]
                    var end = cellStart
                    while end < w && cellOfColumn[end] == cx { end += 1 }
                    var s0: Float = 0, s1: Float = 0, n0 = 0, n1 = 0, k0 = 0, k1 = 0
                    x = cellStart
                    while x < end {
                        let v = row[x]
                        if x & 1 == 0 {
                            s0 += (Float(v) - black) * inv
                            n0 += 1
                            if v >= clipCode { k0 += 1 }
                        } else {
                            s1 += (Float(v) - black) * inv
                            n1 += 1
                            if v >= clipCode { k1 += 1 }
                        }
                        x += 1
                    }
                    let base = (cy * columns + cx) * 3
                    sums[base + c0] += SIMD4(Double(s0), Double(n0), Double(k0), 0)
                    sums[base + c1] += SIMD4(Double(s1), Double(n1), Double(k1), 0)
                    cellStart = end
                }
            }
        }
        var means: [SIMD3<Float>] = []
        var clipped: [Float] = []
        for cell in 0..<(columns * rows) {
            var m = SIMD3<Float>.zero
            var k = 0.0, n = 0.0
            for c in 0..<3 {
                let s = sums[cell * 3 + c]
                m[c] = s.y > 0 ? Float(s.x / s.y) : 0
                k += s.z
                n += s.y
            }
            means.append(m)
            clipped.append(n > 0 ? Float(k / n) : 0)
        }
        self.means = means
        self.clippedFractions = clipped
    }

    /// The centre of cell `i` in normalised frame coordinates (0…1 on both axes).
    public func cellCenter(_ i: Int) -> SIMD2<Double> {
        SIMD2((Double(i % columns) + 0.5) / Double(columns), (Double(i / columns) + 0.5) / Double(rows))
    }
}
