public import LuxPixels
public import LuxRender

extension Filters {
    /// Applies an affine transform (bilinear sampling).
    public struct AffineTransform: Filter {
        public static let descriptor = FilterDescriptor(
            name: "AffineTransform", displayName: "Affine Transform",
            categories: [.geometryAdjustment, .stillImage, .video, .highDynamicRange],
            summary: "Moves, scales, rotates or skews the image.",
            parameters: [
                .image(),
                FilterParameter(
                    "transform", kind: .transform, default: .transform(.identity), summary: "The transform to apply."),
            ])

        public var image: Image
        public var transform: LuxPixels.AffineTransform

        public init(image: Image, transform: LuxPixels.AffineTransform) {
            self.image = image
            self.transform = transform
        }

        public init(arguments a: FilterArguments) { self.init(image: a.image(), transform: a.transform("transform")) }

        public var outputImage: Image { image.transformed(by: transform) }
    }

    /// Crops to a rectangle.
    public struct Crop: Filter {
        public static let descriptor = FilterDescriptor(
            name: "Crop", displayName: "Crop",
            categories: [.geometryAdjustment, .stillImage, .video, .highDynamicRange],
            summary: "Restricts the image to a rectangle.",
            parameters: [
                .image(),
                FilterParameter(
                    "rectangle", kind: .rect, unit: .pixels, summary: "The rectangle to keep (x, y, width, height)."),
            ])

        public var image: Image
        public var rectangle: Rect

        public init(image: Image, rectangle: Rect) {
            self.image = image
            self.rectangle = rectangle
        }

        public init(arguments a: FilterArguments) { self.init(image: a.image(), rectangle: a.rect("rectangle")) }

        public var outputImage: Image { image.cropped(to: rectangle) }
    }
}
