public import LuxRender

extension Filters {
    /// Porter–Duff source-over: the image on top of the background.
    public struct SourceOverCompositing: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "SourceOverCompositing", displayName: "Source Over",
            categories: [.compositeOperation, .stillImage, .video, .highDynamicRange],
            summary: "Places the image over the background (Porter–Duff source-over).",
            .image(\.image, summary: "The foreground."), .image(\.background, "background", summary: "The background."))

        public var image: Image = .empty
        public var background: Image = .empty

        public init() {}

        public var outputImage: Image { image.composited(over: background) }
    }
}

extension Image {
    /// This image over `background` (see ``Filters/SourceOverCompositing``).
    public func sourceOverCompositing(background: Image) -> Image { composited(over: background) }
}
