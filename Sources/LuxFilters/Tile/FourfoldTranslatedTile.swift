public import LuxPixels
public import LuxRender

extension Filters {
    /// Repeats the base tile by translation in two directions.
    ///
    /// The cell is the parallelogram with sides of `width` from `center`, the first turned by `angle` and the second
    /// at `acuteAngle` to it; its symmetry group is the lattice of translations by those sides. The extent is
    /// infinite.
    public struct FourfoldTranslatedTile: ParallelogramTileFilter {
        public static let declaration = FilterDeclaration<Self>(
            "FourfoldTranslatedTile", categories: [.tileEffect, .stillImage, .video, .highDynamicRange],
            summary: "Tiles the image by translation in two directions.", .parallelogramLattice)

        public var image: Image = .empty
        public var lattice = TileLattice()
        public var acuteAngle: Double = .pi / 2

        public init() {}

        public var outputImage: Image { parallelogramTiling("fourfoldTranslatedTile", fold: TileWarp.wrap) }
    }
}

extension Image {
    /// The image tiled (see ``Filters/FourfoldTranslatedTile``).
    public func fourfoldTranslatedTile(
        center: Point, angle: Double = 0, acuteAngle: Double = .pi / 2, width: Double = 100
    ) -> Image {
        applyingFilter(
            Filters.FourfoldTranslatedTile {
                $0.lattice = Filters.TileLattice(center: center, angle: angle, width: width)
                $0.acuteAngle = acuteAngle
            })
    }
}
