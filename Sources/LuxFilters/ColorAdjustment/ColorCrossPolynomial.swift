public import LuxRender

extension Filters {
    /// Maps colour through second-order polynomials in all three components:
    /// each output channel is `k · (r, g, b, r², g², b², r·g, g·b, b·r, 1)` with its own ten coefficients `k`
    /// (straight colour; alpha unchanged).
    public struct ColorCrossPolynomial: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "ColorCrossPolynomial", categories: [.colorAdjustment, .stillImage, .video, .highDynamicRange],
            summary: "Maps colour through polynomials that mix the channels.",
            .image(\.image),
            .parameter("redCoefficients", \.red, summary: "Red from r, g, b, r², g², b², rg, gb, br, 1."),
            .parameter("greenCoefficients", \.green, summary: "Green from r, g, b, r², g², b², rg, gb, br, 1."),
            .parameter("blueCoefficients", \.blue, summary: "Blue from r, g, b, r², g², b², rg, gb, br, 1."))

        public var image: Image = .empty
        /// The ten coefficients of red (the default is the identity).
        public var red: [Double] = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        /// The ten coefficients of green.
        public var green: [Double] = [0, 1, 0, 0, 0, 0, 0, 0, 0, 0]
        /// The ten coefficients of blue.
        public var blue: [Double] = [0, 0, 1, 0, 0, 0, 0, 0, 0, 0]

        public init() {}

        /// The result.
        ///
        /// - Precondition: each coefficient list has 10 entries.
        public var outputImage: Image {
            precondition(red.count == 10 && green.count == 10 && blue.count == 10, "each channel needs 10 coefficients")
            if red == [1, 0, 0, 0, 0, 0, 0, 0, 0, 0] && green == [0, 1, 0, 0, 0, 0, 0, 0, 0, 0]
                && blue == [0, 0, 1, 0, 0, 0, 0, 0, 0, 0]
            {
                return image
            }
            let k = (red + green + blue).map(Float.init)
            let kernel = ColorKernel(
                name: "colorCrossPolynomial", alphaHandling: .unpremultiplied, preservesAlpha: true
            ) { row in
                let p = row.pixels
                let rr = p.red
                let gg = p.green
                let bb = p.blue
                let (r0, r1, r2, r3, r4, r5, r6, r7, r8, r9) = (
                    k[0], k[1], k[2], k[3], k[4], k[5], k[6], k[7], k[8], k[9]
                )
                let (g0, g1, g2, g3, g4, g5, g6, g7, g8, g9) = (
                    k[10], k[11], k[12], k[13], k[14], k[15], k[16], k[17], k[18], k[19]
                )
                let (b0, b1, b2, b3, b4, b5, b6, b7, b8, b9) = (
                    k[20], k[21], k[22], k[23], k[24], k[25], k[26], k[27], k[28], k[29]
                )
                for i in 0..<row.count {
                    let r = rr[i]
                    let g = gg[i]
                    let b = bb[i]
                    let (rsq, gsq, bsq, rg, gb, br) = (r * r, g * g, b * b, r * g, g * b, b * r)
                    rr[i] = r0 * r + r1 * g + r2 * b + r3 * rsq + r4 * gsq + r5 * bsq + r6 * rg + r7 * gb + r8 * br + r9
                    gg[i] = g0 * r + g1 * g + g2 * b + g3 * rsq + g4 * gsq + g5 * bsq + g6 * rg + g7 * gb + g8 * br + g9
                    bb[i] = b0 * r + b1 * g + b2 * b + b3 * rsq + b4 * gsq + b5 * bsq + b6 * rg + b7 * gb + b8 * br + b9
                }
            }
            let args = "r=\(describe(red)) g=\(describe(green)) b=\(describe(blue))"
            return image.applying(kernel, arguments: args)
        }
    }
}

extension Image {
    /// The image mapped through cross-channel polynomials (see ``Filters/ColorCrossPolynomial``).
    public func colorCrossPolynomial(red: [Double], green: [Double], blue: [Double]) -> Image {
        applyingFilter(
            Filters.ColorCrossPolynomial {
                $0.red = red
                $0.green = green
                $0.blue = blue
            })
    }
}
