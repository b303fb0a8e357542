public import LuxPixels
public import LuxRender

extension Filters {
    /// Like ``PerspectiveTransform``, but the rectangle `extent` of the image (rather than its whole extent) is mapped
    /// onto the quadrilateral; the rest of the image follows the same projective map.
    ///
    /// The result covers the quadrilateral's bounding box.
    public struct PerspectiveTransformWithExtent: Filter {
        public static let descriptor = FilterDescriptor(
            name: "PerspectiveTransformWithExtent", displayName: "Perspective Transform with Extent",
            categories: [.geometryAdjustment, .stillImage, .video, .highDynamicRange],
            summary: "Maps a rectangle of the image onto a quadrilateral in perspective.",
            parameters: [
                .image(),
                .rect("extent", default: [0, 0, 300, 300], summary: "The rectangle that lands on the quadrilateral."),
            ] + Quadrilateral.parameters)

        public var image: Image
        public var extent: Rect
        public var quadrilateral: Quadrilateral

        public init(image: Image, extent: Rect, quadrilateral: Quadrilateral = .defaultTarget) {
            self.image = image
            self.extent = extent
            self.quadrilateral = quadrilateral
        }

        public init(arguments a: FilterArguments) {
            self.init(image: a.image(), extent: a.rect("extent"), quadrilateral: Quadrilateral(a))
        }

        public var outputImage: Image { image.perspectiveWarp(from: extent, to: quadrilateral, crop: nil) }
    }
}

extension Image {
    /// The rectangle `extent` of the image mapped onto a quadrilateral (see
    /// ``Filters/PerspectiveTransformWithExtent``).
    public func perspectiveTransform(extent: Rect, to quadrilateral: Quadrilateral) -> Image {
        Filters.PerspectiveTransformWithExtent(image: self, extent: extent, quadrilateral: quadrilateral).outputImage
    }
}
