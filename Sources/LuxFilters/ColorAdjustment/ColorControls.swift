public import LuxRender

extension Filters {
    /// Adjusts saturation, brightness and contrast, in that order, on sRGB-encoded values (how photo editors apply
    /// them).
    ///
    /// ```
    /// y  = 0.2126·r + 0.7152·g + 0.0722·b
    /// c₁ = y + (c − y)·saturation
    /// c₂ = c₁ + brightness
    /// c₃ = (c₂ − 0.5)·contrast + 0.5
    /// ```
    public struct ColorControls: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "ColorControls", categories: [.colorAdjustment, .stillImage, .video, .highDynamicRange],
            summary: "Adjusts saturation, brightness and contrast.", .image(\.image),
            .parameter(
                "saturation", \.saturation, slider: 0...2, allowed: 0...10, unit: .scale,
                summary: "Scales the distance from gray (0 = gray, 1 = unchanged)."),
            .parameter(
                "brightness", \.brightness, slider: -1...1, allowed: -10...10, summary: "Added to the encoded values."),
            .parameter(
                "contrast", \.contrast, slider: 0.25...4, allowed: 0...100, unit: .scale,
                summary: "Scales the distance from mid-gray 0.5."))

        public var image: Image = .empty
        public var saturation: Double = 1
        public var brightness: Double = 0
        public var contrast: Double = 1

        public init() {}

        public var outputImage: Image {
            if saturation == 1 && brightness == 0 && contrast == 1 { return image }
            let s = Float(saturation)
            // c₃ = contrast·c₁ + (brightness·contrast + 0.5 − 0.5·contrast)
            let k = Float(contrast)
            let offset = Float(brightness) * k + 0.5 - 0.5 * k
            let kernel = ColorKernel(name: "colorControls", alphaHandling: .unpremultiplied, preservesAlpha: true) {
                row in
                let p = row.pixels
                let rr = p.red
                let gg = p.green
                let bb = p.blue
                for i in 0..<row.count {
                    let r = rr[i]
                    let g = gg[i]
                    let b = bb[i]
                    let y = Luma.red * r + Luma.green * g + Luma.blue * b
                    rr[i] = (y + (r - y) * s) * k + offset
                    gg[i] = (y + (g - y) * s) * k + offset
                    bb[i] = (y + (b - y) * s) * k + offset
                }
            }
            let args = "saturation=\(saturation) brightness=\(brightness) contrast=\(contrast)"
            return image.inPerceptualSpace { $0.applying(kernel, arguments: args) }
        }
    }
}

extension Image {
    /// The image with saturation, brightness and contrast adjusted (see ``Filters/ColorControls``).
    public func colorControls(saturation: Double = 1, brightness: Double = 0, contrast: Double = 1) -> Image {
        applyingFilter(
            Filters.ColorControls {
                $0.saturation = saturation
                $0.brightness = brightness
                $0.contrast = contrast
            })
    }
}
