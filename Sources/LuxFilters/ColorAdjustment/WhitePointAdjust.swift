public import LuxRender

extension Filters {
    /// Maps white to `color`: every linear colour is multiplied, channel by channel, by `color` in the working
    /// space (a von Kries scaling).
    public struct WhitePointAdjust: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "WhitePointAdjust", categories: [.colorAdjustment, .stillImage, .video, .highDynamicRange],
            summary: "Maps white to a colour, scaling every colour alike.", .image(\.image),
            .parameter("color", \.color, summary: "The colour white becomes."))

        public var image: Image = .empty
        public var color: Color = .white

        public init() {}

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
        applyingFilter(Filters.WhitePointAdjust { $0.color = color })
    }
}
