public import LuxPixels
public import LuxRender

extension Filters {
    /// Tiles the image with the equilateral triangle of side `width` that has a corner at `center` and its first side
    /// along `angle`, mirrored across its sides again and again (wallpaper group p3m1).
    ///
    /// The tiling is invariant under the mirrors along the sides of every triangle of the grid, hence under turns of
    /// 120° about the corners and under translations by `width·√3` across each side. The extent is infinite.
    public struct TriangleTile: LatticeTileFilter {
        public static let declaration = FilterDeclaration<Self>(
            "TriangleTile", categories: [.tileEffect, .stillImage, .video, .highDynamicRange],
            summary: "Tiles the image by mirroring a triangle across its sides.", .lattice)

        public var image: Image = .empty
        public var lattice = TileLattice()

        public init() {}

        public var outputImage: Image {
            tiling("triangleTile", base: Rect(x: 0, y: 0, width: 1, height: HexagonalLattice.rowHeight)) { u, v in
                TriangleFold.fold(u, v)
            }
        }
    }
}

extension Image {
    /// The image tiled (see ``Filters/TriangleTile``).
    public func triangleTile(center: Point, angle: Double = 0, width: Double = 100) -> Image {
        applyingFilter(
            Filters.TriangleTile { $0.lattice = Filters.TileLattice(center: center, angle: angle, width: width) })
    }
}
