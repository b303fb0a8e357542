import LuxPixels
import LuxRender
import RealModule

/// The shared body of the distortions defined around a centre: each output pixel reads the source at a position
/// given by its offset from the centre.
enum RadialWarp {
    /// Where the source positions of an output rectangle can lie.
    enum Reach {
        /// Pixels within `radius` read within `radius`; others read themselves (twirl, bump, pinch, splash).
        case disc
        /// A pixel reads on the segment between itself and the centre (hole).
        case towardsCentre
        /// A pixel inside `radius` reads itself; one outside at distance `d` and polar angle `a` reads on the circle of
        /// `radius` at angle `a − twist·(d − radius)/radius` (splash with no twist, tunnel).
        case ontoCircle(twist: Double)
    }

    /// `image` warped: the pixel at offset `(dx, dy)` from `center` reads the source at `center + map(dx, dy)`.
    ///
    /// The output keeps the input's extent. Inlined, so that each filter's `map` is known where the kernel is made and inlined into its pixel loop.
    @inline(__always)
    static func apply(
        _ image: Image, name: String, arguments: String, center: Point, radius: Double, reach: Reach,
        map: @escaping @Sendable (_ dx: Float, _ dy: Float) -> (Float, Float)
    ) -> Image {
        let cx = Float(center.x)
        let cy = Float(center.y)
        let kernel = WarpKernel(name: name) { row in
            let dy = Float(row.y) + 0.5 - cy
            for i in 0..<row.count {
                let (sx, sy) = map(Float(row.x + i) + 0.5 - cx, dy)
                row.sourceX[i] = cx + sx
                row.sourceY[i] = cy + sy
            }
        }
        let disc = Rect(
            minX: center.x - radius, minY: center.y - radius, maxX: center.x + radius, maxY: center.y + radius)
        return kernel.apply(extent: image.extent, image: image, arguments: arguments) { r in
            switch reach {
            case .disc:
                return r.intersects(disc) ? r.union(disc) : r
            case .ontoCircle(let twist):
                let (near, far) = radialRange(of: r, around: center)
                guard far > radius else { return r }
                guard let (from, to) = angularRange(of: r, around: center) else { return r.union(disc) }
                // The arc the rectangle's pixels outside the disc read, turned back by the twist at their distances.
                let turns = [max(near, radius), far].map { twist * ($0 - radius) / max(radius, 1e-9) }
                let (low, high) = (from - turns.max()!, to - turns.min()!)
                let arc =
                    high - low >= 2 * Double.pi
                    ? disc : sectorBounds(around: center, near: radius, far: radius, from: low, to: high)
                return near < radius ? r.union(arc) : arc
            case .towardsCentre:
                return r.union(Rect(minX: center.x - 1, minY: center.y - 1, maxX: center.x + 1, maxY: center.y + 1))
            }
        }
    }

    /// The nearest and farthest distances from `center` to points of `rect`.
    static func radialRange(of rect: Rect, around center: Point) -> (near: Double, far: Double) {
        let far = [(rect.minX, rect.minY), (rect.maxX, rect.minY), (rect.minX, rect.maxY), (rect.maxX, rect.maxY)]
            .map { (($0.0 - center.x) * ($0.0 - center.x) + ($0.1 - center.y) * ($0.1 - center.y)).squareRoot() }
            .max()!
        let nx = min(max(center.x, rect.minX), rect.maxX) - center.x
        let ny = min(max(center.y, rect.minY), rect.maxY) - center.y
        return ((nx * nx + ny * ny).squareRoot(), far)
    }

    /// The polar angles `from…to` (radians, continuous, `to − from` under π) that the points of `rect` span around
    /// `center`, or `nil` when `rect` holds the centre (all angles).
    static func angularRange(of rect: Rect, around center: Point) -> (from: Double, to: Double)? {
        guard center.x < rect.minX || center.x > rect.maxX || center.y < rect.minY || center.y > rect.maxY else {
            return nil
        }
        // The rectangle's own direction; each corner within half a turn of it.
        let mid = Double.atan2(y: rect.midY - center.y, x: rect.midX - center.x)
        var (from, to) = (Double.infinity, -Double.infinity)
        for (x, y) in [(rect.minX, rect.minY), (rect.maxX, rect.minY), (rect.minX, rect.maxY), (rect.maxX, rect.maxY)] {
            var a = Double.atan2(y: y - center.y, x: x - center.x) - mid
            a -= 2 * Double.pi * ((a + Double.pi) / (2 * Double.pi)).rounded(.down)
            (from, to) = (min(from, mid + a), max(to, mid + a))
        }
        return (from, to)
    }

    /// The bounding box of the points at distance `near…far` from `center` and polar angle `from…to` (radians,
    /// `to − from` at most 2π).
    static func sectorBounds(around center: Point, near: Double, far: Double, from: Double, to: Double) -> Rect {
        var angles = [from, to]
        // The outer arc reaches its extremes at the multiples of a quarter turn it passes.
        var k = (from / (Double.pi / 2)).rounded(.up)
        while k * Double.pi / 2 <= to {
            angles.append(k * Double.pi / 2)
            k += 1
        }
        var xs: [Double] = []
        var ys: [Double] = []
        for a in angles {
            for r in [near, far] {
                xs.append(center.x + r * Double.cos(a))
                ys.append(center.y + r * Double.sin(a))
            }
        }
        return Rect(minX: xs.min()!, minY: ys.min()!, maxX: xs.max()!, maxY: ys.max()!)
    }
}
