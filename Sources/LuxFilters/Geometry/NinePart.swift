import LuxPixels
import LuxRender

/// One axis of a nine-part resize: below `b0` and above `b1` the image is copied, the middle `[b0, b1)` is
/// stretched (or tiled) over `b1 − b0 + grow`.
struct NinePartAxis: Sendable, Hashable {
    let b0: Double
    let b1: Double
    let grow: Double
    let tiled: Bool
    let mirrored: Bool

    /// Breakpoints sorted and clamped into `[lo, hi]`; growth limited so the middle keeps a positive size.
    init(_ p: Double, _ q: Double, lo: Double, hi: Double, grow: Double, tiled: Bool, mirrored: Bool = false) {
        let a = min(max(min(p, q), lo), hi)
        let b = min(max(max(p, q), lo), hi)
        b0 = a
        b1 = b
        self.grow = max(grow, -(b - a))
        self.tiled = tiled
        self.mirrored = mirrored
    }

    /// The source coordinate shown at destination coordinate `d`.
    func source(_ d: Double) -> Double {
        if d < b0 { return d }
        let end = b1 + grow
        if d >= end { return d - grow }
        let width = b1 - b0
        guard width > 0 else { return b0 }
        if !tiled { return b0 + (d - b0) * width / (width + grow) }
        let t = (d - b0) / width
        let k = t.rounded(.down)
        let u = (t - k) * width
        let odd = Int(k) & 1 == 1
        return mirrored && odd ? b1 - u : b0 + u
    }

    /// The source interval a destination interval reads.
    func sourceRange(_ lo: Double, _ hi: Double) -> (Double, Double) {
        var a = Double.infinity
        var b = -Double.infinity
        if lo < b0 {
            a = min(a, lo)
            b = max(b, min(hi, b0))
        }
        let end = b1 + grow
        if hi > b0 && lo < end {
            if tiled {
                a = min(a, b0)
                b = max(b, b1)
            } else {
                a = min(a, source(max(lo, b0)))
                b = max(b, source(min(hi, end)))
            }
        }
        if hi > end {
            a = min(a, max(lo, end) - grow)
            b = max(b, hi - grow)
        }
        return a <= b ? (a, b) : (b0, b0)
    }
}

/// The shared body of ``Filters/NinePartStretched`` and ``Filters/NinePartTiled``.
enum NinePart {
    static func apply(_ image: Image, x: NinePartAxis, y: NinePartAxis, name: String, arguments: String) -> Image {
        let e = image.extent
        guard !e.isInfinite, !e.isEmpty else { return image }
        let extent = Rect(minX: e.minX, minY: e.minY, maxX: e.maxX + x.grow, maxY: e.maxY + y.grow)
        let kernel = WarpKernel(name: name) { row in
            let sy = Float(y.source(Double(row.y) + 0.5))
            for i in 0..<row.count {
                row.sourceX[i] = Float(x.source(Double(row.x + i) + 0.5))
                row.sourceY[i] = sy
            }
        }
        return kernel.apply(extent: extent, image: image, arguments: arguments) { r in
            let (x0, x1) = x.sourceRange(r.minX, r.maxX)
            let (y0, y1) = y.sourceRange(r.minY, r.maxY)
            return Rect(minX: x0, minY: y0, maxX: x1, maxY: y1).insetBy(dx: -1, dy: -1)
        }
    }
}
