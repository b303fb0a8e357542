public import LuxPixels
public import LuxRender

extension Filters {
    /// Straightens a quadrilateral of the image (a document, a façade) into a rectangle: the inverse of
    /// ``PerspectiveTransform``.
    ///
    /// The rectangle starts at the quadrilateral's top-left bounding-box corner; it is as wide as the longer of the
    /// top and bottom edges and as high as the longer of the left and right edges. With `crop` (the default) the
    /// result is that rectangle; without, the whole image is transformed.
    public struct PerspectiveCorrection: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "PerspectiveCorrection", categories: [.geometryAdjustment, .stillImage, .video, .highDynamicRange],
            summary: "Maps a quadrilateral of the image to a rectangle, undoing perspective.",
            .image(\.image), .corners(\.quadrilateral),
            .parameter("crop", \.crop, summary: "Whether the result is just the rectangle."))

        public var image: Image = .empty
        public var quadrilateral = Quadrilateral.defaultTarget
        public var crop = true

        public init() {}

        /// Straightens `quadrilateral` of `image`.
        public init(image: Image, quadrilateral: Quadrilateral, crop: Bool = true) {
            self.image = image
            self.quadrilateral = quadrilateral
            self.crop = crop
        }

        /// The rectangle the quadrilateral is mapped to.
        public var targetRectangle: Rect {
            let q = quadrilateral
            func length(_ a: Point, _ b: Point) -> Double {
                ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
            }
            let w = max(length(q.topLeft, q.topRight), length(q.bottomLeft, q.bottomRight))
            let h = max(length(q.topLeft, q.bottomLeft), length(q.topRight, q.bottomRight))
            let box = q.boundingBox
            return Rect(x: box.minX, y: box.minY, width: w, height: h)
        }

        public var outputImage: Image {
            let target = targetRectangle
            guard let forward = Homography(from: quadrilateral.corners, to: Quadrilateral(target).corners),
                let toSource = forward.inverted
            else { return .empty }
            let extent: Rect
            if crop {
                extent = target.integral
            } else {
                guard let box = forward.apply(image.extent) else { return .empty }
                extent = box.integral
            }
            return image.warped(
                by: toSource, extent: extent, name: "perspectiveCorrection",
                arguments: "quad=\(quadrilateral.digest) crop=\(crop)")
        }
    }
}

extension Image {
    /// The quadrilateral straightened into a rectangle (see ``Filters/PerspectiveCorrection``).
    public func perspectiveCorrection(_ quadrilateral: Quadrilateral, crop: Bool = true) -> Image {
        applyingFilter(
            Filters.PerspectiveCorrection {
                $0.quadrilateral = quadrilateral
                $0.crop = crop
            })
    }
}
