import LuxPixels
import LuxRender

/// A plane projective transform `(x, y) ↦ ((h₀x + h₁y + h₂)/w, (h₃x + h₄y + h₅)/w)`, `w = h₆x + h₇y + h₈`.
struct Homography: Sendable, Hashable {
    /// Row-major 3×3 entries.
    var h: [Double]

    /// The transform that maps `from[i]` to `to[i]` (four points each, no three collinear), or `nil` when
    /// the points are degenerate.
    init?(from: [Point], to: [Point]) {
        precondition(from.count == 4 && to.count == 4, "a homography needs four point pairs")
        // Eight equations in h₀…h₇ with h₈ = 1.
        var m = [[Double]]()
        for (p, q) in zip(from, to) {
            m.append([p.x, p.y, 1, 0, 0, 0, -q.x * p.x, -q.x * p.y, q.x])
            m.append([0, 0, 0, p.x, p.y, 1, -q.y * p.x, -q.y * p.y, q.y])
        }
        for col in 0..<8 {
            guard let pivot = (col..<8).max(by: { abs(m[$0][col]) < abs(m[$1][col]) }), abs(m[pivot][col]) > 1e-12
            else { return nil }
            m.swapAt(col, pivot)
            for r in 0..<8 where r != col {
                let f = m[r][col] / m[col][col]
                if f != 0 { for c in col..<9 { m[r][c] -= f * m[col][c] } }
            }
        }
        h = (0..<8).map { m[$0][8] / m[$0][$0] } + [1]
        guard h.allSatisfy(\.isFinite) else { return nil }
    }

    init(entries: [Double]) { h = entries }

    /// The inverse transform (adjugate), or `nil` when singular.
    var inverted: Homography? {
        let a = h
        let c0 = a[4] * a[8] - a[5] * a[7]
        let c1 = a[5] * a[6] - a[3] * a[8]
        let c2 = a[3] * a[7] - a[4] * a[6]
        let det = a[0] * c0 + a[1] * c1 + a[2] * c2
        guard abs(det) > 1e-300, det.isFinite else { return nil }
        let adj = [
            c0, a[2] * a[7] - a[1] * a[8], a[1] * a[5] - a[2] * a[4],
            c1, a[0] * a[8] - a[2] * a[6], a[2] * a[3] - a[0] * a[5],
            c2, a[1] * a[6] - a[0] * a[7], a[0] * a[4] - a[1] * a[3],
        ]
        return Homography(entries: adj.map { $0 / det })
    }

    /// The image of `p`, or `nil` at or beyond the horizon (`w ≤ 0`).
    func apply(_ p: Point) -> Point? {
        let w = h[6] * p.x + h[7] * p.y + h[8]
        guard w > 1e-12 else { return nil }
        return Point(x: (h[0] * p.x + h[1] * p.y + h[2]) / w, y: (h[3] * p.x + h[4] * p.y + h[5]) / w)
    }

    /// The bounding box of the image of `r`, or `nil` when part of `r` maps to or beyond the horizon (the image is
    /// then unbounded).
    func apply(_ r: Rect) -> Rect? {
        guard !r.isEmpty, !r.isInfinite else { return nil }
        var pts: [Point] = []
        for p in [
            Point(x: r.minX, y: r.minY), Point(x: r.maxX, y: r.minY), Point(x: r.maxX, y: r.maxY),
            Point(x: r.minX, y: r.maxY),
        ] {
            guard let q = apply(p) else { return nil }
            pts.append(q)
        }
        // w is affine in (x, y), so positive at the corners means positive over the whole rectangle, where the
        // map is continuous and the image is the convex hull of the corners' images.
        return Rect(
            minX: pts.map(\.x).min()!, minY: pts.map(\.y).min()!, maxX: pts.map(\.x).max()!, maxY: pts.map(\.y).max()!)
    }

    /// A warp kernel reading the source through `self` (which maps destination points to source points); points
    /// beyond the horizon read far outside any image (transparent).
    func warpKernel(name: String) -> WarpKernelBody {
        let e = h.map(Float.init)
        return { row in
            let y = Float(row.y) + 0.5
            let (h0, h1, h2, h3, h4, h5, h6, h7, h8) = (e[0], e[1], e[2], e[3], e[4], e[5], e[6], e[7], e[8])
            for i in 0..<row.count {
                let x = Float(row.x + i) + 0.5
                let w = h6 * x + h7 * y + h8
                let valid = w > 1e-9
                let inv = valid ? 1 / w : 0
                row.sourceX[i] = valid ? (h0 * x + h1 * y + h2) * inv : -1e9
                row.sourceY[i] = valid ? (h3 * x + h4 * y + h5) * inv : -1e9
            }
        }
    }
}

/// The body type of a ``LuxRender/WarpKernel``.
typealias WarpKernelBody = @Sendable (WarpKernelRow) -> Void

extension Image {
    /// This image seen through a projective transform: output point `p` shows the input at `toSource(p)`
    /// (bilinear), over `extent`.
    func warped(by toSource: Homography, extent: Rect, name: String, arguments: String) -> Image {
        let source = self.extent
        let kernel = WarpKernel(name: name, body: toSource.warpKernel(name: name))
        return kernel.apply(extent: extent, image: self, arguments: arguments) { r in
            if let box = toSource.apply(r) { return box.intersection(source) }
            // Part of the rectangle looks beyond the horizon: everything may be needed.
            return source.isInfinite ? r.insetBy(dx: -4096, dy: -4096) : source
        }
    }
}
