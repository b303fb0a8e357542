public import LuxRender

extension Filters {
    /// Clamps each straight (unpremultiplied) component into `[minComponents, maxComponents]`.
    public struct ColorClamp: Filter {
        public static let descriptor = FilterDescriptor(
            name: "ColorClamp", displayName: "Color Clamp",
            categories: [.colorAdjustment, .stillImage, .video, .highDynamicRange],
            summary: "Clamps red, green, blue and alpha into a range.",
            parameters: [
                .image(),
                .vector(
                    "minComponents", default: [0, 0, 0, 0], summary: "Lower bounds of red, green, blue and alpha."),
                .vector(
                    "maxComponents", default: [1, 1, 1, 1], summary: "Upper bounds of red, green, blue and alpha."),
            ])

        public var image: Image
        public var minComponents: SIMD4<Double>
        public var maxComponents: SIMD4<Double>

        public init(image: Image, minComponents: SIMD4<Double> = .zero, maxComponents: SIMD4<Double> = .one) {
            self.image = image
            self.minComponents = minComponents
            self.maxComponents = maxComponents
        }

        public init(arguments a: FilterArguments) {
            self.init(
                image: a.image(), minComponents: a.vector4("minComponents"), maxComponents: a.vector4("maxComponents"))
        }

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
        Filters.ColorClamp(image: self, minComponents: min, maxComponents: max).outputImage
    }
}
