public import LuxRender

extension Filters {
    /// Dilates: each component becomes the maximum over a `width`×`height` rectangle around the pixel (sizes
    /// rounded to odd whole pixels), at a cost independent of the rectangle's size. The extent grows by half
    /// the rectangle.
    public struct MorphologyRectangleMaximum: Filter {
        public static let descriptor = FilterDescriptor(
            name: "MorphologyRectangleMaximum", displayName: "Morphology Rectangle Maximum",
            categories: [.blur, .stillImage, .video, .highDynamicRange],
            summary: "Replaces each pixel by the maximum over a rectangle (dilation).",
            parameters: [
                .image(),
                .number(
                    "width", default: 5, slider: 1...49, allowed: 1...2001, unit: .pixels,
                    summary: "The rectangle's width (rounded to an odd number)."),
                .number(
                    "height", default: 5, slider: 1...49, allowed: 1...2001, unit: .pixels,
                    summary: "The rectangle's height (rounded to an odd number)."),
            ])

        public var image: Image
        public var width: Double
        public var height: Double

        public init(image: Image, width: Double = 5, height: Double = 5) {
            self.image = image
            self.width = width
            self.height = height
        }

        public init(arguments a: FilterArguments) {
            self.init(image: a.image(), width: a.number("width"), height: a.number("height"))
        }

        /// `size` rounded to the nearest odd whole number (at least 1).
        static func odd(_ size: Double) -> Int { max(2 * Int((size / 2).rounded(.down)) + 1, 1) }

        public var outputImage: Image {
            RectangleMorphology.apply(image, kx: Self.odd(width), ky: Self.odd(height), maximum: true)
        }
    }
}

extension Image {
    /// The image dilated by a rectangle (see ``Filters/MorphologyRectangleMaximum``).
    public func morphologyRectangleMaximum(width: Double = 5, height: Double = 5) -> Image {
        Filters.MorphologyRectangleMaximum(image: self, width: width, height: height).outputImage
    }
}
