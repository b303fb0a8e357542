public import LuxRender

extension Filters {
    /// The image multiplied with a blurred copy of itself: dark areas spread a soft shadow and highlights dull.
    ///
    /// The output is `image + intensity·(b − image)` with `b` the multiply blend of the image and its copy blurred by a
    /// Gaussian of standard deviation `radius` (edge pixels extended), on premultiplied colour in the working space.
    /// The extent is the input's.
    public struct Gloom: GlowFilter {
        public static let declaration = FilterDeclaration<Self>(
            "Gloom", categories: [.stylize, .stillImage, .video, .highDynamicRange],
            summary: "Dulls the highlights with a dark, soft glow.", .glow)
        public static let mode = BlendMode.multiply

        public var image: Image = .empty
        public var radius: Double = 10
        public var intensity: Double = 0.5

        public init() {}
    }
}

extension Image {
    /// The image with a soft glow (see ``Filters/Gloom``).
    public func gloom(radius: Double = 10, intensity: Double = 0.5) -> Image {
        applyingFilter(
            Filters.Gloom {
                $0.radius = radius
                $0.intensity = intensity
            })
    }
}
