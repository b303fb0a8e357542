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

/// The hexagonal lattice spanned by `(1, 0)` and `(1/2, √3/2)`: the lattice of the sixfold and threefold tiles and of
/// the hexagonal pixels.
enum HexagonalLattice {
    static let rowHeight = 3.0.squareRoot() / 2

    /// The lattice point nearest `(u, v)` (the centre of the hexagon containing it).
    static func nearest(_ u: Double, _ v: Double) -> (Double, Double) {
        // The nearest point is a corner of the lattice parallelogram holding (u, v).
        let b = (v / rowHeight).rounded(.down)
        let a = (u - (v / rowHeight) / 2).rounded(.down)
        var best = (0.0, 0.0)
        var bestDistance = Double.infinity
        for (i, j) in [(a, b), (a + 1, b), (a, b + 1), (a + 1, b + 1)] {
            let x = i + j / 2
            let y = j * rowHeight
            let d = (x - u) * (x - u) + (y - v) * (y - v)
            if d < bestDistance {
                bestDistance = d
                best = (x, y)
            }
        }
        return best
    }

    /// `(u, v)` taken, by a turn of a multiple of 60° about the nearest lattice point, into the triangle of its
    /// hexagon between the corners at −30° and 30° (vertices `(0, 0)`, `(1/2, ∓1/(2√3))`); `mirrored` also
    /// reflects the lower half of that triangle across the u axis.
    static func sector(_ u: Double, _ v: Double, mirrored: Bool) -> (Double, Double) {
        let (cu, cv) = nearest(u, v)
        let du = u - cu
        let dv = v - cv
        let step = Double.pi / 3
        let k = ((Double.atan2(y: dv, x: du) + step / 2) / step).rounded(.down)
        let c = Double.cos(k * step)
        let s = Double.sin(k * step)
        let x = c * du + s * dv
        let y = -s * du + c * dv
        return (x, mirrored ? abs(y) : y)
    }

    /// The bounding box of ``sector(_:_:mirrored:)``'s triangle.
    static func sectorBox(mirrored: Bool) -> Rect {
        let h = 1 / (2 * 3.0.squareRoot())
        return Rect(minX: 0, minY: mirrored ? 0 : -h, maxX: 0.5, maxY: h)
    }
}

/// The fold of the p3m1 tiling: the plane folded by the mirrors along the sides of the triangle `(0, 0)`, `(1, 0)`,
/// `(1/2, √3/2)` and of its mirror images.
enum TriangleFold {
    /// `(u, v)` folded into the triangle.
    static func fold(_ u: Double, _ v: Double) -> (Double, Double) {
        let h = HexagonalLattice.rowHeight
        // First the translations by √3 across each side: the lattice spanned by (0, √3) and (3/2, √3/2), reduced about
        // the triangle's centroid.
        let cx = u - 0.5
        let cy = v - h / 3
        let b = (cx / 1.5).rounded()
        let a = ((cy - b * h) / (2 * h)).rounded()
        var x = cx - b * 1.5 + 0.5
        var y = cy - a * 2 * h - b * h + h / 3
        // Then the mirrors, until no side has the point outside.
        for _ in 0..<16 {
            if y < 0 {
                y = -y
            } else if 2 * h * x - y < 0 {
                // Across the side through (0, 0) at 60°: normal (√3/2, −1/2).
                let d = h * x - y / 2
                x -= 2 * d * h
                y += d
            } else if 2 * h * (1 - x) - y < 0 {
                // Across the side through (1, 0) at 120°: normal (−√3/2, −1/2).
                let d = -h * (x - 1) - y / 2
                x += 2 * d * h
                y += d
            } else {
                break
            }
        }
        return (x, y)
    }
}
