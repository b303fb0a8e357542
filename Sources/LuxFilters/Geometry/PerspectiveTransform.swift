public import LuxPixels
public import LuxRender

extension Filters {
    /// Maps the image's extent onto a quadrilateral, as if the picture were tilted in space: its corners land on
    /// `topLeft`, `topRight`, `bottomRight` and `bottomLeft` (y grows downwards, so "top" is the smaller y), with
    /// straight lines staying straight.
    ///
    /// The extent is the quadrilateral's bounding box.
    public struct PerspectiveTransform: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "PerspectiveTransform", categories: [.geometryAdjustment, .stillImage, .video, .highDynamicRange],
            summary: "Maps the image onto a quadrilateral in perspective.", .image(\.image), .corners(\.quadrilateral))

        public var image: Image = .empty
        public var quadrilateral = Quadrilateral.defaultTarget

        public init() {}

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

    var digest: String { corners.map { "\($0.x),\($0.y)" }.joined(separator: ";") }
}

extension FilterDeclaration.Parameter {
    /// A quadrilateral given as the points `topLeft`, `topRight`, `bottomRight` and `bottomLeft`.
    static func corners(_ keyPath: any WritableKeyPath<F, Quadrilateral> & Sendable) -> Self {
        .combined(
            keyPath,
            [
                FilterParameter("topLeft", kind: .point, unit: .pixels, summary: "The top-left corner."),
                FilterParameter("topRight", kind: .point, unit: .pixels, summary: "The top-right corner."),
                FilterParameter("bottomRight", kind: .point, unit: .pixels, summary: "The bottom-right corner."),
                FilterParameter("bottomLeft", kind: .point, unit: .pixels, summary: "The bottom-left corner."),
            ],
            values: { q in q.corners.map(\.filterValue) },
            make: { a in
                Quadrilateral(
                    topLeft: a.point("topLeft"), topRight: a.point("topRight"), bottomRight: a.point("bottomRight"),
                    bottomLeft: a.point("bottomLeft"))
            })
    }
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
        applyingFilter(Filters.PerspectiveTransform { $0.quadrilateral = quadrilateral })
    }
}
