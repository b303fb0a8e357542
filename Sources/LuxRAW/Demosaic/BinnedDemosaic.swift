/// The reduced-size reconstruction: each block of `binning × binning` photosites becomes one pixel whose red, green
/// and blue are the means of the block's photosites of each colour, as `dcraw -h` does for 2×2 Bayer quads.
///
/// Bayer blocks are 2, 4, 8 … photosites wide, X-Trans blocks 3, 6, 12 … (every 3×3 X-Trans block holds two reds,
/// five greens and two blues). No interpolation: for reduced-size renders and drafts.
enum BinnedDemosaic {
    /// Fills `count` pixels of one output row from `binning` mosaic rows that start on a block boundary, `rowStride`
    /// floats apart; `layout` is the colour filter array at the first row's first photosite.
    @inline(never)
    static func row(
        _ rows: UnsafePointer<Float>, rowStride: Int, count n: Int, binning b: Int, layout: MosaicLayout,
        red: UnsafeMutablePointer<Float>, green: UnsafeMutablePointer<Float>, blue: UnsafeMutablePointer<Float>
    ) {
        // The colours of the blocks of this row: `kinds` block arrangements repeat along it (one for Bayer, two for
        // 3-wide X-Trans blocks).
        let kinds = layout.period / gcd(layout.period, b)
        let colors = (0..<(kinds * b * b)).map { j in
            layout.channel(x: (j / (b * b)) * b + j % b, y: (j % (b * b)) / b).rawValue
        }
        let scales = (0..<kinds).map { k in
            var counts = SIMD3<Float>(0, 0, 0)
            for j in 0..<(b * b) { counts[colors[k * b * b + j]] += 1 }
            return 1 / counts
        }
        if b == 2, case .bayer = layout {
            quads(rows, rowStride: rowStride, count: n, colors: colors, red: red, green: green, blue: blue)
            return
        }
        colors.withUnsafeBufferPointer { colors in
            for i in 0..<n {
                let k = i % kinds
                let block = colors.baseAddress! + k * b * b
                var sums = SIMD3<Float>(0, 0, 0)
                for dy in 0..<b {
                    let r = rows + dy * rowStride + i * b
                    for dx in 0..<b { sums[block[dy * b + dx]] += r[dx] }
                }
                let v = sums * scales[k]
                red[i] = v.x
                green[i] = v.y
                blue[i] = v.z
            }
        }
    }

    /// The half-size case: 2×2 Bayer quads of one red, two greens (averaged in quad order) and one blue, each read at
    /// its fixed offset — the same values as the general loop, without a colour lookup per photosite.
    static func quads(
        _ rows: UnsafePointer<Float>, rowStride: Int, count n: Int, colors: [Int],
        red: UnsafeMutablePointer<Float>, green: UnsafeMutablePointer<Float>, blue: UnsafeMutablePointer<Float>
    ) {
        let offsets = (0..<4).map { ($0 / 2) * rowStride + $0 % 2 }
        let greens = (0..<4).filter { colors[$0] == 1 }.map { offsets[$0] }
        let r = offsets[colors.firstIndex(of: 0) ?? 0]
        let g0 = greens.first ?? 0
        let g1 = greens.last ?? 0
        let bl = offsets[colors.firstIndex(of: 2) ?? 0]
        for i in 0..<n {
            let q = rows + 2 * i
            red[i] = q[r]
            green[i] = (q[g0] + q[g1]) * 0.5
            blue[i] = q[bl]
        }
    }

    static func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
}
