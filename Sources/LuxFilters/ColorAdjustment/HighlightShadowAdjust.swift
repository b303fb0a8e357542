public import LuxRender

extension Filters {
    /// Lifts shadows and recovers highlights, optionally guided by the local (blurred) brightness so detail is
    /// kept.
    ///
    /// On sRGB-encoded values, with `L` the luma of the pixel (or, when `radius > 0`, of the image blurred with a
    /// Gaussian of that standard deviation), clamped to 0…1:
    ///
    /// ```
    /// gain = (1 + shadowAmount·(1 − L)²) · (1 − (1 − highlightAmount)·L²)
    /// c′ = c · gain
    /// ```
    ///
    /// `shadowAmount` 0 and `highlightAmount` 1 leave the image unchanged.
    public struct HighlightShadowAdjust: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "HighlightShadowAdjust", displayName: "Highlight and Shadow Adjust",
            categories: [.colorAdjustment, .stillImage, .video, .highDynamicRange],
            summary: "Brightens shadows and darkens highlights.", .image(\.image),
            .parameter(
                "radius", \.radius, slider: 0...10, allowed: 0...100, unit: .pixels,
                summary: "Standard deviation of the local brightness (0: per pixel)."),
            .parameter(
                "shadowAmount", \.shadowAmount, slider: -1...1, allowed: -1...1,
                summary: "How much to brighten (positive) or darken (negative) shadows."),
            .parameter(
                "highlightAmount", \.highlightAmount, slider: 0.3...1, allowed: 0...1,
                summary: "How much of the highlights to keep (1: unchanged)."))

        public var image: Image = .empty
        public var radius: Double = 0
        public var shadowAmount: Double = 0
        public var highlightAmount: Double = 1

        public init() {}

        public var outputImage: Image {
            if shadowAmount == 0 && highlightAmount == 1 { return image }
            let s = Float(shadowAmount)
            let h = 1 - Float(highlightAmount)
            let args = "radius=\(radius) shadow=\(shadowAmount) highlight=\(highlightAmount)"
            let local = radius > 0
            let kernel = ColorKernel(
                name: "highlightShadow", inputCount: local ? 2 : 1, alphaHandling: .unpremultiplied,
                preservesAlpha: true
            ) { row in
                let p = row.pixels
                let guide = local ? row.input(1) : p
                let rr = p.red
                let gg = p.green
                let bb = p.blue
                let gr = guide.red
                let gG = guide.green
                let gb = guide.blue
                for i in 0..<row.count {
                    let l = clampFloat(Luma.red * gr[i] + Luma.green * gG[i] + Luma.blue * gb[i], 0, 1)
                    let d = 1 - l
                    let gain = (1 + s * d * d) * (1 - h * l * l)
                    rr[i] *= gain
                    gg[i] *= gain
                    bb[i] *= gain
                }
            }
            let e = image.extent
            return image.inPerceptualSpace { encoded in
                guard local else { return encoded.applying(kernel, arguments: args) }
                let blurred = encoded.clampedToExtent().gaussianBlur(radius: radius).cropped(to: e)
                return kernel.apply(extent: e, inputs: [encoded, blurred], arguments: args)
            }
        }
    }
}

extension Image {
    /// The image with shadows and highlights adjusted (see ``Filters/HighlightShadowAdjust``).
    public func highlightShadowAdjust(radius: Double = 0, shadowAmount: Double = 0, highlightAmount: Double = 1)
        -> Image
    {
        applyingFilter(
            Filters.HighlightShadowAdjust {
                $0.radius = radius
                $0.shadowAmount = shadowAmount
                $0.highlightAmount = highlightAmount
            })
    }
}
