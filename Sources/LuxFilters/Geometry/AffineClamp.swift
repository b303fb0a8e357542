public import LuxPixels
public import LuxRender

extension Filters {
    /// Extends the image's edge pixels to infinity, then applies an affine transform (bilinear sampling): a transformed
    /// image with no transparent border, to blur or tile without dark edges.
    ///
    /// The extent is infinite.
    public struct AffineClamp: Filter {
        public static let descriptor = FilterDescriptor(
            name: "AffineClamp", displayName: "Affine Clamp",
            categories: [.tileEffect, .geometryAdjustment, .stillImage, .video, .highDynamicRange],
            summary: "Transforms the image with its edge pixels extended to infinity.",
            parameters: [
                .image(),
                FilterParameter(
                    "transform", kind: .transform, default: .transform(.identity), summary: "The transform to apply."),
            ])

        public var image: Image
        public var transform: LuxPixels.AffineTransform

        public init(image: Image, transform: LuxPixels.AffineTransform = .identity) {
            self.image = image
            self.transform = transform
        }

        public init(arguments a: FilterArguments) { self.init(image: a.image(), transform: a.transform("transform")) }

        public var outputImage: Image { image.clampedToExtent().transformed(by: transform) }
    }
}

extension Image {
    /// The image with its edges extended to infinity and then transformed (see ``Filters/AffineClamp``).
    public func affineClamp(_ transform: LuxPixels.AffineTransform) -> Image {
        Filters.AffineClamp(image: self, transform: transform).outputImage
    }
}
