public import LuxRender

extension Filters {
    /// The image screened with a blurred copy of itself: light areas spread a soft glow.
    ///
    /// The output is `image + intensity·(b − image)` with `b` the screen blend of the image and its copy blurred by a
    /// Gaussian of standard deviation `radius` (edge pixels extended), on premultiplied colour in the working space.
    /// The extent is the input's.
    public struct Bloom: GlowFilter {
        public static let declaration = FilterDeclaration<Self>(
            "Bloom", categories: [.stylize, .stillImage, .video, .highDynamicRange],
            summary: "Softens edges and makes the image glow.", .glow)
        public static let mode = BlendMode.screen

        public var image: Image = .empty
        public var radius: Double = 10
        public var intensity: Double = 0.5

        public init() {}
    }
}

extension Image {
    /// The image with a soft glow (see ``Filters/Bloom``).
    public func bloom(radius: Double = 10, intensity: Double = 0.5) -> Image {
        applyingFilter(
            Filters.Bloom {
                $0.radius = radius
                $0.intensity = intensity
            })
    }
}
