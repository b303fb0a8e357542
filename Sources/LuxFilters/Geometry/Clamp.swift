public import LuxPixels
public import LuxRender

extension Filters {
    /// Crops the image to `extent` and repeats the edge pixels of that rectangle to infinity.
    public struct Clamp: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "Clamp", categories: [.tileEffect, .geometryAdjustment, .stillImage, .video, .highDynamicRange],
            summary: "Repeats the edge pixels of a rectangle to infinity.", .image(\.image),
            .parameter("extent", \.extent, summary: "The rectangle whose edges repeat; empty means the image's extent.")
        )

        public var image: Image = .empty
        /// The rectangle to keep; empty means the image's extent.
        public var extent: Rect = .zero

        public init() {}

        public var outputImage: Image { extent.isEmpty ? image.clampedToExtent() : image.clamped(to: extent) }
    }
}
