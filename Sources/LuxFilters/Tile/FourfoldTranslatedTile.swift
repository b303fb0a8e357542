public import LuxPixels
public import LuxRender

extension Filters {
    /// Repeats the base tile by translation in two directions.
    ///
    /// The cell is the parallelogram with sides of `width` from `center`, the first turned by `angle` and the second
    /// at `acuteAngle` to it; its symmetry group is the lattice of translations by those sides. The extent is
    /// infinite.
    public struct FourfoldTranslatedTile: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "FourfoldTranslatedTile", categories: [.tileEffect, .stillImage, .video, .highDynamicRange],
            summary: "Tiles the image by translation in two directions.", .image(\.image),
            .parameter("center", \.center, summary: "A corner of the base tile."),
            .parameter(
                "angle", \.angle, slider: -Double.pi...Double.pi, allowed: -1e4...1e4, unit: .radians,
                summary: "The rotation of the tiling."),
            .parameter(
                "acuteAngle", \.acuteAngle, slider: 0...Double.pi, allowed: 0...Double.pi, unit: .radians,
                summary: "The angle between the tiling's two directions."),
            .parameter(
                "width", \.width, slider: 1...200, allowed: 0.01...1e6, unit: .pixels,
                summary: "The width of the base tile."))

        public var image: Image = .empty
        public var center: Point = Point(x: 150, y: 150)
        public var angle: Double = 0
        public var acuteAngle: Double = .pi / 2
        public var width: Double = 100

        public init() {}

        public var outputImage: Image {
            let a = acuteAngle
            return TileWarp.apply(
                image, name: "fourfoldTranslatedTile",
                arguments: "center=\(center) angle=\(angle) width=\(width) acuteAngle=\(acuteAngle)", center: center,
                angle: angle, width: width,
                base: TileWarp.latticeCell(acuteAngle: a)
            ) { u, v in
                let (p, q) = TileWarp.lattice(u, v, acuteAngle: a)
                return TileWarp.unlattice(TileWarp.wrap(p), TileWarp.wrap(q), acuteAngle: a)
            }
        }
    }
}

extension Image {
    /// The image tiled (see ``Filters/FourfoldTranslatedTile``).
    public func fourfoldTranslatedTile(
        center: Point, angle: Double = 0, acuteAngle: Double = .pi / 2, width: Double = 100
    ) -> Image {
        applyingFilter(
            Filters.FourfoldTranslatedTile {
                $0.center = center
                $0.angle = angle
                $0.acuteAngle = acuteAngle
                $0.width = width
            })
    }
}
