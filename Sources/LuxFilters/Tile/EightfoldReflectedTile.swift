public import LuxPixels
public import LuxRender

extension Filters {
    /// Tiles the image with the symmetry of a square's mirrors: the triangle below the diagonal of the base tile
    /// (side `width`, a corner at `center`, turned by `angle`) is reflected across the tile's sides and diagonals.
    ///
    /// The tiling is invariant under the mirrors along every tile edge and diagonal. The extent is infinite.
    public struct EightfoldReflectedTile: LatticeTileFilter {
        public static let declaration = FilterDeclaration<Self>(
            "EightfoldReflectedTile", categories: [.tileEffect, .stillImage, .video, .highDynamicRange],
            summary: "Tiles the image with eightfold reflective symmetry.", .lattice)

        public var image: Image = .empty
        public var lattice = TileLattice()

        public init() {}

        public var outputImage: Image {
            tiling("eightfoldReflectedTile") { u, v in
                let x = TileWarp.reflect(u)
                let y = TileWarp.reflect(v)
                return y > x ? (y, x) : (x, y)
            }
        }
    }
}

extension Image {
    /// The image tiled (see ``Filters/EightfoldReflectedTile``).
    public func eightfoldReflectedTile(center: Point, angle: Double = 0, width: Double = 100) -> Image {
        applyingFilter(
            Filters.EightfoldReflectedTile {
                $0.lattice = Filters.TileLattice(center: center, angle: angle, width: width)
            })
    }
}
