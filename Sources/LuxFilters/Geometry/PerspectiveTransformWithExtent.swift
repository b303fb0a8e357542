public import LuxPixels
public import LuxRender

extension Filters {
    /// Like ``PerspectiveTransform``, but the rectangle `extent` of the image (rather than its whole extent) is mapped
    /// onto the quadrilateral; the rest of the image follows the same projective map.
    ///
    /// The result covers the quadrilateral's bounding box.
    public struct PerspectiveTransformWithExtent: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "PerspectiveTransformWithExtent", displayName: "Perspective Transform with Extent",
            categories: [.geometryAdjustment, .stillImage, .video, .highDynamicRange],
            summary: "Maps a rectangle of the image onto a quadrilateral in perspective.",
            .image(\.image),
            .parameter("extent", \.extent, unit: .pixels, summary: "The rectangle that lands on the quadrilateral."),
            .corners(\.quadrilateral))

        public var image: Image = .empty
        public var extent = Rect(x: 0, y: 0, width: 300, height: 300)
        public var quadrilateral = Quadrilateral.defaultTarget

        public init() {}

        public var outputImage: Image { image.perspectiveWarp(from: extent, to: quadrilateral, crop: nil) }
    }
}

extension Image {
    /// The rectangle `extent` of the image mapped onto a quadrilateral (see
    /// ``Filters/PerspectiveTransformWithExtent``).
    public func perspectiveTransform(extent: Rect, to quadrilateral: Quadrilateral) -> Image {
        applyingFilter(
            Filters.PerspectiveTransformWithExtent {
                $0.extent = extent
                $0.quadrilateral = quadrilateral
            })
    }
}
