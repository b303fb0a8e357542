import LuxPixels

/// A palette of at most 256 colours for `.rgba8` pixels by Heckbert's median cut, and the mapping of pixels to it
/// (nearest colour, optionally with Floyd–Steinberg error diffusion).
///
/// Colours are counted in a 6-bit-per-channel histogram; the box of colours with the most pixels times the widest
/// side is split at its median along that side until there are enough boxes, and each box's colour is the mean of
/// the pixels in it. Up to eight rounds of Lloyd's k-means over the histogram's cells then move each entry to the mean
/// of the colours nearest to it (stopping early once no entry moves). Pixels are mapped through a 7-bit-per-channel table of nearest entries. When `transparent`
/// is set, index 0 is reserved for pixels whose alpha is below 128.
struct MedianCutQuantizer {
    /// The palette, RGB triples.
    private(set) var palette: [(UInt8, UInt8, UInt8)] = []
    /// The palette index of transparent pixels, if any.
    let transparentIndex: Int?
    /// The nearest palette entry of each 7-bit cell (-1: not yet looked up).
    private var nearest: [Int16]

    private struct Box {
        var lo: (Int, Int, Int)
        var hi: (Int, Int, Int)
        var count: Int
    }

    /// Bits per channel of the histogram, and the largest cell coordinate.
    private static let bits = 6
    private static let top = (1 << bits) - 1

    private static func cell(_ r: Int, _ g: Int, _ b: Int) -> Int {
        (r >> (8 - bits)) << (2 * bits) | (g >> (8 - bits)) << bits | b >> (8 - bits)
    }

    /// Builds a palette of at most `maximumColors` (2…256) entries for `pixels` (`.rgba8`).
    init(_ pixels: PixelBuffer, maximumColors: Int = 256, transparent: Bool) {
        precondition(pixels.format == .rgba8 && (2...256).contains(maximumColors))
        transparentIndex = transparent ? 0 : nil
        nearest = [Int16](repeating: -1, count: 1 << 21)
        var counts = [Int](repeating: 0, count: 1 << (3 * Self.bits))
        var sums = [Int](repeating: 0, count: 3 << (3 * Self.bits))
        pixels.withUnsafePlane { plane in
            for y in 0..<plane.height {
                let row = plane.row(y, as: UInt8.self)
                for x in 0..<plane.width where !transparent || row[4 * x + 3] >= 128 {
                    let (r, g, b) = (Int(row[4 * x]), Int(row[4 * x + 1]), Int(row[4 * x + 2]))
                    let c = Self.cell(r, g, b)
                    counts[c] += 1
                    sums[3 * c] += r
                    sums[3 * c + 1] += g
                    sums[3 * c + 2] += b
                }
            }
        }
        var boxes = [Box(lo: (0, 0, 0), hi: (Self.top, Self.top, Self.top), count: counts.reduce(0, +))]
        if let first = Self.shrink(boxes[0], counts) { boxes[0] = first } else { boxes = [] }
        let target = maximumColors - (transparent ? 1 : 0)
        while boxes.count < target {
            // The box with the most pixels × widest side that can still be split.
            var best = -1
            var bestScore = 0
            for (i, box) in boxes.enumerated() {
                let side = max(box.hi.0 - box.lo.0, box.hi.1 - box.lo.1, box.hi.2 - box.lo.2)
                if side > 0, box.count * side > bestScore {
                    best = i
                    bestScore = box.count * side
                }
            }
            guard best >= 0 else { break }
            let (a, b) = Self.split(boxes[best], counts)
            boxes[best] = a
            boxes.append(b)
        }
        if transparent { palette.append((0, 0, 0)) }
        for box in boxes {
            var total = 0
            var s = (0, 0, 0)
            Self.forEachCell(box) { c in
                total += counts[c]
                s.0 += sums[3 * c]
                s.1 += sums[3 * c + 1]
                s.2 += sums[3 * c + 2]
            }
            guard total > 0 else { continue }
            palette.append((UInt8(s.0 / total), UInt8(s.1 / total), UInt8(s.2 / total)))
        }
        refine(counts: counts, sums: sums)
        if palette.count < 2 { palette.append((0, 0, 0)) }  // GIF colour tables have at least two entries.
    }

    /// Lloyd's k-means over the histogram: every occupied cell (at its mean colour) goes to its nearest entry, and each
    /// entry moves to the mean of its cells' pixels.
    private mutating func refine(counts: [Int], sums: [Int], rounds: Int = 8) {
        let first = transparentIndex == nil ? 0 : 1
        guard palette.count > first else { return }
        let cells = counts.indices.filter { counts[$0] > 0 }
        for _ in 0..<rounds {
            var totals = [Int](repeating: 0, count: palette.count)
            var acc = [(Int, Int, Int)](repeating: (0, 0, 0), count: palette.count)
            for c in cells {
                let n = counts[c]
                let (r, g, b) = (sums[3 * c] / n, sums[3 * c + 1] / n, sums[3 * c + 2] / n)
                let i = nearestEntry(r, g, b)
                totals[i] += n
                acc[i].0 += sums[3 * c]
                acc[i].1 += sums[3 * c + 1]
                acc[i].2 += sums[3 * c + 2]
            }
            var moved = false
            for i in first..<palette.count where totals[i] > 0 {
                let n = totals[i]
                let mean = (
                    UInt8((acc[i].0 + n / 2) / n), UInt8((acc[i].1 + n / 2) / n), UInt8((acc[i].2 + n / 2) / n)
                )
                if mean != palette[i] {
                    palette[i] = mean
                    moved = true
                }
            }
            if !moved { return }
        }
    }

