public import LuxPixels
public import LuxRender

extension Filters {
    /// Tiles the image with glide reflections: every other row of tiles (side `width`, a corner at `center`, turned
    /// by `angle`) is the base row mirrored left to right and shifted by half a tile.
    ///
    /// The tiling is invariant under translation by two tiles down and under the glide reflection that moves one
    /// row down, mirrors across the tile's vertical centre line and shifts by half a tile. The extent is infinite.
    public struct GlideReflectedTile: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "GlideReflectedTile", categories: [.tileEffect, .stillImage, .video, .highDynamicRange],
            summary: "Tiles the image by translation and glide reflection.", .image(\.image),
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
                image, name: "glideReflectedTile", arguments: "center=\(center) angle=\(angle) width=\(width)",
                center: center, angle: angle, width: width
            ) { u, v in
                let row = Int((v - 2 * (v / 2).rounded(.down)).rounded(.down))
                let y = TileWarp.wrap(v)
                return row == 0 ? (TileWarp.wrap(u), y) : (1 - TileWarp.wrap(u + 0.5), y)
            }
        }
    }
}

extension Image {
    /// The image tiled (see ``Filters/GlideReflectedTile``).
    public func glideReflectedTile(center: Point, angle: Double = 0, width: Double = 100) -> Image {
        applyingFilter(
            Filters.GlideReflectedTile {
                $0.center = center
                $0.angle = angle
                $0.width = width
            })
    }
}
