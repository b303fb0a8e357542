public import LuxRender

extension Filters {
    /// Saturates muted colours more than already saturated ones (on sRGB-encoded values).
    ///
    /// ```
    /// y = 0.2126·r + 0.7152·g + 0.0722·b,  s = clamp(max(r, g, b) − min(r, g, b), 0, 1)
    /// c′ = y + (c − y)·(1 + amount·(1 − s))
    /// ```
    public struct Vibrance: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "Vibrance", categories: [.colorAdjustment, .stillImage, .video, .highDynamicRange],
            summary: "Adjusts the saturation of muted colours, protecting saturated ones.", .image(\.image),
            .parameter(
                "amount", \.amount, slider: -1...1, allowed: -10...10,
                summary: "Positive saturates, negative desaturates; muted colours change most."))

        public var image: Image = .empty
        public var amount: Double = 0

        public init() {}

        public var outputImage: Image {
            if amount == 0 { return image }
            let k = Float(amount)
            let kernel = ColorKernel(name: "vibrance", alphaHandling: .unpremultiplied, preservesAlpha: true) { row in
                let p = row.pixels
                let rr = p.red
                let gg = p.green
                let bb = p.blue
                for i in 0..<row.count {
                    let r = rr[i]
                    let g = gg[i]
                    let b = bb[i]
                    let y = Luma.red * r + Luma.green * g + Luma.blue * b
                    let s = clampFloat(max(r, max(g, b)) - min(r, min(g, b)), 0, 1)
                    let f = 1 + k * (1 - s)
                    rr[i] = y + (r - y) * f
                    gg[i] = y + (g - y) * f
                    bb[i] = y + (b - y) * f
                }
            }
            return image.inPerceptualSpace { $0.applying(kernel, arguments: "amount=\(amount)") }
        }
    }
}

extension Image {
    /// The image with muted colours saturated by `amount` (see ``Filters/Vibrance``).
    public func vibrance(amount: Double) -> Image { applyingFilter(Filters.Vibrance { $0.amount = amount }) }
}
