public import LuxRender

extension Filters {
    /// Convolves with a 3×3 matrix of weights (row-major from the top-left neighbour; y grows downwards) and adds
    /// `bias` to red, green and blue.
    ///
    /// All four premultiplied channels are convolved, so weights that sum to 1 keep opaque images opaque.
    public struct Convolution3X3: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "Convolution3X3", displayName: "3 by 3 Convolution",
            categories: [.stylize, .sharpen, .stillImage, .video, .highDynamicRange],
            summary: "Convolves with a 3×3 weight matrix.",
            .image(\.image),
            .parameter("weights", \.weights, summary: "Nine weights, row by row from the top left."),
            .parameter("bias", \.bias, slider: -1...1, summary: "Added to red, green and blue."))

        public var image: Image = .empty
        /// Nine weights, row by row from the top left (the default is the identity).
        public var weights: [Double] = [0, 0, 0, 0, 1, 0, 0, 0, 0]
        /// Added to red, green and blue.
        public var bias: Double = 0

        public init() {}

        /// The result.
        ///
        /// - Precondition: `weights.count == 9`.
        public var outputImage: Image {
            precondition(weights.count == 9, "Convolution3X3 needs 9 weights, not \(weights.count)")
            let w = weights.map(Float.init)
            let b = Float(bias)
            let kernel = GeneralKernel(name: "convolution3x3") { row in
                let s = row.sampler(0)
                let n = 4 * row.count
                let left = 4 * (row.x - 1 - s.minX)
                let top = s.row(row.y - 1) + left
                let mid = s.row(row.y) + left
                let bottom = s.row(row.y + 1) + left
                let out = row.output
                let (w0, w1, w2, w3, w4, w5, w6, w7, w8) = (w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7], w[8])
                for k in 0..<n {
                    var v = w0 * top[k] + w1 * top[k + 4] + w2 * top[k + 8]
                    v += w3 * mid[k] + w4 * mid[k + 4] + w5 * mid[k + 8]
                    v += w6 * bottom[k] + w7 * bottom[k + 4] + w8 * bottom[k + 8]
                    out[k] = v
                }
                if b != 0 {
                    for i in 0..<row.count {
                        out[4 * i] += b
                        out[4 * i + 1] += b
                        out[4 * i + 2] += b
                    }
                }
            }
            return kernel.apply(
                extent: image.extent.insetBy(dx: -1, dy: -1), inputs: [image],
                arguments: "weights=\(weights.map { "\($0)" }.joined(separator: ",")) bias=\(bias)"
            ) { _, rect in rect.insetBy(dx: -1, dy: -1) }
        }
    }
}

extension Image {
    /// The image convolved with a 3×3 matrix (see ``Filters/Convolution3X3``).
    public func convolution3X3(weights: [Double], bias: Double = 0) -> Image {
        applyingFilter(
            Filters.Convolution3X3 {
                $0.weights = weights
                $0.bias = bias
            })
    }
}
