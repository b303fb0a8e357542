public import LuxPixels
public import LuxRender

extension Filters {
    /// Crops the image to `extent` and repeats the edge pixels of that rectangle to infinity.
    public struct Clamp: Filter {
        public static let descriptor = FilterDescriptor(
            name: "Clamp", displayName: "Clamp",
            categories: [.tileEffect, .geometryAdjustment, .stillImage, .video, .highDynamicRange],
            summary: "Repeats the edge pixels of a rectangle to infinity.",
            parameters: [
                .image(),
                .rect(
                    "extent", default: [0, 0, 0, 0],
                    summary: "The rectangle whose edges repeat; empty means the image's extent."),
            ])

        public var image: Image
        /// The rectangle to keep; empty means the image's extent.
        public var extent: Rect

        public init(image: Image, extent: Rect = .null) {
            self.image = image
            self.extent = extent
        }

        public init(arguments a: FilterArguments) { self.init(image: a.image(), extent: a.rect("extent")) }

        public var outputImage: Image { extent.isEmpty ? image.clampedToExtent() : image.clamped(to: extent) }
    }
}
