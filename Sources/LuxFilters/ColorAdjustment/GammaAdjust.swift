public import LuxRender

extension Filters {
    /// Raises each straight colour component to `power` (`c′ = c^power`, mirrored for negative values).
    public struct GammaAdjust: Filter {
        public static let descriptor = FilterDescriptor(
            name: "GammaAdjust", displayName: "Gamma Adjust",
            categories: [.colorAdjustment, .stillImage, .video, .highDynamicRange],
            summary: "Applies a power law to each colour component.",
            parameters: [
                .image(),
                .number(
                    "power", default: 1, slider: 0.25...4, allowed: 0.0001...100,
                    summary: "The exponent (above 1 darkens the midtones, below 1 lightens them)."),
            ])

        public var image: Image
        public var power: Double

        public init(image: Image, power: Double = 1) {
            self.image = image
            self.power = power
        }

        public init(arguments a: FilterArguments) { self.init(image: a.image(), power: a.number("power")) }

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
    public func gammaAdjust(power: Double) -> Image { Filters.GammaAdjust(image: self, power: power).outputImage }
}
