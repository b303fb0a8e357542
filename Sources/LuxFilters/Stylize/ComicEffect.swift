public import LuxRender

extension Filters {
    /// A comic-book drawing: the ``LineOverlay`` of the image (its defaults) over its ``CMYKHalftone`` (its defaults,
    /// the screen anchored at the origin).
    ///
    /// The extent is the input's.
    public struct ComicEffect: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "ComicEffect", categories: [.stylize, .stillImage, .video],
            summary: "Outlines the edges in black over a colour halftone.", .image(\.image))

        public var image: Image = .empty

        public init() {}

        public var outputImage: Image {
            image.lineOverlay().composited(over: image.cmykHalftone(center: .zero))
        }
    }
}

extension Image {
    /// The image as a comic-book drawing (see ``Filters/ComicEffect``).
    public func comicEffect() -> Image { applyingFilter(Filters.ComicEffect()) }
}
