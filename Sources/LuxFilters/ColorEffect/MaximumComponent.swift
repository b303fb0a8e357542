public import LuxRender

extension Filters {
    /// Gray from the largest component: `r′ = g′ = b′ = max(r, g, b)`.
    public struct MaximumComponent: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "MaximumComponent", categories: [.colorEffect, .stillImage, .video, .highDynamicRange],
            summary: "Gray from the largest of red, green and blue.", .image(\.image))

        public var image: Image = .empty

        public init() {}

        public var outputImage: Image { ComponentExtreme.apply(image, maximum: true) }
    }
}

extension Image {
    /// Gray from the largest colour component (see ``Filters/MaximumComponent``).
    public func maximumComponent() -> Image { applyingFilter(Filters.MaximumComponent()) }
}
