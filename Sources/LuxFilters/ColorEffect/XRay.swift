public import LuxRender

extension Filters {
    /// An X-ray look: inverted luma with a cold blue cast (sRGB-encoded `(1 − y)·(0.85, 0.95, 1)`).
    public struct XRay: Filter {
        public static let descriptor = FilterDescriptor(
            name: "XRay", displayName: "X-Ray", categories: [.colorEffect, .stillImage, .video],
            summary: "Makes the image look like an X-ray.", parameters: [.image()])

        public var image: Image

        public init(image: Image) { self.image = image }

        public init(arguments a: FilterArguments) { self.init(image: a.image()) }

        /// The ramp.
        static let palette = Palette([(0, [0.85, 0.95, 1]), (1, [0, 0, 0])])

        public var outputImage: Image { Self.palette.apply(to: image, name: "xRay") }
    }
}

extension Image {
    /// The image made to look like an X-ray (see ``Filters/XRay``).
    public func xRay() -> Image { Filters.XRay(image: self).outputImage }
}
