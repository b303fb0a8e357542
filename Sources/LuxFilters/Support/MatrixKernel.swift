import LuxRender

extension Image {
    /// The image with straight red, green and blue multiplied by the 3×3 matrix `m` (row-major: the first row
    /// gives red), plus `alphaColumn`·alpha and `bias`, alpha unchanged.
    ///
    /// On premultiplied colour `C = a·c` that is `C′ = m·C + (alphaColumn·a + bias)·a`, so the kernel needs no
    /// alpha conversions, and the engine composes it with neighbouring matrices (see ``ColorTransform``).
    func applyingMatrix(
        _ name: String, _ m: [Float], alphaColumn: SIMD3<Float> = .zero, bias: SIMD3<Float> = .zero, arguments: String
    ) -> Image {
        let kernel = ColorKernel(
            name: name, transform: ColorTransform(matrix: m, alphaColumn: alphaColumn, bias: bias))
        return applying(kernel, arguments: arguments)
    }
}

/// 3×3 matrix helpers in `Float`, row-major.
enum Matrix3 {
    static let identity: [Float] = [1, 0, 0, 0, 1, 0, 0, 0, 1]

    /// `(1 − t)·a + t·b`, entry by entry.
    static func mix(_ a: [Float], _ b: [Float], _ t: Float) -> [Float] {
        zip(a, b).map { (1 - t) * $0 + t * $1 }
    }

    /// The matrix that replaces colour by its luma (weights `Luma`) times `tint`.
    static func lumaTimes(_ tint: SIMD3<Float>) -> [Float] {
        let w = [Luma.red, Luma.green, Luma.blue]
        return [tint.x, tint.y, tint.z].flatMap { t in w.map { $0 * t } }
    }

    /// The matrix product `a·b`.
    static func multiply(_ a: [Float], _ b: [Float]) -> [Float] {
        var out = [Float](repeating: 0, count: 9)
        for r in 0..<3 {
            for c in 0..<3 { out[3 * r + c] = (0..<3).reduce(0) { $0 + a[3 * r + $1] * b[3 * $1 + c] } }
        }
        return out
    }
}
