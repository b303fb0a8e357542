public import LuxRender

extension Filters {
    /// Raises each straight colour component to `power` (`c′ = c^power`, mirrored for negative values).
    public struct GammaAdjust: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "GammaAdjust", categories: [.colorAdjustment, .stillImage, .video, .highDynamicRange],
            summary: "Applies a power law to each colour component.", .image(\.image),
            .parameter(
                "power", \.power, slider: 0.25...4, allowed: 0.0001...100,
                summary: "The exponent (above 1 darkens the midtones, below 1 lightens them)."))

        public var image: Image = .empty
        public var power: Double = 1

        public init() {}

        public var outputImage: Image {
            if power == 1 { return image }
            let g = Float(power)
            let kernel = ColorKernel(name: "gammaAdjust", alphaHandling: .unpremultiplied, preservesAlpha: true) {
                row in
                let p = row.pixels
                let r = p.red
                let gg = p.green
                let b = p.blue
                for i in 0..<row.count {
                    r[i] = signedPow(r[i], g)
                    gg[i] = signedPow(gg[i], g)
                    b[i] = signedPow(b[i], g)
                }
            }
            return image.applying(kernel, arguments: "power=\(power)")
        }
    }
}

extension Image {
    /// The image with each colour component raised to `power` (see ``Filters/GammaAdjust``).
    public func gammaAdjust(power: Double) -> Image { applyingFilter(Filters.GammaAdjust { $0.power = power }) }
}
