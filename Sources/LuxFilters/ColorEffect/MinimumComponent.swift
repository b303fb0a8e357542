public import LuxRender

extension Filters {
    /// Gray from the smallest component: `r′ = g′ = b′ = min(r, g, b)`.
    public struct MinimumComponent: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "MinimumComponent", categories: [.colorEffect, .stillImage, .video, .highDynamicRange],
            summary: "Gray from the smallest of red, green and blue.", .image(\.image))

        public var image: Image = .empty

        public init() {}

        public var outputImage: Image { ComponentExtreme.apply(image, maximum: false) }
    }
}

extension Image {
    /// Gray from the smallest colour component (see ``Filters/MinimumComponent``).
    public func minimumComponent() -> Image { applyingFilter(Filters.MinimumComponent()) }
}
