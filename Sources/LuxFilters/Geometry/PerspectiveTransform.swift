public import LuxPixels
public import LuxRender

extension Filters {
    /// Maps the image's extent onto a quadrilateral, as if the picture were tilted in space: its corners land on
    /// `topLeft`, `topRight`, `bottomRight` and `bottomLeft` (y grows downwards, so "top" is the smaller y), with
    /// straight lines staying straight.
    ///
    /// The extent is the quadrilateral's bounding box.
    public struct PerspectiveTransform: Filter {
        public static let descriptor = FilterDescriptor(
            name: "PerspectiveTransform", displayName: "Perspective Transform",
            categories: [.geometryAdjustment, .stillImage, .video, .highDynamicRange],
            summary: "Maps the image onto a quadrilateral in perspective.",
            parameters: [.image()] + Quadrilateral.parameters)

        public var image: Image
        public var quadrilateral: Quadrilateral

        public init(image: Image, quadrilateral: Quadrilateral = .defaultTarget) {
            self.image = image
            self.quadrilateral = quadrilateral
        }

        public init(arguments a: FilterArguments) { self.init(image: a.image(), quadrilateral: Quadrilateral(a)) }

        public var outputImage: Image { image.perspectiveWarp(from: image.extent, to: quadrilateral, crop: nil) }
    }
}

/// Four corners in the order top-left, top-right, bottom-right, bottom-left.
public struct Quadrilateral: Sendable, Hashable {
    public var topLeft: Point
    public var topRight: Point
    public var bottomRight: Point
    public var bottomLeft: Point

    /// Creates a quadrilateral.
    public init(topLeft: Point, topRight: Point, bottomRight: Point, bottomLeft: Point) {
        self.topLeft = topLeft
        self.topRight = topRight
        self.bottomRight = bottomRight
        self.bottomLeft = bottomLeft
    }

    /// The corners of a rectangle.
    public init(_ r: Rect) {
        self.init(
            topLeft: Point(x: r.minX, y: r.minY), topRight: Point(x: r.maxX, y: r.minY),
            bottomRight: Point(x: r.maxX, y: r.maxY), bottomLeft: Point(x: r.minX, y: r.maxY))
    }

    /// The corners in order.
    public var corners: [Point] { [topLeft, topRight, bottomRight, bottomLeft] }

    /// The bounding box.
    public var boundingBox: Rect {
        Rect(
            minX: corners.map(\.x).min()!, minY: corners.map(\.y).min()!, maxX: corners.map(\.x).max()!,
            maxY: corners.map(\.y).max()!)
    }

    /// The defaults of the perspective filters.
    public static let defaultTarget = Quadrilateral(
        topLeft: Point(x: 118, y: 140), topRight: Point(x: 646, y: 117), bottomRight: Point(x: 548, y: 484),
        bottomLeft: Point(x: 155, y: 471))

    /// The four point parameters.
    static let parameters: [FilterParameter] = [
        .point("topLeft", default: [118, 140], summary: "The top-left corner."),
        .point("topRight", default: [646, 117], summary: "The top-right corner."),
        .point("bottomRight", default: [548, 484], summary: "The bottom-right corner."),
        .point("bottomLeft", default: [155, 471], summary: "The bottom-left corner."),
    ]

    init(_ a: FilterArguments) {
        self.init(
            topLeft: a.point("topLeft"), topRight: a.point("topRight"), bottomRight: a.point("bottomRight"),
            bottomLeft: a.point("bottomLeft"))
    }

    var digest: String { corners.map { "\($0.x),\($0.y)" }.joined(separator: ";") }
}

extension Image {
    /// The image warped so that `source` (a rectangle) lands on `target`; the result covers `crop` or, when `nil`, the
    /// target's bounding box.
    ///
    /// Degenerate quadrilaterals give the empty image.
    func perspectiveWarp(from source: Rect, to target: Quadrilateral, crop: Rect?) -> Image {
        guard !source.isEmpty, !source.isInfinite,
            let forward = Homography(from: Quadrilateral(source).corners, to: target.corners),
            let toSource = forward.inverted
        else { return .empty }
        let extent = (crop ?? target.boundingBox).integral
        return warped(
            by: toSource, extent: extent, name: "perspective",
            arguments: "from=\(source) to=\(target.digest) crop=\(extent)")
    }

    /// The image mapped onto a quadrilateral (see ``Filters/PerspectiveTransform``).
    public func perspectiveTransform(_ quadrilateral: Quadrilateral) -> Image {
        Filters.PerspectiveTransform(image: self, quadrilateral: quadrilateral).outputImage
    }
}
