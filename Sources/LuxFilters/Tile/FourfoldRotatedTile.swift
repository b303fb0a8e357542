public import LuxPixels
public import LuxRender

extension Filters {
    /// Tiles the image with fourfold rotational symmetry: the square base tile (side `width`, a corner at `center`,
    /// turned by `angle`) appears in four orientations, a quarter turn apart, around each lattice point.
    ///
    /// The tiling is invariant under quarter turns about the corners of the tiles and repeats every two tiles. The
    /// extent is infinite.
    public struct FourfoldRotatedTile: LatticeTileFilter {
        public static let declaration = FilterDeclaration<Self>(
            "FourfoldRotatedTile", categories: [.tileEffect, .stillImage, .video, .highDynamicRange],
            summary: "Tiles the image by rotating it in steps of 90°.", .lattice)

        public var image: Image = .empty
        public var lattice = TileLattice()

        public init() {}

        public var outputImage: Image {
            tiling("fourfoldRotatedTile") { u, v in
                // The 2 × 2 block of tiles around a lattice point: tile (i, j) is the base turned by a quarter turn
                // for each step counter-clockwise around the point.
                let i = Int((u - 2 * (u / 2).rounded(.down)).rounded(.down))
                let j = Int((v - 2 * (v / 2).rounded(.down)).rounded(.down))
                let x = TileWarp.wrap(u)
                let y = TileWarp.wrap(v)
                switch (i, j) {
                case (0, 0): return (x, y)
                case (1, 0): return (y, 1 - x)
                case (1, 1): return (1 - x, 1 - y)
                default: return (1 - y, x)
                }
            }
        }
    }
}

extension Image {
    /// The image tiled (see ``Filters/FourfoldRotatedTile``).
    public func fourfoldRotatedTile(center: Point, angle: Double = 0, width: Double = 100) -> Image {
        applyingFilter(
            Filters.FourfoldRotatedTile {
                $0.lattice = Filters.TileLattice(center: center, angle: angle, width: width)
            })
    }
}
