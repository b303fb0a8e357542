public import LuxPixels
public import LuxRender

extension Filters {
    /// Tiles the image with the symmetry of a square's mirrors: the triangle below the diagonal of the base tile
    /// (side `width`, a corner at `center`, turned by `angle`) is reflected across the tile's sides and diagonals.
    ///
    /// The tiling is invariant under the mirrors along every tile edge and diagonal. The extent is infinite.
    public struct EightfoldReflectedTile: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "EightfoldReflectedTile", categories: [.tileEffect, .stillImage, .video, .highDynamicRange],
            summary: "Tiles the image with eightfold reflective symmetry.", .image(\.image),
            .parameter("center", \.center, summary: "A corner of the base tile."),
            .parameter(
                "angle", \.angle, slider: -Double.pi...Double.pi, allowed: -1e4...1e4, unit: .radians,
                summary: "The rotation of the tiling."),
            .parameter(
                "width", \.width, slider: 1...200, allowed: 0.01...1e6, unit: .pixels,
                summary: "The width of the base tile."))

        public var image: Image = .empty
        public var center: Point = Point(x: 150, y: 150)
        public var angle: Double = 0
        public var width: Double = 100

        public init() {}

        public var outputImage: Image {
            TileWarp.apply(
                image, name: "eightfoldReflectedTile", arguments: "center=\(center) angle=\(angle) width=\(width)",
                center: center, angle: angle, width: width
            ) { u, v in
                let x = TileWarp.reflect(u)
                let y = TileWarp.reflect(v)
                return y > x ? (y, x) : (x, y)
            }
        }
    }
}

extension Image {
    /// The image tiled (see ``Filters/EightfoldReflectedTile``).
    public func eightfoldReflectedTile(center: Point, angle: Double = 0, width: Double = 100) -> Image {
        applyingFilter(
            Filters.EightfoldReflectedTile {
                $0.center = center
                $0.angle = angle
                $0.width = width
            })
    }
}
