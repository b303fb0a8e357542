import CLuxKernels
import LuxTestSupport
import Testing

/// The separable-blur row kernel `lux_symmetric_fir` against its definition, on both code paths.
@Suite(.serialized) struct SymmetricFIRTests {
    @Test("both paths equal the definition (computed in Double) and agree bit for bit", arguments: [1, 4, 77])
    func matchesDefinition(step: Int) {
        let n = 101  // three 32-float blocks, one 8-float block and a scalar tail
        let r = 7
        let weights: [Float] = (0...r).map { 1 / Float($0 + 2) }
        let margin = r * step
        var random = SplitMix(seed: 99)
        let src: [Float] = (0..<(n + 2 * margin + step)).map { _ in random.unit() - 0.25 }
        let (fast, portable) = KernelPaths.both { () -> [Float] in
            var out = [Float](repeating: .nan, count: n)
            src.withUnsafeBufferPointer { s in
                lux_symmetric_fir(s.baseAddress! + margin, step, weights, Int32(r), &out, n)
            }
            return out
        }
        #expect(fast.map(\.bitPattern) == portable.map(\.bitPattern))
        var worst = 0.0
        for k in 0..<n {
            var e = Double(weights[0]) * Double(src[margin + k])
            for t in 1...r {
                e += Double(weights[t]) * (Double(src[margin + k - t * step]) + Double(src[margin + k + t * step]))
            }
            worst = max(worst, abs(Double(fast[k]) - e))
        }
        #expect(worst < 1e-6, "max error \(worst)")
    }

    @Test("the two-row form gives each row bit for bit what a single call gives, on both paths")
    func pairMatchesSingles() {
        let n = 75  // four 16-float blocks and a tail of 11
        let r = 9
        let stride = 80
        let weights: [Float] = (0...r).map { 1 / Float($0 * $0 + 3) }
        var random = SplitMix(seed: 7)
        let src: [Float] = (0..<(stride * (2 * r + 2))).map { _ in random.unit() }
        KernelPaths.each { portable in
            var single0 = [Float](repeating: .nan, count: n)
            var single1 = single0
            var pair0 = single0
            var pair1 = single0
            src.withUnsafeBufferPointer { s in
                let centre = s.baseAddress! + r * stride
                lux_symmetric_fir(centre, stride, weights, Int32(r), &single0, n)
                lux_symmetric_fir(centre + stride, stride, weights, Int32(r), &single1, n)
                lux_symmetric_fir_pair(centre, stride, weights, Int32(r), &pair0, &pair1, n)
            }
            #expect(pair0.map(\.bitPattern) == single0.map(\.bitPattern), "portable \(portable)")
            #expect(pair1.map(\.bitPattern) == single1.map(\.bitPattern), "portable \(portable)")
        }
    }
}
