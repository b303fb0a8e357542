import LuxRender

extension Image {
    /// The image with straight red, green and blue multiplied by the 3×3 matrix `m` (row-major: the first row
    /// gives red), plus `alphaColumn`·alpha and `bias`, alpha unchanged.
    ///
    /// On premultiplied colour `C = a·c` that is `C′ = m·C + (alphaColumn·a + bias)·a`, so the kernel needs no
    /// alpha conversions; the fused program costs a multiply–add per entry.
    func applyingMatrix(
        _ name: String, _ m: [Float], alphaColumn: SIMD3<Float> = .zero, bias: SIMD3<Float> = .zero, arguments: String
    ) -> Image {
        precondition(m.count == 9, "a 3×3 matrix has 9 entries")
        let (m0, m1, m2, m3, m4, m5, m6, m7, m8) = (m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8])
        let (b0, b1, b2) = (bias.x, bias.y, bias.z)
        let (k0, k1, k2) = (alphaColumn.x, alphaColumn.y, alphaColumn.z)
        // Three bodies, so that the common cases (no bias, no alpha column) skip the alpha terms.
        let kernel: ColorKernel
        if alphaColumn == .zero && bias == .zero {
            kernel = ColorKernel(name: name, alphaHandling: .premultiplied, preservesAlpha: true) { row in
                let p = row.pixels
                let (rr, gg, bb) = (p.red, p.green, p.blue)
                for i in 0..<row.count {
                    let (r, g, b) = (rr[i], gg[i], bb[i])
                    rr[i] = m0 * r + m1 * g + m2 * b
                    gg[i] = m3 * r + m4 * g + m5 * b
                    bb[i] = m6 * r + m7 * g + m8 * b
                }
            }
        } else if alphaColumn == .zero {
            kernel = ColorKernel(name: name, alphaHandling: .premultiplied, preservesAlpha: true) { row in
                let p = row.pixels
                let (rr, gg, bb, aa) = (p.red, p.green, p.blue, p.alpha)
                for i in 0..<row.count {
                    let (r, g, b, a) = (rr[i], gg[i], bb[i], aa[i])
                    rr[i] = m0 * r + m1 * g + m2 * b + b0 * a
                    gg[i] = m3 * r + m4 * g + m5 * b + b1 * a
                    bb[i] = m6 * r + m7 * g + m8 * b + b2 * a
                }
            }
        } else {
            kernel = ColorKernel(name: name, alphaHandling: .premultiplied, preservesAlpha: true) { row in
                let p = row.pixels
                let (rr, gg, bb, aa) = (p.red, p.green, p.blue, p.alpha)
                for i in 0..<row.count {
                    let (r, g, b, a) = (rr[i], gg[i], bb[i], aa[i])
                    rr[i] = m0 * r + m1 * g + m2 * b + (k0 * a + b0) * a
                    gg[i] = m3 * r + m4 * g + m5 * b + (k1 * a + b1) * a
                    bb[i] = m6 * r + m7 * g + m8 * b + (k2 * a + b2) * a
                }
            }
        }
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
