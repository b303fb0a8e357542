import LuxColor
public import LuxRender

extension Filters {
    /// Reduces each colour channel to `levels` evenly spaced values on sRGB-encoded values:
    /// `c′ = round(c·(levels − 1)) / (levels − 1)` (ImageMagick's `-posterize`).
    public struct ColorPosterize: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "ColorPosterize", categories: [.colorEffect, .stillImage, .video],
            summary: "Reduces each channel to a number of levels.", .image(\.image),
            .parameter(
                "levels", \.levels, slider: 2...30, allowed: 2...65536,
                summary: "Values per channel (2 gives black or full intensity)."))

        public var image: Image = .empty
        public var levels: Double = 6

        public init() {}

        public var outputImage: Image {
            let steps = Float(levels) - 1
            let inverse = 1 / steps
            let kernel = ColorKernel(name: "colorPosterize", alphaHandling: .unpremultiplied, preservesAlpha: true) {
                row in
                let p = row.pixels
                let r = p.red
                let g = p.green
                let b = p.blue
                for i in 0..<row.count {
                    r[i] = roundedToNearest(clampFloat(r[i], -1e5, 1e5) * steps) * inverse
                    g[i] = roundedToNearest(clampFloat(g[i], -1e5, 1e5) * steps) * inverse
                    b[i] = roundedToNearest(clampFloat(b[i], -1e5, 1e5) * steps) * inverse
                }
            }
            return image.inPerceptualSpace { $0.applying(kernel, arguments: "levels=\(levels)") }
        }
    }
}

extension Image {
    /// The image posterised to `levels` values per channel (see ``Filters/ColorPosterize``).
    public func colorPosterize(levels: Double = 6) -> Image {
        applyingFilter(Filters.ColorPosterize { $0.levels = levels })
    }
}
