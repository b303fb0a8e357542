public import LuxPixels
public import LuxRender

extension Filters {
    /// Tiles the image by reflecting the parallelogram with sides of `width` from `center` (the first turned by
    /// `angle`, the second at `acuteAngle` to it) across its sides.
    ///
    /// Neighbouring tiles are mirror images along the lattice directions, so the pattern repeats every two tiles
    /// (the same fold as ``FourfoldReflectedTile``, with Core Image's name and defaults). The extent is infinite.
    public struct ParallelogramTile: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "ParallelogramTile", categories: [.tileEffect, .stillImage, .video, .highDynamicRange],
            summary: "Tiles the image by reflecting a parallelogram.", .image(\.image),
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
            Filters.FourfoldReflectedTile {
                $0.image = image
                $0.center = center
                $0.angle = angle
                $0.acuteAngle = acuteAngle
                $0.width = width
            }.outputImage
        }
    }
}

extension Image {
    /// The image tiled (see ``Filters/ParallelogramTile``).
    public func parallelogramTile(center: Point, angle: Double = 0, acuteAngle: Double = .pi / 2, width: Double = 100)
        -> Image
    {
        applyingFilter(
            Filters.ParallelogramTile {
                $0.center = center
                $0.angle = angle
                $0.acuteAngle = acuteAngle
                $0.width = width
            })
    }
}
