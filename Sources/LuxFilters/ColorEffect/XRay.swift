public import LuxRender

extension Filters {
    /// An X-ray look: inverted luma with a cold blue cast (sRGB-encoded `(1 − y)·(0.85, 0.95, 1)`).
    public struct XRay: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "XRay", displayName: "X-Ray", categories: [.colorEffect, .stillImage, .video],
            summary: "Makes the image look like an X-ray.", .image(\.image))

        public var image: Image = .empty

        public init() {}

        /// The ramp.
        static let palette = Palette([(0, [0.85, 0.95, 1]), (1, [0, 0, 0])])

        public var outputImage: Image { Self.palette.apply(to: image, name: "xRay") }
    }
}

extension Image {
    /// The image made to look like an X-ray (see ``Filters/XRay``).
    public func xRay() -> Image { applyingFilter(Filters.XRay()) }
}
