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
    public struct ColorControls: Filter {
        public static let descriptor = FilterDescriptor(
            name: "ColorControls", displayName: "Color Controls",
            categories: [.colorAdjustment, .stillImage, .video, .highDynamicRange],
            summary: "Adjusts saturation, brightness and contrast.",
            parameters: [
                .image(),
                .number(
                    "saturation", default: 1, slider: 0...2, allowed: 0...10, unit: .scale,
                    summary: "Scales the distance from gray (0 = gray, 1 = unchanged)."),
                .number(
                    "brightness", default: 0, slider: -1...1, allowed: -10...10,
                    summary: "Added to the encoded values."),
                .number(
                    "contrast", default: 1, slider: 0.25...4, allowed: 0...100, unit: .scale,
                    summary: "Scales the distance from mid-gray 0.5."),
            ])

        public var image: Image
        public var saturation: Double
        public var brightness: Double
        public var contrast: Double

        public init(image: Image, saturation: Double = 1, brightness: Double = 0, contrast: Double = 1) {
            self.image = image
            self.saturation = saturation
            self.brightness = brightness
            self.contrast = contrast
        }

        public init(arguments a: FilterArguments) {
            self.init(
                image: a.image(), saturation: a.number("saturation"), brightness: a.number("brightness"),
                contrast: a.number("contrast"))
        }

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
        Filters.ColorControls(image: self, saturation: saturation, brightness: brightness, contrast: contrast)
            .outputImage
    }
}
