import CLuxKernels

/// An affine map of colour that leaves alpha alone: straight colour `c′ = M·c + alphaColumn·a + bias`.
///
/// On premultiplied colour `C = a·c` that is `C′ = M·C + (alphaColumn·a + bias)·a`, so a kernel made from it
/// (``ColorKernel/init(name:transform:)``) needs no alpha conversions. The engine runs such kernels in a
/// vectorised row loop (AVX when the processor has it) and composes adjacent ones into a single transform when it
/// compiles a program: a chain of exposure, matrix and tone adjustments costs one pass.
public struct ColorTransform: Hashable, Sendable {
    /// The 3×3 matrix `M`, row-major (the first row gives red).
    public let matrix: [Float]
    /// How much of alpha each of red, green and blue gains.
    public let alphaColumn: SIMD3<Float>
    /// Added to straight red, green and blue.
    public let bias: SIMD3<Float>

    /// Creates a transform.
    ///
    /// - Parameters:
    ///   - matrix: Nine entries, row-major.
    ///   - alphaColumn: Alpha's weight in red, green and blue.
    ///   - bias: Added to red, green and blue.
    public init(matrix: [Float], alphaColumn: SIMD3<Float> = .zero, bias: SIMD3<Float> = .zero) {
        precondition(matrix.count == 9, "a 3×3 matrix has 9 entries, not \(matrix.count)")
        self.matrix = matrix
        self.alphaColumn = alphaColumn
        self.bias = bias
    }

    /// Red, green and blue multiplied by `factor`.
    public static func scale(_ factor: Float) -> ColorTransform {
        ColorTransform(matrix: [factor, 0, 0, 0, factor, 0, 0, 0, factor])
    }

    /// This transform applied to the output of `inner` (the product computed in `Double`, then rounded).
    ///
    /// `M₂(M₁c + k₁a + b₁) + k₂a + b₂ = M₂M₁·c + (M₂k₁ + k₂)·a + (M₂b₁ + b₂)`.
    func composed(after inner: ColorTransform) -> ColorTransform {
        let outer = matrix.map(Double.init)
        let m = inner.matrix.map(Double.init)
        func row(_ r: Int, times v: SIMD3<Float>) -> Double {
            (0..<3).reduce(0) { $0 + outer[3 * r + $1] * Double(v[$1]) }
        }
        var product = [Float](repeating: 0, count: 9)
        for r in 0..<3 {
            for c in 0..<3 { product[3 * r + c] = Float((0..<3).reduce(0) { $0 + outer[3 * r + $1] * m[3 * $1 + c] }) }
        }
        let k = SIMD3<Float>((0..<3).map { Float(row($0, times: inner.alphaColumn) + Double(alphaColumn[$0])) })
        let b = SIMD3<Float>((0..<3).map { Float(row($0, times: inner.bias) + Double(bias[$0])) })
        return ColorTransform(matrix: product, alphaColumn: k, bias: b)
    }

    /// The coefficients in the layout `lux_color_matrix` reads (M, K, B, then one unused), as a value a row loop
    /// copies to its stack: a captured array would be retained and released by every row on every thread.
    var coefficients: SIMD16<Float> {
        let m = matrix
        return SIMD16<Float>(
            m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8], alphaColumn.x, alphaColumn.y, alphaColumn.z, bias.x,
            bias.y, bias.z, 0)
    }

    /// The row function: `lux_color_matrix` over the span's planes.
    var body: ColorKernel.Body {
        let coefficients = coefficients
        return { row in
            let p = row.pixels
            withUnsafeBytes(of: coefficients) { c in
                lux_color_matrix(
                    p.red, p.green, p.blue, p.alpha, c.baseAddress!.assumingMemoryBound(to: Float.self), row.count)
            }
        }
    }
}