    /// The palette entry nearest to a colour (squared RGB distance), the transparent entry excepted.
    private func nearestEntry(_ r: Int, _ g: Int, _ b: Int) -> Int {
        var best = 0
        var bestDistance = Int.max
        for (i, p) in palette.enumerated() where i != transparentIndex {
            let (dr, dg, db) = (Int(p.0) - r, Int(p.1) - g, Int(p.2) - b)
            let d = dr * dr + dg * dg + db * db
            if d < bestDistance {
                best = i
                bestDistance = d
            }
        }
        return best
    }

    private static func forEachCell(_ box: Box, _ body: (Int) -> Void) {
        for r in box.lo.0...box.hi.0 {
            for g in box.lo.1...box.hi.1 {
                for b in box.lo.2...box.hi.2 { body(r << (2 * bits) | g << bits | b) }
            }
        }
    }

    /// The box shrunk to the cells that hold pixels (`nil` when it holds none).
    private static func shrink(_ box: Box, _ counts: [Int]) -> Box? {
        var lo = (top, top, top)
        var hi = (0, 0, 0)
        var total = 0
        forEachCell(box) { c in
            guard counts[c] > 0 else { return }
            let (r, g, b) = (c >> (2 * bits), c >> bits & top, c & top)
            lo = (min(lo.0, r), min(lo.1, g), min(lo.2, b))
            hi = (max(hi.0, r), max(hi.1, g), max(hi.2, b))
            total += counts[c]
        }
        return total == 0 ? nil : Box(lo: lo, hi: hi, count: total)
    }

    /// Splits a box at the median of its widest side.
    private static func split(_ box: Box, _ counts: [Int]) -> (Box, Box) {
        let sides = [box.hi.0 - box.lo.0, box.hi.1 - box.lo.1, box.hi.2 - box.lo.2]
        let axis = sides.firstIndex(of: sides.max()!)!
        let lo = [box.lo.0, box.lo.1, box.lo.2][axis]
        let hi = [box.hi.0, box.hi.1, box.hi.2][axis]
        var perSlice = [Int](repeating: 0, count: top + 1)
        let shift = [2 * bits, bits, 0][axis]
        forEachCell(box) { c in perSlice[c >> shift & top] += counts[c] }
        var cut = lo
        var running = perSlice[lo]
        while cut < hi - 1, running * 2 < box.count {
            cut += 1
            running += perSlice[cut]
        }
        var a = box
        var b = box
        switch axis {
        case 0: (a.hi.0, b.lo.0) = (cut, cut + 1)
        case 1: (a.hi.1, b.lo.1) = (cut, cut + 1)
        default: (a.hi.2, b.lo.2) = (cut, cut + 1)
        }
        // Both halves hold pixels: the cut leaves slice `lo` in one and slice `hi` in the other.
        return (shrink(a, counts)!, shrink(b, counts)!)
    }

    /// The palette entry nearest to a colour, looked up once per 7-bit cell (at the cell's upper colour).
    private mutating func index(_ r: Int, _ g: Int, _ b: Int) -> UInt8 {
        let c = (r >> 1) << 14 | (g >> 1) << 7 | b >> 1
        if nearest[c] >= 0 { return UInt8(nearest[c]) }
        let best = nearestEntry(r | 1, g | 1, b | 1)
        nearest[c] = Int16(best)
        return UInt8(best)
    }

    /// The palette indices of `pixels` (`.rgba8`), row by row, with Floyd–Steinberg dithering when `dithers` is set.
    mutating func map(_ pixels: PixelBuffer, dithers: Bool) -> [UInt8] {
        let w = pixels.width
        var out = [UInt8](repeating: 0, count: w * pixels.height)
        // The diffused error of this row and the next, per channel (one pixel of margin either side).
        var current = [Float](repeating: 0, count: 3 * (w + 2))
        var next = current
        pixels.withUnsafePlane { plane in
            for y in 0..<plane.height {
                let row = plane.row(y, as: UInt8.self)
                for x in 0..<w {
                    if let t = transparentIndex, row[4 * x + 3] < 128 {
                        out[y * w + x] = UInt8(t)
                        continue
                    }
                    var v = (Int(row[4 * x]), Int(row[4 * x + 1]), Int(row[4 * x + 2]))
                    if dithers {
                        let e = 3 * (x + 1)
                        v = (
                            clamp(Float(v.0) + current[e]), clamp(Float(v.1) + current[e + 1]),
                            clamp(Float(v.2) + current[e + 2])
                        )
                    }
                    let i = index(v.0, v.1, v.2)
                    out[y * w + x] = i
                    guard dithers else { continue }
                    let p = palette[Int(i)]
                    let error = [Float(v.0 - Int(p.0)), Float(v.1 - Int(p.1)), Float(v.2 - Int(p.2))]
                    let e = 3 * (x + 1)
                    for k in 0..<3 {
                        current[e + 3 + k] += error[k] * 7 / 16
                        next[e - 3 + k] += error[k] * 3 / 16
                        next[e + k] += error[k] * 5 / 16
                        next[e + 3 + k] += error[k] * 1 / 16
                    }
                }
                swap(&current, &next)
                for k in next.indices { next[k] = 0 }
            }
        }
        return out
    }

    private func clamp(_ v: Float) -> Int { Int(max(0, min(255, v.rounded()))) }
}
