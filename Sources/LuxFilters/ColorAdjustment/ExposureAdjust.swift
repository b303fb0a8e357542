public import LuxRender

extension Filters {
    /// Scales linear colour by `2^ev`, like changing exposure by `ev` stops.
    public struct ExposureAdjust: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "ExposureAdjust", categories: [.colorAdjustment, .stillImage, .video, .highDynamicRange],
            summary: "Multiplies linear colour by 2^ev (ev stops of exposure).", .image(\.image),
            .parameter(
                "ev", \.ev, slider: -10...10, allowed: -64...64, unit: .stops, coreImageName: "inputEV",
                summary: "Stops of exposure to add."))

        public var image: Image = .empty
        public var ev: Double = 0.5

        public init() {}

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
    public func exposureAdjust(ev: Double) -> Image { applyingFilter(Filters.ExposureAdjust { $0.ev = ev }) }
}
