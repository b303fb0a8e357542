/// Composites the layers of a set of ``LayerPlan``s row by row over a band of the output grid.
enum BandCompositor {
    /// The fixed band partition of a grid of `height` rows for layers whose largest blur support is `support`: bands of
    /// at least four supports (so re-reading the rows around a band costs little), at most eight bands.
    ///
    /// It depends only on the grid and the blur, never on the thread count, so results are bit-identical on any number
    /// of threads.
    static func bandHeight(height: Int, support: Int) -> Int {
        let target = max(32, 4 * support)
        let bands = max(min(2, height / 32), min(8, height / target), 1)
        return (height + bands - 1) / bands
    }

    /// A layer's rows for one band: on the grid, or interpolated from a coarse card.
    enum Source {
        case grid(LayerStream)
        case coarse(UpsampledLayerStream)
    }

    /// Renders rows `band` of a `width`-wide grid: calls `sink(y, row)` for every row, where `row` holds
    /// three colour planes (and an alpha plane when `withAlpha`), `width` apart, premultiplied.
    static func render(
        _ plans: [LayerPlan], width: Int, band: Range<Int>, withAlpha: Bool,
        sink: (Int, UnsafePointer<Float>) -> Void
    ) {
        // Layers behind the last opaque one are hidden.
        let start = plans.lastIndex { !$0.hasAlpha } ?? 0
        let active = Array(plans[start...])
        let sources = active.map { p -> Source? in
            let g = p.gridBox
            guard band.upperBound > g.y0, band.lowerBound < g.y0 + g.height else { return nil }
            if p.scale > 1 { return .coarse(UpsampledLayerStream(plan: p, rows: band, gridWidth: width)) }
            let first = max(0, band.lowerBound - p.box.y0)
            return .grid(
                LayerStream(plan: p, firstRow: first, lastRow: min(p.box.height, band.upperBound - p.box.y0) - 1))
        }
        let planes = withAlpha ? 4 : 3
        let acc = UnsafeMutablePointer<Float>.allocate(capacity: planes * width)
        defer { acc.deallocate() }
        let transmittance = UnsafeMutablePointer<Float>.allocate(capacity: width)
        defer { transmittance.deallocate() }
        // The accumulator starts at zero; the first layer drawn on a row clears only what it does not overwrite
        // (an opaque layer's columns are replaced, not blended).
        @inline(__always) func clear(except kept: Range<Int>) {
            for c in 0..<planes {
                (acc + c * width).update(repeating: 0, count: kept.lowerBound)
                (acc + c * width + kept.upperBound).update(repeating: 0, count: width - kept.upperBound)
            }
        }
        for y in band {
            var cleared = false
            for (i, p) in active.enumerated() {
                switch sources[i] {
                case nil: continue
                case .grid(let stream)?:
                    let cy = y - p.box.y0
                    guard cy >= 0, cy < p.box.height, let row = stream.row(cy) else { continue }
                    let ox0 = max(0, p.box.x0)
                    let ox1 = min(width, p.box.x0 + p.box.width)
                    guard ox1 > ox0 else { continue }
                    let n = ox1 - ox0
                    let cx = ox0 - p.box.x0
                    let cw = p.box.width
                    if !cleared { clear(except: p.hasAlpha ? 0..<0 : ox0..<ox1) }
                    cleared = true
                    if p.hasAlpha {
                        let a = row + 3 * cw + cx
                        for c in 0..<3 {
                            let o = acc + c * width + ox0
                            let s = row + c * cw + cx
                            for x in 0..<n { o[x] = o[x] * (1 - a[x]) + s[x] }
                        }
                        if withAlpha {
                            let o = acc + 3 * width + ox0
                            for x in 0..<n { o[x] = o[x] * (1 - a[x]) + a[x] }
                        }
                    } else {
                        for c in 0..<3 { (acc + c * width + ox0).update(from: row + c * cw + cx, count: n) }
                        if withAlpha { (acc + 3 * width + ox0).update(repeating: 1, count: n) }
                    }
                case .coarse(let stream)?:
                    let g = p.gridBox
                    guard y >= g.y0, y < g.y0 + g.height, stream.width > 0, let (top, bottom, t) = stream.row(y) else {
                        continue
                    }
                    if !cleared { clear(except: p.hasAlpha ? 0..<0 : stream.x0..<(stream.x0 + stream.width)) }
                    cleared = true
                    blend(
                        top: top, bottom: bottom, t: t, count: stream.width, hasAlpha: p.hasAlpha, withAlpha: withAlpha,
                        into: acc + stream.x0, stride: width, scratch: transmittance)
                }
            }
            if !cleared { clear(except: 0..<0) }
            sink(y, acc)
        }
    }

    /// Blends the row `top + t·(bottom − top)` (planes `count` apart, premultiplied, alpha last when `hasAlpha`) over
    /// `count` pixels of the accumulator (planes `stride` apart).
    ///
    /// `scratch` has room for `count` floats (each pixel's 1 − α, interpolated once for all planes).
    static func blend(
        top: UnsafePointer<Float>, bottom: UnsafePointer<Float>, t: Float, count n: Int, hasAlpha: Bool,
        withAlpha: Bool, into acc: UnsafeMutablePointer<Float>, stride: Int, scratch: UnsafeMutablePointer<Float>
    ) {
        if hasAlpha {
            let a0 = top + 3 * n
            let a1 = bottom + 3 * n
            let k = scratch
            for x in 0..<n { k[x] = 1 - (a0[x] + t * (a1[x] - a0[x])) }
            for c in 0..<3 {
                let o = acc + c * stride
                let c0 = top + c * n
                let c1 = bottom + c * n
                for x in 0..<n { o[x] = o[x] * k[x] + (c0[x] + t * (c1[x] - c0[x])) }
            }
            if withAlpha {
                let o = acc + 3 * stride
                for x in 0..<n { o[x] = o[x] * k[x] + (a0[x] + t * (a1[x] - a0[x])) }
            }
        } else {
            for c in 0..<3 {
                let o = acc + c * stride
                let c0 = top + c * n
                let c1 = bottom + c * n
                for x in 0..<n { o[x] = c0[x] + t * (c1[x] - c0[x]) }
            }
            if withAlpha { (acc + 3 * stride).update(repeating: 1, count: n) }
        }
    }
}
