import CLuxKernels
import LuxTestSupport
import Testing

/// The vertical extended-box kernels of the scene renderer's blur (`lux_vertical_box_slide`,
/// `lux_vertical_box_emit`, LuxScene's VerticalBlur) against the Swift loops they replace, on both code paths: the
/// same bits.
@Suite(.serialized) struct VerticalBoxKernelTests {
    static func values(_ count: Int, seed: UInt32) -> [Float] {
        var random = SplitMix(seed: UInt64(seed))
        return (0..<count).map { _ in random.unit() * 7 - 1 }
    }

    @Test("slide and emit match the Swift loops on both paths", arguments: [1, 7, 8, 33, 1029])
    func matchesReference(count n: Int) {
        let sum = Self.values(n, seed: 1).map { $0 * 11 }
        let enter = Self.values(n, seed: 2)
        let leave = Self.values(n, seed: 3)
        let newest = Self.values(n, seed: 4)
        let (f, c): (Float, Float) = (0.3719, 1 / (7 + 2 * 0.3719))
        // The reference: VerticalBlur's loops before the kernels.
        var slid = sum
        for i in 0..<n { slid[i] += enter[i] - leave[i] }
        var emittedSum = sum
        var emitted = [Float](repeating: 0, count: n)
        for i in 0..<n {
            let t = emittedSum[i] + enter[i] - leave[i]
            emittedSum[i] = t
            emitted[i] = (t + f * (leave[i] + newest[i])) * c
        }
        KernelPaths.each { portable in
            var s = sum
            lux_vertical_box_slide(&s, enter, leave, n)
            #expect(s.map(\.bitPattern) == slid.map(\.bitPattern), "portable: \(portable)")
            var e = sum
            var out = [Float](repeating: .nan, count: n)
            lux_vertical_box_emit(&e, enter, leave, newest, &out, n, f, c)
            #expect(e.map(\.bitPattern) == emittedSum.map(\.bitPattern), "portable: \(portable)")
            #expect(out.map(\.bitPattern) == emitted.map(\.bitPattern), "portable: \(portable)")
        }
    }
}
