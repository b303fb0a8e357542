import CLuxKernels
import LuxTestSupport
import Testing

/// The render engine's matrix row kernels `lux_color_matrix` and `lux_half4_color_matrix` against their definition,
/// on both code paths.
@Suite(.serialized) struct ColorMatrixKernelTests {
    /// A hue-rotation-like matrix, an alpha column and a bias (M row-major, K, B).
    static let coefficients: [Float] = [
        0.8, 0.3, -0.1, -0.05, 1.2, 0.15, 0.25, -0.4, 0.9, 0.02, -0.03, 0.01, 0.05, -0.02, 0.1,
    ]

    static func pseudoRandom(_ n: Int, seed: UInt32) -> [Float] {
        var random = SplitMix(seed: UInt64(seed))
        return (0..<n).map { _ in random.unit() * 1.5 - 0.25 }
    }

    static func run(_ c: [Float], _ planes: [[Float]], portable: Bool) -> [[Float]] {
        KernelPaths.run(portable: portable) {
            var (r, g, b) = (planes[0], planes[1], planes[2])
            lux_color_matrix(&r, &g, &b, planes[3], c, planes[0].count)
            return [r, g, b]
        }
    }

    @Test(
        "both paths equal M·C + (K·a + B)·a (computed in Double) and agree bit for bit",
        arguments: [false, true])
    func matchesDefinition(alphaTerms: Bool) {
        let n = 91  // eleven 8-pixel blocks and a scalar tail
        var c = Self.coefficients
        if !alphaTerms { for i in 9..<15 { c[i] = 0 } }
        let planes = (0..<4).map { Self.pseudoRandom(n, seed: 7 + UInt32($0)) }
        let fast = Self.run(c, planes, portable: false)
        let portable = Self.run(c, planes, portable: true)
        #expect(fast.joined().map(\.bitPattern) == portable.joined().map(\.bitPattern))
        var worst = 0.0
        for i in 0..<n {
            let (r, g, b, a) = (Double(planes[0][i]), Double(planes[1][i]), Double(planes[2][i]), Double(planes[3][i]))
            for ch in 0..<3 {
                let m = (0..<3).map { Double(c[3 * ch + $0]) }
                let e = m[0] * r + m[1] * g + m[2] * b + (Double(c[9 + ch]) * a + Double(c[12 + ch])) * a
                worst = max(worst, abs(Double(fast[ch][i]) - e))
            }
        }
        #expect(worst < 1e-6, "max error \(worst)")
        #expect(fast[0] != planes[0])
    }

    @Test("a pixel's value does not depend on where the span starts (vector body and scalar tail agree)")
    func positionIndependent() {
        let n = 40
        let planes = (0..<4).map { Self.pseudoRandom(n, seed: 21 + UInt32($0)) }
        let whole = Self.run(Self.coefficients, planes, portable: false)
        // The same pixels in spans starting 3 pixels later and 5 long: each lands in a scalar tail.
        for start in stride(from: 3, to: n, by: 5) {
            let end = min(start + 5, n)
            let part = Self.run(Self.coefficients, planes.map { Array($0[start..<end]) }, portable: false)
            for ch in 0..<3 {
                #expect(part[ch].map(\.bitPattern) == whole[ch][start..<end].map(\.bitPattern))
            }
        }
    }

    @Test(
        "a diagonal matrix (exposure) scales each channel alone: an infinite channel leaves the others finite",
        arguments: [false, true])
    func diagonalKeepsChannelsApart(portable: Bool) {
        let c: [Float] = [2, 0, 0, 0, 0.5, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0]
        let n = 19  // two 8-pixel blocks and a scalar tail
        let red = [Float](repeating: 1, count: n)
        let green = (0..<n).map { $0 % 3 == 0 ? Float.infinity : 0.25 }
        let blue = (0..<n).map { $0 % 5 == 0 ? -Float.infinity : 1.5 }
        let out = Self.run(c, [red, green, blue, [Float](repeating: 1, count: n)], portable: portable)
        #expect(out[0] == [Float](repeating: 2, count: n))
        #expect(out[1] == green.map { $0 * 0.5 })
        #expect(out[2] == blue.map { $0 * 4 })
    }

    @Test(
        "the half row loop equals widening (Float16), premultiplying, the matrix, unpremultiplying and narrowing (Float16) step by step, on both paths",
        arguments: [(false, false), (true, false), (false, true), (true, true)])
    func halfRowLoopMatchesSteps(premultiply: Bool, unpremultiply: Bool) {
        let n = 91
        let planes = (0..<4).map { Self.pseudoRandom(n, seed: 31 + UInt32($0)) }
        var src = [UInt16](repeating: 0, count: 4 * n)
        for i in 0..<n {
            // Alpha 0, exactly 1 and in between.
            let a: Float = i % 4 == 0 ? 0 : i % 4 == 1 ? 1 : abs(planes[3][i])
            for (c, v) in [planes[0][i], planes[1][i], planes[2][i], a].enumerated() {
                src[4 * i + c] = Float16(v).bitPattern
            }
        }
        var expected = [UInt16](repeating: 0, count: 4 * n)
        let c = Self.coefficients
        for i in 0..<n {
            var p = (0..<4).map { Float(Float16(bitPattern: src[4 * i + $0])) }
            let a = p[3]
            if premultiply && a != 1 { for ch in 0..<3 { p[ch] *= a } }
            var (r, g, b) = ([p[0]], [p[1]], [p[2]])
            lux_color_matrix(&r, &g, &b, [a], c, 1)
            p = [r[0], g[0], b[0], a]
            if unpremultiply && a != 1 { for ch in 0..<3 { p[ch] *= a != 0 ? 1 / a : 0 } }
            for ch in 0..<4 { expected[4 * i + ch] = Float16(p[ch]).bitPattern }
        }
        KernelPaths.each { portable in
            var dst = [UInt16](repeating: 0, count: 4 * n)
            lux_half4_color_matrix(src, &dst, c, premultiply ? 1 : 0, unpremultiply ? 1 : 0, 0, n)
            #expect(dst == expected, "portable: \(portable)")
        }
    }
}
