public import LuxRender

extension Filters {
    /// Maps white to `color`: every linear colour is multiplied, channel by channel, by `color` in the working
    /// space (a von Kries scaling).
    public struct WhitePointAdjust: Filter {
        public static let descriptor = FilterDescriptor(
            name: "WhitePointAdjust", displayName: "White Point Adjust",
            categories: [.colorAdjustment, .stillImage, .video, .highDynamicRange],
            summary: "Maps white to a colour, scaling every colour alike.",
            parameters: [
                .image(),
                .color("color", default: .white, summary: "The colour white becomes."),
            ])

        public var image: Image
        public var color: Color

        public init(image: Image, color: Color = .white) {
            self.image = image
            self.color = color
        }

        public init(arguments a: FilterArguments) { self.init(image: a.image(), color: a.color("color")) }

        public var outputImage: Image {
            let kernel = ColorKernel(name: "whitePointAdjust", alphaHandling: .premultiplied, preservesAlpha: true) {
                row in
                let w = row.color(0)
                let (kr, kg, kb) = (w.x, w.y, w.z)
                let p = row.pixels
                let r = p.red
                let g = p.green
                let b = p.blue
                for i in 0..<row.count {
                    r[i] *= kr
                    g[i] *= kg
                    b[i] *= kb
                }
            }
            return image.applying(kernel, colors: [color])
        }
    }
}

extension Image {
    /// The image with white mapped to `color` (see ``Filters/WhitePointAdjust``).
    public func whitePointAdjust(color: Color) -> Image {
        Filters.WhitePointAdjust(image: self, color: color).outputImage
    }
}
