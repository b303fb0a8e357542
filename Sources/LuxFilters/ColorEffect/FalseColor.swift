public import LuxRender

extension Filters {
    /// Maps luminance to a mix of two colours: `c′ = color0 + (color1 − color0)·y`, with `y` the luma of the
    /// sRGB-encoded colour clamped to 0…1 (the colours mix in the working space).
    public struct FalseColor: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "FalseColor", categories: [.colorEffect, .stillImage, .video],
            summary: "Maps luminance to a blend of two colours.", .image(\.image),
            .parameter("color0", \.color0, summary: "The colour of black."),
            .parameter("color1", \.color1, summary: "The colour of white."))

        public var image: Image = .empty
        public var color0: Color = Color(red: 0.3, green: 0, blue: 0)
        public var color1: Color = Color(red: 1, green: 0.9, blue: 0.8)

        public init() {}

        public var outputImage: Image {
            // The kernel reads the encoded image (for its luma) and writes working-space colours.
            let kernel = ColorKernel(name: "falseColor", alphaHandling: .unpremultiplied, preservesAlpha: true) { row in
                let c0 = row.color(0)
                let d = row.color(1) - c0
                let p = row.pixels
                let rr = p.red
                let gg = p.green
                let bb = p.blue
                for i in 0..<row.count {
                    let y = clampFloat(Luma.red * rr[i] + Luma.green * gg[i] + Luma.blue * bb[i], 0, 1)
                    rr[i] = c0.x + d.x * y
                    gg[i] = c0.y + d.y * y
                    bb[i] = c0.z + d.z * y
                }
            }
            return image.matchedFromWorkingSpace(to: .extendedSRGB).applying(kernel, colors: [color0, color1])
        }
    }
}

extension Image {
    /// The image's luminance mapped to a blend of two colours (see ``Filters/FalseColor``).
    public func falseColor(color0: Color, color1: Color) -> Image {
        applyingFilter(
            Filters.FalseColor {
                $0.color0 = color0
                $0.color1 = color1
            })
    }
}
