public import LuxRender

extension Filters {
    /// Maps each straight component through its own cubic polynomial:
    /// `r′ = R.x + R.y·r + R.z·r² + R.w·r³`, and likewise for green, blue and alpha.
    public struct ColorPolynomial: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "ColorPolynomial", categories: [.colorAdjustment, .stillImage, .video, .highDynamicRange],
            summary: "Maps each component through a cubic polynomial.", .image(\.image),
            .parameter("redCoefficients", \.red, summary: "Coefficients of 1, r, r², r³."),
            .parameter("greenCoefficients", \.green, summary: "Coefficients of 1, g, g², g³."),
            .parameter("blueCoefficients", \.blue, summary: "Coefficients of 1, b, b², b³."),
            .parameter("alphaCoefficients", \.alpha, summary: "Coefficients of 1, a, a², a³."))

        public var image: Image = .empty
        public var red: SIMD4<Double> = [0, 1, 0, 0]
        public var green: SIMD4<Double> = [0, 1, 0, 0]
        public var blue: SIMD4<Double> = [0, 1, 0, 0]
        public var alpha: SIMD4<Double> = [0, 1, 0, 0]

        public init() {}

        /// Creates the filter (the defaults are the identity).

        public var outputImage: Image {
            let identity: SIMD4<Double> = [0, 1, 0, 0]
            if red == identity && green == identity && blue == identity && alpha == identity { return image }
            let r = SIMD4<Float>(red)
            let g = SIMD4<Float>(green)
            let b = SIMD4<Float>(blue)
            let a = SIMD4<Float>(alpha)
            let keepsAlpha = alpha == identity
            let kernel = ColorKernel(
                name: "colorPolynomial", alphaHandling: .unpremultiplied, preservesAlpha: keepsAlpha
            ) { row in
                let p = row.pixels
                let rr = p.red
                let gg = p.green
                let bb = p.blue
                let aa = p.alpha
                for i in 0..<row.count {
                    let x = rr[i]
                    let y = gg[i]
                    let z = bb[i]
                    let w = aa[i]
                    rr[i] = r.x + x * (r.y + x * (r.z + x * r.w))
                    gg[i] = g.x + y * (g.y + y * (g.z + y * g.w))
                    bb[i] = b.x + z * (b.y + z * (b.z + z * b.w))
                    aa[i] = a.x + w * (a.y + w * (a.z + w * a.w))
                }
            }
            let args = "r=\(describe(red)) g=\(describe(green)) b=\(describe(blue)) a=\(describe(alpha))"
            return image.applying(kernel, arguments: args)
        }
    }
}

extension Image {
    /// The image with each component mapped through a cubic polynomial (see ``Filters/ColorPolynomial``).
    public func colorPolynomial(
        red: SIMD4<Double> = [0, 1, 0, 0], green: SIMD4<Double> = [0, 1, 0, 0], blue: SIMD4<Double> = [0, 1, 0, 0],
        alpha: SIMD4<Double> = [0, 1, 0, 0]
    ) -> Image {
        applyingFilter(
            Filters.ColorPolynomial {
                $0.red = red
                $0.green = green
                $0.blue = blue
                $0.alpha = alpha
            })
    }
}
