import CLuxKernels
import LuxColor
import LuxTestSupport
import Testing

/// Exposure fusion's weight kernel (`lux_mertens_weights`, the default exponents) against the blender's Swift loop —
/// contrast × saturation × well-exposedness + 10⁻¹², written out here in the same order — bit for bit, on both kernel
/// paths, with a tail shorter than eight pixels and grey pixels (saturation exactly 0).
@Suite(.serialized) struct MertensWeightKernelTests {
    @Test(arguments: [false, true])
    func weightsMatchTheSwiftLoop(portable: Bool) {
        var random = SplitMix(seed: 2026)
        let n = 83
        let r = (0..<n).map { _ in random.unit() * 1.3 - 0.1 }
        let g = (0..<n).map { i in i % 9 == 0 ? r[i] : random.unit() }
        let b = (0..<n).map { i in i % 9 == 0 ? r[i] : random.unit() }
        let contrast = (0..<n).map { _ in random.unit() * 2 }
        let (mean, sigma): (Float, Float) = (0.5, 0.2)
        let k = -1.442_695 / (2 * sigma * sigma)
        let expected = (0..<n).map { i -> Float in
            let (rg, gb, br) = (r[i] - g[i], g[i] - b[i], b[i] - r[i])
            let sat = ((rg * rg + gb * gb + br * br) * (1 / 9)).squareRoot()
            let (dr, dg, db) = (r[i] - mean, g[i] - mean, b[i] - mean)
            let e = fastExp2((dr * dr + dg * dg + db * db) * k)
            return contrast[i] * sat * e + 1e-12
        }
        KernelPaths.run(portable: portable) {
            var weights = contrast
            lux_mertens_weights(r, g, b, &weights, n, mean, k)
            #expect(weights.map(\.bitPattern) == expected.map(\.bitPattern))
            #expect((0..<n).filter { $0 % 9 == 0 }.allSatisfy { weights[$0] == 1e-12 })
        }
    }
}
