public import LuxPixels
public import LuxRender
import RealModule

extension Filters {
    /// Tiles the image with twelvefold reflective symmetry about the points of a hexagonal lattice of spacing `width`:
    /// the 15° wedge with its tip at `center`, between the direction `angle` and 15° clockwise on screen from it, is
    /// mirrored into 24 copies around each lattice point.
    ///
    /// A pixel belongs to the hexagon of its nearest lattice point; it reads the point of the wedge that a turn by a
    /// multiple of 30° about that lattice point, followed if need be by the mirror along `angle`, takes it to. Within
    /// the disc of radius `width / 2` about each lattice point the picture is invariant under turns of 30° and under
    /// the mirrors at every multiple of 15° from `angle` (the dihedral group of order 24, which no lattice has, so
    /// the copies meet along the hexagons' edges). The extent is infinite.
    public struct TwelvefoldReflectedTile: LatticeTileFilter {
        public static let declaration = FilterDeclaration<Self>(
            "TwelvefoldReflectedTile", categories: [.tileEffect, .stillImage, .video, .highDynamicRange],
            summary: "Tiles the image by rotating it in steps of 30° and mirroring it.", .lattice)

        public var image: Image = .empty
        public var lattice = TileLattice()

        public init() {}

        public var outputImage: Image {
            let half = Double.pi / 12
            let t = Double.tan(half)
            let c2 = Double.cos(2 * half)
            let s2 = Double.sin(2 * half)
            let base = Rect(minX: 0, minY: 0, maxX: 1 / 3.0.squareRoot(), maxY: 0.5 * t)
            return tiling("twelvefoldReflectedTile", base: base) { u, v in
                // Into the 30° half-triangle of p6m, then across its bisector at 15°.
                let (x, y) = HexagonalLattice.sector(u, v, mirrored: true)
                guard y > x * t else { return (x, y) }
                return (c2 * x + s2 * y, s2 * x - c2 * y)
            }
        }
    }
}

extension Image {
    /// The image tiled (see ``Filters/TwelvefoldReflectedTile``).
    public func twelvefoldReflectedTile(center: Point, angle: Double = 0, width: Double = 100) -> Image {
        applyingFilter(
            Filters.TwelvefoldReflectedTile {
                $0.lattice = Filters.TileLattice(center: center, angle: angle, width: width)
            })
    }
}
