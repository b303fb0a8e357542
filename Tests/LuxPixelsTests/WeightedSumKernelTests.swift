import CLuxKernels
import LuxTestSupport
import Testing

/// The resamplers' C passes against the same sums taken in Swift in the same order, on both kernel paths.
@Suite(.serialized) struct WeightedSumKernelTests {
    static func samples(_ count: Int, seed: UInt32) -> [Float] {
        var random = SplitMix(seed: UInt64(seed))
        return (0..<count).map { _ in random.unit() * 2 - 0.5 }
    }

    @Test(arguments: [false, true])
    func rowsMatchSwift(portable: Bool) {
        KernelPaths.run(portable: portable) {
            // 6 taps over rows of 75 floats: two 32-float blocks and an 11-float tail.
            let (taps, n) = (6, 75)
            let rows = (0..<taps).map { Self.samples(n, seed: UInt32(7 + $0)) }
            let weights = Self.samples(taps, seed: 99)
            var expected = [Float](repeating: 0, count: n)
            for k in 0..<n {
                var s: Float = 0
                for t in 0..<taps { s += weights[t] * rows[t][k] }
                expected[k] = s
            }
            var out = [Float](repeating: .nan, count: n)
            let pointers = rows.map { _ in UnsafeMutablePointer<Float>.allocate(capacity: n) }
            defer { for p in pointers { p.deallocate() } }
            for (p, row) in zip(pointers, rows) { p.initialize(from: row, count: n) }
            let list: [UnsafePointer<Float>?] = pointers.map { UnsafePointer($0) }
            lux_weighted_rows(list, weights, taps, &out, n)
            #expect(out.map(\.bitPattern) == expected.map(\.bitPattern))
        }
    }

    @Test(arguments: [false, true])
    func pixelsMatchSwift(portable: Bool) {
        KernelPaths.run(portable: portable) {
            // 9 output pixels, 5 taps each, windows starting at scattered pixels of a 30-pixel RGBA row.
            let (taps, n) = (5, 9)
            let src = Self.samples(4 * 30, seed: 3)
            let weights = Self.samples(taps * n, seed: 4)
            let first = (0..<n).map { ($0 * 13) % 25 }
            var expected = [Float](repeating: 0, count: 4 * n)
            for x in 0..<n {
                for c in 0..<4 {
                    var s: Float = 0
                    for t in 0..<taps { s += weights[x * taps + t] * src[4 * (first[x] + t) + c] }
                    expected[4 * x + c] = s
                }
            }
            var out = [Float](repeating: .nan, count: 4 * n)
            lux_weighted_pixels(src, first, weights, taps, &out, n)
            #expect(out.map(\.bitPattern) == expected.map(\.bitPattern))
        }
    }

    @Test(arguments: [false, true])
    func bytesWidenAndSumsRoundHalfUp(portable: Bool) {
        KernelPaths.run(portable: portable) {
            // 70 values (two 32-value vectors and a tail), spread over the byte codes.
            let bytes = (0..<70).map { UInt8(($0 * 97 + 5) % 256) }
            var widened = [Float](repeating: .nan, count: bytes.count)
            lux_widen_bytes(bytes, &widened, bytes.count)
            #expect(widened == bytes.map(Float.init))
            // Half-way sums round up (2.5 → 3, not to even), out-of-range sums clamp, NaN narrows to 0.
            let sums: [Float] =
                [-3, -0.5, 0.49, 0.5, 2.5, 3.5, 254.49, 254.5, 255, 300, .nan, .infinity]
                + (0..<58).map { Float($0) * 4.4 }
            var narrowed = [UInt8](repeating: 7, count: sums.count)
            lux_narrow_rounding_up(sums, &narrowed, sums.count)
            let expected = sums.map { v -> UInt8 in v.isNaN ? 0 : UInt8(min(max((v + 0.5).rounded(.down), 0), 255)) }
            #expect(narrowed == expected)
            #expect(Array(narrowed.prefix(10)) == [0, 0, 0, 1, 3, 4, 254, 255, 255, 255])
        }
    }
}
