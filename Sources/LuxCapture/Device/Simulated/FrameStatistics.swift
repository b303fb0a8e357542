import CLuxKernels
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
        let w = raw.width
        let h = raw.height
        let quad = (raw.format.cfaPattern ?? .rggb).quadChannels.map(\.rawValue)
        let inv = 1 / Double(whiteLevel - blackLevel)
        let black = Double(blackLevel)
        let clipCode = UInt16(max(0, whiteLevel - 64))
        // Cell cx holds columns x with ⌊x·columns/w⌋ = cx: from ⌈cx·w/columns⌉.
        let cellStarts = (0...columns).map { ($0 * w + columns - 1) / columns }
        // Per cell per channel: sum, count, clipped.
        var sums = [SIMD4<Double>](repeating: .zero, count: columns * rows * 3)
        raw.withUnsafePlane { plane in
            var pairSums = [UInt32](repeating: 0, count: 4)
            for y in 0..<h {
                let row = plane.row(y, as: UInt16.self)
                let cy = y * rows / h
                let c0 = quad[(y & 1) * 2]
                let c1 = quad[(y & 1) * 2 + 1]
                for cx in 0..<columns {
                    let start = cellStarts[cx]
                    let end = cellStarts[cx + 1]
                    guard end > start else { continue }
                    // Integer sums (exact) of the even and odd columns.
                    var s0: UInt32 = 0
                    var s1: UInt32 = 0
                    var k0: UInt32 = 0
                    var k1: UInt32 = 0
                    var lo = start
                    var hi = end
                    if lo & 1 == 1 {
                        s1 += UInt32(row[lo])
                        k1 += row[lo] >= clipCode ? 1 : 0
                        lo += 1
                    }
                    if hi > lo, hi & 1 == 1 {
                        hi -= 1
                        s0 += UInt32(row[hi])
                        k0 += row[hi] >= clipCode ? 1 : 0
                    }
                    lux_pair_sums(row + lo, (hi - lo) / 2, clipCode, &pairSums)
                    s0 &+= pairSums[0]
                    s1 &+= pairSums[1]
                    k0 &+= pairSums[2]
                    k1 &+= pairSums[3]
                    let n0 = (end + 1) / 2 - (start + 1) / 2
                    let n1 = end / 2 - start / 2
                    let base = (cy * columns + cx) * 3
                    sums[base + c0] += SIMD4((Double(s0) - black * Double(n0)) * inv, Double(n0), Double(k0), 0)
                    sums[base + c1] += SIMD4((Double(s1) - black * Double(n1)) * inv, Double(n1), Double(k1), 0)
                }
            }
        }
        var means: [SIMD3<Float>] = []
        var clipped: [Float] = []
        for cell in 0..<(columns * rows) {
            var m = SIMD3<Float>.zero
            var k = 0.0
            var n = 0.0
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
