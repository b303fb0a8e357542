public import LuxPixels
public import LuxRender

extension Filters {
    /// Tiles the image with sixfold reflective symmetry (wallpaper group p6m): the half-triangle with a corner at
    /// `center`, between the direction `angle` and 30° clockwise on screen from it and reaching `width / 2` along
    /// `angle`, is mirrored into twelve copies around each point of a hexagonal lattice of spacing `width`.
    ///
    /// The tiling is invariant under turns of 60° about the lattice points, under the mirror along `angle` through
    /// them and under the lattice translations. The extent is infinite.
    public struct SixfoldReflectedTile: LatticeTileFilter {
        public static let declaration = FilterDeclaration<Self>(
            "SixfoldReflectedTile", categories: [.tileEffect, .stillImage, .video, .highDynamicRange],
            summary: "Tiles the image by rotating it in steps of 60° and mirroring it.", .lattice)

        public var image: Image = .empty
        public var lattice = TileLattice()

        public init() {}

        public var outputImage: Image {
            tiling("sixfoldReflectedTile", base: HexagonalLattice.sectorBox(mirrored: true)) { u, v in
                HexagonalLattice.sector(u, v, mirrored: true)
            }
        }
    }
}

extension Image {
    /// The image tiled (see ``Filters/SixfoldReflectedTile``).
    public func sixfoldReflectedTile(center: Point, angle: Double = 0, width: Double = 100) -> Image {
        applyingFilter(
            Filters.SixfoldReflectedTile {
                $0.lattice = Filters.TileLattice(center: center, angle: angle, width: width)
            })
    }
}
