public import LuxPixels
public import LuxRender

extension Filters {
    /// Tiles the image by mirroring the base tile across each of its sides.
    ///
    /// The base tile is the parallelogram with sides of `width` from `center`, the first turned by `angle` and the
    /// second at `acuteAngle` to it; neighbouring tiles are its mirror images (in lattice coordinates), so the tiling
    /// repeats every two tiles. The extent is infinite.
    public struct FourfoldReflectedTile: ParallelogramTileFilter {
        public static let declaration = FilterDeclaration<Self>(
            "FourfoldReflectedTile", categories: [.tileEffect, .stillImage, .video, .highDynamicRange],
            summary: "Tiles the image by reflection in two directions.", .parallelogramLattice)

        public var image: Image = .empty
        public var lattice = TileLattice()
        public var acuteAngle: Double = .pi / 2

        public init() {}

        public var outputImage: Image { parallelogramTiling("fourfoldReflectedTile", fold: TileWarp.reflect) }
    }
}

extension Image {
    /// The image tiled (see ``Filters/FourfoldReflectedTile``).
    public func fourfoldReflectedTile(
        center: Point, angle: Double = 0, acuteAngle: Double = .pi / 2, width: Double = 100
    ) -> Image {
        applyingFilter(
            Filters.FourfoldReflectedTile {
                $0.lattice = Filters.TileLattice(center: center, angle: angle, width: width)
                $0.acuteAngle = acuteAngle
            })
    }
}
