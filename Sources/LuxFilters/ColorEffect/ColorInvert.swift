public import LuxRender

extension Filters {
    /// Inverts colour: `c′ = 1 − c` on sRGB-encoded values (a photographic negative, as other editors make it).
    public struct ColorInvert: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "ColorInvert", categories: [.colorEffect, .stillImage, .video], summary: "Inverts the colours.",
            .image(\.image))

        public var image: Image = .empty

        public init() {}

        public var outputImage: Image {
            let kernel = ColorKernel(name: "colorInvert", alphaHandling: .unpremultiplied, preservesAlpha: true) {
                row in
                let p = row.pixels
                let r = p.red
                let g = p.green
                let b = p.blue
                for i in 0..<row.count {
                    r[i] = 1 - r[i]
                    g[i] = 1 - g[i]
                    b[i] = 1 - b[i]
                }
            }
            return image.inPerceptualSpace { $0.applying(kernel) }
        }
    }
}

extension Image {
    /// The image with its colours inverted (see ``Filters/ColorInvert``).
    public func colorInvert() -> Image { applyingFilter(Filters.ColorInvert()) }
}
