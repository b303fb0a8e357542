public import LuxPixels
public import LuxRender

extension Filters {
    /// Tiles the image by reflecting the parallelogram with sides of `width` from `center` (the first turned by
    /// `angle`, the second at `acuteAngle` to it) across its sides.
    ///
    /// Neighbouring tiles are mirror images along the lattice directions, so the pattern repeats every two tiles
    /// (the same fold as ``FourfoldReflectedTile``, with Core Image's name and defaults). The extent is infinite.
    public struct ParallelogramTile: ParallelogramTileFilter {
        public static let declaration = FilterDeclaration<Self>(
            "ParallelogramTile", categories: [.tileEffect, .stillImage, .video, .highDynamicRange],
            summary: "Tiles the image by reflecting a parallelogram.", .parallelogramLattice)

        public var image: Image = .empty
        public var lattice = TileLattice()
        public var acuteAngle: Double = .pi / 2

        public init() {}

        public var outputImage: Image { parallelogramTiling("fourfoldReflectedTile", fold: TileWarp.reflect) }
    }
}

extension Image {
    /// The image tiled (see ``Filters/ParallelogramTile``).
    public func parallelogramTile(center: Point, angle: Double = 0, acuteAngle: Double = .pi / 2, width: Double = 100)
        -> Image
    {
        applyingFilter(
            Filters.ParallelogramTile {
                $0.lattice = Filters.TileLattice(center: center, angle: angle, width: width)
                $0.acuteAngle = acuteAngle
            })
    }
}
