public import LuxRender

extension Filters {
    /// Maps each straight component through its own cubic polynomial:
    /// `r′ = R.x + R.y·r + R.z·r² + R.w·r³`, and likewise for green, blue and alpha.
    public struct ColorPolynomial: Filter {
        public static let descriptor = FilterDescriptor(
            name: "ColorPolynomial", displayName: "Color Polynomial",
            categories: [.colorAdjustment, .stillImage, .video, .highDynamicRange],
            summary: "Maps each component through a cubic polynomial.",
            parameters: [
                .image(),
                .vector("redCoefficients", default: [0, 1, 0, 0], summary: "Coefficients of 1, r, r², r³."),
                .vector("greenCoefficients", default: [0, 1, 0, 0], summary: "Coefficients of 1, g, g², g³."),
                .vector("blueCoefficients", default: [0, 1, 0, 0], summary: "Coefficients of 1, b, b², b³."),
                .vector("alphaCoefficients", default: [0, 1, 0, 0], summary: "Coefficients of 1, a, a², a³."),
            ])

        public var image: Image
        public var red: SIMD4<Double>
        public var green: SIMD4<Double>
        public var blue: SIMD4<Double>
        public var alpha: SIMD4<Double>

        /// Creates the filter (the defaults are the identity).
        public init(
            image: Image, red: SIMD4<Double> = [0, 1, 0, 0], green: SIMD4<Double> = [0, 1, 0, 0],
            blue: SIMD4<Double> = [0, 1, 0, 0], alpha: SIMD4<Double> = [0, 1, 0, 0]
        ) {
            self.image = image
            self.red = red
            self.green = green
            self.blue = blue
            self.alpha = alpha
        }

        public init(arguments a: FilterArguments) {
            self.init(
                image: a.image(), red: a.vector4("redCoefficients"), green: a.vector4("greenCoefficients"),
                blue: a.vector4("blueCoefficients"), alpha: a.vector4("alphaCoefficients"))
        }

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
        Filters.ColorPolynomial(image: self, red: red, green: green, blue: blue, alpha: alpha).outputImage
    }
}
