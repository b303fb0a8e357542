public import LuxPixels
public import LuxRender

extension Filters {
    /// Tiles the image by mirroring the base tile across each of its sides.
    ///
    /// The base tile is the parallelogram with sides of `width` from `center`, the first turned by `angle` and the
    /// second at `acuteAngle` to it; neighbouring tiles are its mirror images (in lattice coordinates), so the tiling
    /// repeats every two tiles. The extent is infinite.
    public struct FourfoldReflectedTile: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "FourfoldReflectedTile", categories: [.tileEffect, .stillImage, .video, .highDynamicRange],
            summary: "Tiles the image by reflection in two directions.", .image(\.image),
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
                image, name: "fourfoldReflectedTile",
                arguments: "center=\(center) angle=\(angle) width=\(width) acuteAngle=\(acuteAngle)", center: center,
                angle: angle, width: width,
                base: TileWarp.latticeCell(acuteAngle: a)
            ) { u, v in
                let (p, q) = TileWarp.lattice(u, v, acuteAngle: a)
                return TileWarp.unlattice(TileWarp.reflect(p), TileWarp.reflect(q), acuteAngle: a)
            }
        }
    }
}

extension Image {
    /// The image tiled (see ``Filters/FourfoldReflectedTile``).
    public func fourfoldReflectedTile(
        center: Point, angle: Double = 0, acuteAngle: Double = .pi / 2, width: Double = 100
    ) -> Image {
        applyingFilter(
            Filters.FourfoldReflectedTile {
                $0.center = center
                $0.angle = angle
                $0.acuteAngle = acuteAngle
                $0.width = width
            })
    }
}
