public import LuxPixels
public import LuxRender

extension Filters {
    /// Extends the image's edge pixels to infinity, then applies an affine transform (bilinear sampling): a transformed
    /// image with no transparent border, to blur or tile without dark edges.
    ///
    /// The extent is infinite.
    public struct AffineClamp: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "AffineClamp", categories: [.tileEffect, .geometryAdjustment, .stillImage, .video, .highDynamicRange],
            summary: "Transforms the image with its edge pixels extended to infinity.", .image(\.image),
            .parameter("transform", \.transform, summary: "The transform to apply."))

        public var image: Image = .empty
        public var transform: LuxPixels.AffineTransform = .identity

        public init() {}

        public var outputImage: Image { image.clampedToExtent().transformed(by: transform) }
    }
}

extension Image {
    /// The image with its edges extended to infinity and then transformed (see ``Filters/AffineClamp``).
    public func affineClamp(_ transform: LuxPixels.AffineTransform) -> Image {
        applyingFilter(Filters.AffineClamp { $0.transform = transform })
    }
}
