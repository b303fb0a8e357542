public import LuxRender

extension Filters {
    /// A woodcut-like black-and-white drawing: black strokes where the image, blurred by `radius`, has edges, on white.
    ///
    /// The ``Edges`` of the image blurred by a Gaussian of standard deviation `radius` (edges extended) give the luma
    /// `e`; the stroke's opacity is `clamp((e − 0.25)·4, 0, 1)`, so grey steps of more than about a sixth of the
    /// range across the blur are drawn black. The output is opaque. The extent is the input's.
    public struct EdgeWork: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "EdgeWork", categories: [.stylize, .stillImage, .video],
            summary: "Draws the image's edges as black woodcut strokes on white.", .image(\.image),
            .parameter(
                "radius", \.radius, slider: 0...20, allowed: 0...1e3, unit: .pixels,
                summary: "The blur before the edges are found: larger radii give broader, smoother strokes."))

        public var image: Image = .empty
        public var radius: Double = 3

        public init() {}

        public var outputImage: Image {
            let e = image.extent
            let smooth = radius > 0 ? image.clampedToExtent().gaussianBlur(radius: radius).cropped(to: e) : image
            let strokes = EdgeInk.strokes(of: smooth, intensity: 1, threshold: 0.25, contrast: 4)
            return strokes.composited(over: Image(color: Color(red: 1, green: 1, blue: 1)).cropped(to: e))
        }
    }
}

extension Image {
    /// The image as black woodcut strokes on white (see ``Filters/EdgeWork``).
    public func edgeWork(radius: Double = 3) -> Image { applyingFilter(Filters.EdgeWork { $0.radius = radius }) }
}
