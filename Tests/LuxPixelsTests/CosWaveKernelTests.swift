import CLuxKernels
import Foundation
import LuxTestSupport
import Testing

/// The halftone screens' wave `lux_cos_wave` (½ + ½·cos 2πt) against the cosine in Double, and its AVX2 and portable
/// paths against each other.
@Suite(.serialized) struct CosWaveKernelTests {
    /// Every quarter-period boundary, both signs, small and large arguments, and pseudo-random ones.
    static let arguments: [Float] = {
        var t: [Float] = [0, 0.25, 0.5, 0.75, 1, -0.25, -0.5, -1, 1e-8, 0.125, -0.375, 1000.3, -52_345.71, 3e6]
        var random = SplitMix(seed: 5)
        for _ in 0..<1000 { t.append(random.unit() * 400 - 200) }
        return t
    }()

    @Test("within 2e-7 of ½ + ½·cos(2πt) in Double, the same bits on both paths")
    func matchesCosine() {
        let t = Self.arguments
        var results: [[Float]] = []
        KernelPaths.each { portable in
            var out = [Float](repeating: .nan, count: t.count)
            lux_cos_wave(t, &out, t.count)
            results.append(out)
            // In place, as HalftoneScreen calls it.
            var inPlace = t
            inPlace.withUnsafeMutableBufferPointer { lux_cos_wave($0.baseAddress, $0.baseAddress, t.count) }
            #expect(inPlace.map(\.bitPattern) == out.map(\.bitPattern))
        }
        #expect(results[0].map(\.bitPattern) == results[1].map(\.bitPattern))
        var worst = 0.0
        for (x, y) in zip(t, results[0]) {
            let exact = 0.5 + 0.5 * cos(2 * Double.pi * Double(x))
            worst = max(worst, abs(Double(y) - exact))
        }
        #expect(worst < 2e-7)
    }
}
