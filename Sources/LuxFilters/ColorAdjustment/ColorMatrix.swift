public import LuxRender

extension Filters {
    /// Multiplies colour by a 4×4 matrix and adds a bias: `r′ = r·R.x + g·R.y + b·R.z + a·R.w + bias.x`,
    /// and so on for green, blue and alpha (straight, unpremultiplied colour).
    public struct ColorMatrix: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "ColorMatrix", categories: [.colorAdjustment, .stillImage, .video, .highDynamicRange],
            summary: "Multiplies colour by a 4×4 matrix and adds a bias vector.",
            .image(\.image),
            .parameter("rVector", \.red, summary: "Weights of r, g, b, a in red."),
            .parameter("gVector", \.green, summary: "Weights of r, g, b, a in green."),
            .parameter("bVector", \.blue, summary: "Weights of r, g, b, a in blue."),
            .parameter("aVector", \.alpha, summary: "Weights of r, g, b, a in alpha."),
            .parameter("biasVector", \.bias, summary: "Added to r, g, b, a."))

        public var image: Image = .empty
        /// The weights of r, g, b, a in red (the defaults are the identity).
        public var red: SIMD4<Double> = [1, 0, 0, 0]
        /// The weights of r, g, b, a in green.
        public var green: SIMD4<Double> = [0, 1, 0, 0]
        /// The weights of r, g, b, a in blue.
        public var blue: SIMD4<Double> = [0, 0, 1, 0]
        /// The weights of r, g, b, a in alpha.
        public var alpha: SIMD4<Double> = [0, 0, 0, 1]
        /// Added to r, g, b, a.
        public var bias: SIMD4<Double> = .zero

        public init() {}

        public var outputImage: Image {
            let m = [red, green, blue, alpha].flatMap { [Float($0.x), Float($0.y), Float($0.z), Float($0.w)] }
            let b = SIMD4<Float>(bias)
            if m == [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1] && b == .zero { return image }
            func v(_ x: SIMD4<Double>) -> String { "\(x.x),\(x.y),\(x.z),\(x.w)" }
            let args = "r=\(v(red)) g=\(v(green)) b=\(v(blue)) a=\(v(alpha)) bias=\(v(bias))"
            if alpha == [0, 0, 0, 1] && bias.w == 0 {
                // Alpha unchanged: the premultiplied matrix kernel (no alpha conversions at all).
                let m3 = [m[0], m[1], m[2], m[4], m[5], m[6], m[8], m[9], m[10]]
                return image.applyingMatrix(
                    "colorMatrix", m3, alphaColumn: SIMD3(m[3], m[7], m[11]), bias: SIMD3(b.x, b.y, b.z),
                    arguments: args)
            }
            let kernel = ColorKernel(name: "colorMatrix", alphaHandling: .unpremultiplied) { row in
                let p = row.pixels
                let (m00, m01, m02, m03) = (m[0], m[1], m[2], m[3])
                let (m10, m11, m12, m13) = (m[4], m[5], m[6], m[7])
                let (m20, m21, m22, m23) = (m[8], m[9], m[10], m[11])
                let (m30, m31, m32, m33) = (m[12], m[13], m[14], m[15])
                let (b0, b1, b2, b3) = (b.x, b.y, b.z, b.w)
                let rr = p.red
                let gg = p.green
                let bb = p.blue
                let aa = p.alpha
                for i in 0..<row.count {
                    let r = rr[i]
                    let g = gg[i]
                    let bl = bb[i]
                    let al = aa[i]
                    rr[i] = m00 * r + m01 * g + m02 * bl + m03 * al + b0
                    gg[i] = m10 * r + m11 * g + m12 * bl + m13 * al + b1
                    bb[i] = m20 * r + m21 * g + m22 * bl + m23 * al + b2
                    aa[i] = m30 * r + m31 * g + m32 * bl + m33 * al + b3
                }
            }
            // Outside the extent the bias would make transparent pixels visible; keep the input's extent.
            return image.applying(kernel, arguments: args)
        }
    }
}

extension Image {
    /// The image multiplied by a colour matrix (see ``Filters/ColorMatrix``).
    public func colorMatrix(
        red: SIMD4<Double> = [1, 0, 0, 0], green: SIMD4<Double> = [0, 1, 0, 0], blue: SIMD4<Double> = [0, 0, 1, 0],
        alpha: SIMD4<Double> = [0, 0, 0, 1], bias: SIMD4<Double> = .zero
    ) -> Image {
        applyingFilter(
            Filters.ColorMatrix {
                $0.red = red
                $0.green = green
                $0.blue = blue
                $0.alpha = alpha
                $0.bias = bias
            })
    }
}
