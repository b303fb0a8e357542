public import LuxRender

extension Filters {
    /// Scales linear colour by `2^ev`, like changing exposure by `ev` stops.
    public struct ExposureAdjust: Filter {
        public static let descriptor = FilterDescriptor(
            name: "ExposureAdjust", displayName: "Exposure Adjust",
            categories: [.colorAdjustment, .stillImage, .video, .highDynamicRange],
            summary: "Multiplies linear colour by 2^ev (ev stops of exposure).",
            parameters: [
                .image(),
                .number(
                    "ev", default: 0.5, slider: -10...10, allowed: -64...64, unit: .stops,
                    summary: "Stops of exposure to add."),
            ])

        public var image: Image
        public var ev: Double

        public init(image: Image, ev: Double = 0.5) {
            self.image = image
            self.ev = ev
        }

        public init(arguments a: FilterArguments) { self.init(image: a.image(), ev: a.number("ev")) }

        public var outputImage: Image {
            if ev == 0 { return image }
            // Scaling commutes with premultiplication, so the kernel works on premultiplied colour directly.
            let kernel = ColorKernel(name: "exposure", transform: .scale(Float(exp2Float(Float(ev)))))
            return image.applying(kernel, arguments: "ev=\(ev)")
        }
    }
}

extension Image {
    /// The image with `ev` stops of exposure added (see ``Filters/ExposureAdjust``).
    public func exposureAdjust(ev: Double) -> Image { Filters.ExposureAdjust(image: self, ev: ev).outputImage }
}
