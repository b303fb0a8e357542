public import LuxRender

extension Filters {
    /// Tints the image's luminance with one colour: `c′ = (1 − intensity)·c + intensity·y·color`, with
    /// `y = 0.2126·r + 0.7152·g + 0.0722·b` in linear light.
    public struct ColorMonochrome: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "ColorMonochrome", categories: [.colorEffect, .stillImage, .video, .highDynamicRange],
            summary: "Remaps colours to shades of one colour.", .image(\.image),
            .parameter("color", \.color, summary: "The tint."),
            .parameter(
                "intensity", \.intensity, slider: 0...1, allowed: 0...1, unit: .fraction,
                summary: "How much of the tinted version to mix in."))

        public var image: Image = .empty
        public var color: Color = Color(red: 0.6, green: 0.45, blue: 0.3)
        public var intensity: Double = 1

        public init() {}

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
        applyingFilter(
            Filters.ColorMonochrome {
                $0.color = color
                $0.intensity = intensity
            })
    }
}
