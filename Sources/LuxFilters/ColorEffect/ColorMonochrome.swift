public import LuxRender

extension Filters {
    /// Tints the image's luminance with one colour: `c′ = (1 − intensity)·c + intensity·y·color`, with
    /// `y = 0.2126·r + 0.7152·g + 0.0722·b` in linear light.
    public struct ColorMonochrome: Filter {
        public static let descriptor = FilterDescriptor(
            name: "ColorMonochrome", displayName: "Color Monochrome",
            categories: [.colorEffect, .stillImage, .video, .highDynamicRange],
            summary: "Remaps colours to shades of one colour.",
            parameters: [
                .image(),
                .color("color", default: Color(red: 0.6, green: 0.45, blue: 0.3), summary: "The tint."),
                .number(
                    "intensity", default: 1, slider: 0...1, allowed: 0...1, unit: .fraction,
                    summary: "How much of the tinted version to mix in."),
            ])

        public var image: Image
        public var color: Color
        public var intensity: Double

        public init(image: Image, color: Color = Color(red: 0.6, green: 0.45, blue: 0.3), intensity: Double = 1) {
            self.image = image
            self.color = color
            self.intensity = intensity
        }

        public init(arguments a: FilterArguments) {
            self.init(image: a.image(), color: a.color("color"), intensity: a.number("intensity"))
        }

        public var outputImage: Image {
            if intensity == 0 { return image }
            let t = Float(intensity)
            // Linear in colour: runs on premultiplied values.
            let kernel = ColorKernel(name: "colorMonochrome", alphaHandling: .premultiplied, preservesAlpha: true) {
                row in
                let c = row.color(0)
                let (kr, kg, kb) = (c.x * t, c.y * t, c.z * t)
                let u = 1 - t
                let p = row.pixels
                let rr = p.red
                let gg = p.green
                let bb = p.blue
                for i in 0..<row.count {
                    let r = rr[i]
                    let g = gg[i]
                    let b = bb[i]
                    let y = Luma.red * r + Luma.green * g + Luma.blue * b
                    rr[i] = u * r + kr * y
                    gg[i] = u * g + kg * y
                    bb[i] = u * b + kb * y
                }
            }
            return image.applying(kernel, arguments: "intensity=\(intensity)", colors: [color])
        }
    }
}

extension Image {
    /// The image in shades of `color` (see ``Filters/ColorMonochrome``).
    public func colorMonochrome(color: Color, intensity: Double = 1) -> Image {
        Filters.ColorMonochrome(image: self, color: color, intensity: intensity).outputImage
    }
}
