public import LuxRender

extension Filters {
    /// Inverts colour: `c′ = 1 − c` on sRGB-encoded values (a photographic negative, as other editors make it).
    public struct ColorInvert: Filter {
        public static let descriptor = FilterDescriptor(
            name: "ColorInvert", displayName: "Color Invert", categories: [.colorEffect, .stillImage, .video],
            summary: "Inverts the colours.", parameters: [.image()])

        public var image: Image

        public init(image: Image) { self.image = image }

        public init(arguments a: FilterArguments) { self.init(image: a.image()) }

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
    public func colorInvert() -> Image { Filters.ColorInvert(image: self).outputImage }
}
