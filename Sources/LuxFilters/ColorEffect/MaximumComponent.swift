public import LuxRender

extension Filters {
    /// Gray from the largest component: `r′ = g′ = b′ = max(r, g, b)`.
    public struct MaximumComponent: Filter {
        public static let descriptor = FilterDescriptor(
            name: "MaximumComponent", displayName: "Maximum Component",
            categories: [.colorEffect, .stillImage, .video, .highDynamicRange],
            summary: "Gray from the largest of red, green and blue.", parameters: [.image()])

        public var image: Image

        public init(image: Image) { self.image = image }

        public init(arguments a: FilterArguments) { self.init(image: a.image()) }

        public var outputImage: Image { ComponentExtreme.apply(image, maximum: true) }
    }
}

extension Image {
    /// Gray from the largest colour component (see ``Filters/MaximumComponent``).
    public func maximumComponent() -> Image { Filters.MaximumComponent(image: self).outputImage }
}
