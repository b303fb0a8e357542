public import LuxRender

extension Filters {
    /// Porter–Duff source-over: the image on top of the background.
    public struct SourceOverCompositing: Filter {
        public static let descriptor = FilterDescriptor(
            name: "SourceOverCompositing", displayName: "Source Over",
            categories: [.compositeOperation, .stillImage, .video, .highDynamicRange],
            summary: "Places the image over the background (Porter–Duff source-over).",
            parameters: [
                .image(summary: "The foreground."),
                .image("background", summary: "The background."),
            ])

        public var image: Image
        public var background: Image

        public init(image: Image, background: Image) {
            self.image = image
            self.background = background
        }

        public init(arguments a: FilterArguments) { self.init(image: a.image(), background: a.image("background")) }

        public var outputImage: Image { image.composited(over: background) }
    }
}

extension Image {
    /// This image over `background` (see ``Filters/SourceOverCompositing``).
    public func sourceOverCompositing(background: Image) -> Image { composited(over: background) }
}
