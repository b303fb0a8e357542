public import LuxRender

extension Filters {
    /// A comic-book drawing: the ``LineOverlay`` of the image (its defaults) over its ``CMYKHalftone`` (its defaults,
    /// the screen anchored at the origin).
    ///
    /// The extent is the input's. It costs what its two parts cost together (on 12 MP, about 2 and 2.5 times a
    /// GaussianBlur of radius 10 each, so about 5 times one: `lux bench filters`), since each reads the whole image:
    /// LineOverlay's noise reduction, edge detection and threshold, and the halftone's four screens.
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
