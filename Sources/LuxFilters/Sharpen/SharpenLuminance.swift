public import LuxRender

extension Filters {
    /// Sharpens detail in luminance only, so colour edges do not fringe: with `Y` the luma of a pixel and `Ȳ`
    /// that of a Gaussian blur of standard deviation `radius`, `c′ = c + sharpness·(Y − Ȳ)` on each of red, green
    /// and blue (sRGB-encoded values; edges repeat under the blur).
    public struct SharpenLuminance: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "SharpenLuminance", categories: [.sharpen, .stillImage, .video],
            summary: "Sharpens luminance detail without touching colour.", .image(\.image),
            .parameter("sharpness", \.sharpness, slider: 0...2, allowed: 0...100, summary: "How much to sharpen."),
            .parameter(
                "radius", \.radius, slider: 0...20, allowed: 0...500, unit: .pixels,
                summary: "The standard deviation of the blur detail is measured against."))

        public var image: Image = .empty
        public var sharpness: Double = 0.4
        public var radius: Double = 1.69

        public init() {}

        public var outputImage: Image {
            if sharpness == 0 || radius < 0.25 { return image }
            let k = Float(sharpness)
            let kernel = ColorKernel(
                name: "sharpenLuminance", inputCount: 2, alphaHandling: .unpremultiplied, preservesAlpha: true
            ) { row in
                let p = row.pixels
                let b = row.input(1)
                for i in 0..<row.count {
                    let y = Luma.red * p.red[i] + Luma.green * p.green[i] + Luma.blue * p.blue[i]
                    let yb = Luma.red * b.red[i] + Luma.green * b.green[i] + Luma.blue * b.blue[i]
                    let d = k * (y - yb)
                    p.red[i] += d
                    p.green[i] += d
                    p.blue[i] += d
                }
            }
            let e = image.extent
            let r = radius
            let args = "sharpness=\(sharpness) radius=\(radius)"
            return image.inPerceptualSpace { encoded in
                let blurred = encoded.clampedToExtent().gaussianBlur(radius: r).cropped(to: e)
                return kernel.apply(extent: e, inputs: [encoded, blurred], arguments: args)
            }
        }
    }
}

extension Image {
    /// The image with luminance detail sharpened (see ``Filters/SharpenLuminance``).
    public func sharpenLuminance(sharpness: Double = 0.4, radius: Double = 1.69) -> Image {
        applyingFilter(
            Filters.SharpenLuminance {
                $0.sharpness = sharpness
                $0.radius = radius
            })
    }
}
