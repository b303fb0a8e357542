public import LuxRender

extension Filters {
    /// Gray from the smallest component: `r′ = g′ = b′ = min(r, g, b)`.
    public struct MinimumComponent: Filter {
        public static let descriptor = FilterDescriptor(
            name: "MinimumComponent", displayName: "Minimum Component",
            categories: [.colorEffect, .stillImage, .video, .highDynamicRange],
            summary: "Gray from the smallest of red, green and blue.", parameters: [.image()])

        public var image: Image

        public init(image: Image) { self.image = image }

        public init(arguments a: FilterArguments) { self.init(image: a.image()) }

        public var outputImage: Image { ComponentExtreme.apply(image, maximum: false) }
    }
}

extension Image {
    /// Gray from the smallest colour component (see ``Filters/MinimumComponent``).
    public func minimumComponent() -> Image { Filters.MinimumComponent(image: self).outputImage }
}
