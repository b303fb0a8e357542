public import LuxPixels
public import LuxRender

extension Filters {
    /// Applies an affine transform (bilinear sampling).
    public struct AffineTransform: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "AffineTransform", categories: [.geometryAdjustment, .stillImage, .video, .highDynamicRange],
            summary: "Moves, scales, rotates or skews the image.", .image(\.image),
            .parameter("transform", \.transform, summary: "The transform to apply."))

        public var image: Image = .empty
        public var transform = LuxPixels.AffineTransform.identity

        public init() {}

        public var outputImage: Image { image.transformed(by: transform) }
    }

    /// Crops to a rectangle.
    public struct Crop: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "Crop", categories: [.geometryAdjustment, .stillImage, .video, .highDynamicRange],
            summary: "Restricts the image to a rectangle.", .image(\.image),
            .parameter(
                "rectangle", \.rectangle, required: true, unit: .pixels,
                summary: "The rectangle to keep (x, y, width, height)."))

        public var image: Image = .empty
        /// Required when the filter is made by name.
        public var rectangle = Rect.infinite

        public init() {}

        public var outputImage: Image { image.cropped(to: rectangle) }
    }
}
