import LuxPixels
import LuxRender
import RealModule

/// The shared body of the symmetry tiles: an output pixel, in the tile frame (origin `center`, axes turned by `angle`,
/// `width` pixels a unit), is folded into the base tile, which is read from the input.
enum TileWarp {
    /// The infinite tiling of `image` whose pixel at tile coordinates `(u, v)` reads `fold(u, v)`.
    ///
    /// `fold` must return points of `base` (in tile units; default the unit square, the input's square of side
    /// `width` with a corner at `center`); the ROI is its bounding box in the input.
    static func apply(
        _ image: Image, name: String, arguments: String, center: Point, angle: Double, width: Double,
        base: Rect = Rect(x: 0, y: 0, width: 1, height: 1),
        fold: @escaping @Sendable (_ u: Double, _ v: Double) -> (Double, Double)
    ) -> Image {
        let w = max(width, 1e-3)
        let c = Double.cos(angle)
        let s = Double.sin(angle)
        let kernel = WarpKernel(name: name) { row in
            let py = Double(row.y) + 0.5 - center.y
            for i in 0..<row.count {
                let px = Double(row.x + i) + 0.5 - center.x
                let (u, v) = fold((c * px + s * py) / w, (-s * px + c * py) / w)
                row.sourceX[i] = Float(center.x + w * (c * u - s * v))
                row.sourceY[i] = Float(center.y + w * (s * u + c * v))
            }
        }
        let corners = [(base.minX, base.minY), (base.maxX, base.minY), (base.minX, base.maxY), (base.maxX, base.maxY)]
            .map {
                (center.x + w * (c * $0.0 - s * $0.1), center.y + w * (s * $0.0 + c * $0.1))
            }
        let tile = Rect(
            minX: corners.map(\.0).min()!, minY: corners.map(\.1).min()!, maxX: corners.map(\.0).max()!,
            maxY: corners.map(\.1).max()!)
        return kernel.apply(extent: .infinite, image: image, arguments: arguments) { _ in tile.insetBy(dx: -1, dy: -1) }
    }

    /// `x` folded into 0…1 by mirrors at every whole number (a triangle wave of period 2).
    static func reflect(_ x: Double) -> Double {
        let m = x - 2 * (x / 2).rounded(.down)
        return m <= 1 ? m : 2 - m
    }

    /// The fractional part of `x`, in 0..<1.
    static func wrap(_ x: Double) -> Double { x - x.rounded(.down) }

    /// `(u, v)` in the coordinates of the lattice spanned by `(1, 0)` and `(cos a, sin a)` (`a`: the acute angle).
    static func lattice(_ u: Double, _ v: Double, acuteAngle a: Double) -> (Double, Double) {
        let sa = Double.sin(a)
        guard abs(sa) > 1e-6 else { return (u, v) }
        let b = v / sa
        return (u - b * Double.cos(a), b)
    }

    /// The bounding box, in tile units, of the unit cell of the lattice of acute angle `a`.
    static func latticeCell(acuteAngle a: Double) -> Rect {
        let c = Double.cos(a)
        return Rect(minX: min(0, c), minY: min(0, Double.sin(a)), maxX: 1 + max(0, c), maxY: max(0, Double.sin(a)))
    }

    /// Lattice coordinates `(p, q)` back to the tile frame.
    static func unlattice(_ p: Double, _ q: Double, acuteAngle a: Double) -> (Double, Double) {
        (p + q * Double.cos(a), q * Double.sin(a))
    }
}
