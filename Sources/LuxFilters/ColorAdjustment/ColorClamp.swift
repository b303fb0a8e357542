public import LuxRender

extension Filters {
    /// Clamps each straight (unpremultiplied) component into `[minComponents, maxComponents]`.
    public struct ColorClamp: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "ColorClamp", categories: [.colorAdjustment, .stillImage, .video, .highDynamicRange],
            summary: "Clamps red, green, blue and alpha into a range.", .image(\.image),
            .parameter("minComponents", \.minComponents, summary: "Lower bounds of red, green, blue and alpha."),
            .parameter("maxComponents", \.maxComponents, summary: "Upper bounds of red, green, blue and alpha."))

        public var image: Image = .empty
        public var minComponents: SIMD4<Double> = .zero
        public var maxComponents: SIMD4<Double> = .one

        public init() {}

        public var outputImage: Image {
            let lo = SIMD4<Float>(minComponents)
            let hi = SIMD4<Float>(maxComponents)
            let keepsAlpha = lo.w <= 0 && hi.w >= 1
            let kernel = ColorKernel(name: "colorClamp", alphaHandling: .unpremultiplied, preservesAlpha: keepsAlpha) {
                row in
                let p = row.pixels
                let r = p.red
                let g = p.green
                let b = p.blue
                let a = p.alpha
                for i in 0..<row.count {
                    r[i] = clampFloat(r[i], lo.x, hi.x)
                    g[i] = clampFloat(g[i], lo.y, hi.y)
                    b[i] = clampFloat(b[i], lo.z, hi.z)
                    a[i] = clampFloat(a[i], lo.w, hi.w)
                }
            }
            return image.applying(kernel, arguments: "min=\(describe(minComponents)) max=\(describe(maxComponents))")
        }
    }
}

extension Image {
    /// The image with each component clamped into a range (see ``Filters/ColorClamp``).
    public func colorClamp(min: SIMD4<Double> = .zero, max: SIMD4<Double> = .one) -> Image {
        applyingFilter(
            Filters.ColorClamp {
                $0.minComponents = min
                $0.maxComponents = max
            })
    }
}
