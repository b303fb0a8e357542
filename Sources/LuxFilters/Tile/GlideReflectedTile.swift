public import LuxPixels
public import LuxRender

extension Filters {
    /// Tiles the image with glide reflections: every other row of tiles (side `width`, a corner at `center`, turned
    /// by `angle`) is the base row mirrored left to right and shifted by half a tile.
    ///
    /// The tiling is invariant under translation by two tiles down and under the glide reflection that moves one
    /// row down, mirrors across the tile's vertical centre line and shifts by half a tile. The extent is infinite.
    public struct GlideReflectedTile: LatticeTileFilter {
        public static let declaration = FilterDeclaration<Self>(
            "GlideReflectedTile", categories: [.tileEffect, .stillImage, .video, .highDynamicRange],
            summary: "Tiles the image by translation and glide reflection.", .lattice)

        public var image: Image = .empty
        public var lattice = TileLattice()

        public init() {}

        public var outputImage: Image {
            tiling("glideReflectedTile") { u, v in
                let row = Int((v - 2 * (v / 2).rounded(.down)).rounded(.down))
                let y = TileWarp.wrap(v)
                return row == 0 ? (TileWarp.wrap(u), y) : (1 - TileWarp.wrap(u + 0.5), y)
            }
        }
    }
}

extension Image {
    /// The image tiled (see ``Filters/GlideReflectedTile``).
    public func glideReflectedTile(center: Point, angle: Double = 0, width: Double = 100) -> Image {
        applyingFilter(
            Filters.GlideReflectedTile {
                $0.lattice = Filters.TileLattice(center: center, angle: angle, width: width)
            })
    }
}
