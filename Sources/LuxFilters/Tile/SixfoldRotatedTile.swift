public import LuxPixels
public import LuxRender

extension Filters {
    /// Tiles the image with sixfold rotational symmetry (wallpaper group p6): the triangle with a corner at `center`
    /// and its far side `width / 2` away, turned by `angle`, appears six times around each point of a hexagonal
    /// lattice of spacing `width`.
    ///
    /// The triangle, of side `width/√3`, spans ±30° about the direction `angle` from `center`; the tiling is
    /// invariant under turns of 60° about the lattice points and under the lattice translations. The extent is
    /// infinite.
    public struct SixfoldRotatedTile: LatticeTileFilter {
        public static let declaration = FilterDeclaration<Self>(
            "SixfoldRotatedTile", categories: [.tileEffect, .stillImage, .video, .highDynamicRange],
            summary: "Tiles the image by rotating it in steps of 60°.", .lattice)

        public var image: Image = .empty
        public var lattice = TileLattice()

        public init() {}

        public var outputImage: Image {
            tiling("sixfoldRotatedTile", base: HexagonalLattice.sectorBox(mirrored: false)) { u, v in
                HexagonalLattice.sector(u, v, mirrored: false)
            }
        }
    }
}

extension Image {
    /// The image tiled (see ``Filters/SixfoldRotatedTile``).
    public func sixfoldRotatedTile(center: Point, angle: Double = 0, width: Double = 100) -> Image {
        applyingFilter(
            Filters.SixfoldRotatedTile { $0.lattice = Filters.TileLattice(center: center, angle: angle, width: width) })
    }
}
