import CLuxKernels
import Testing

/// Block matching's C kernel against the same sums computed lane by lane in Swift, on both of its paths.
@Suite(.serialized) struct TileCostKernelTests {
    @Test(arguments: [false, true])
    func laneSumsMatchSwift(portable: Bool) {
        lux_force_portable(portable ? 1 : 0)
        defer { lux_force_portable(0) }
        // Two 70 × 30 frames of pseudo-random samples; a 40 × 17 tile at (5, 3) against (5 + 3, 3 − 2).
        var state: UInt32 = 12345
        let frames = (0..<2).map { _ in
            (0..<(70 * 30)).map { _ -> Float in
                state = state &* 1_664_525 &+ 1_013_904_223
                return Float(state >> 8) / Float(1 << 24) * 2 - 0.5
            }
        }
        let (width, rows, stride) = (40, 17, 70)
        var expected1 = [Float](repeating: 0, count: 8)
        var expected2 = [Float](repeating: 0, count: 8)
        for y in 0..<rows {
            for x in 0..<width {
                let d = frames[0][(3 + y) * stride + 5 + x] - frames[1][(1 + y) * stride + 8 + x]
                expected1[x % 8] += abs(d)
                expected2[x % 8] += d * d
            }
        }
        var l1 = [Float](repeating: .nan, count: 8)
        var l2 = [Float](repeating: .nan, count: 8)
        frames[0].withUnsafeBufferPointer { ref in
            frames[1].withUnsafeBufferPointer { alt in
                lux_tile_cost_lanes(
                    ref.baseAddress! + 3 * stride + 5, stride, alt.baseAddress! + stride + 8, stride, width, rows, &l1,
                    &l2)
            }
        }
        #expect(l1.map(\.bitPattern) == expected1.map(\.bitPattern))
        #expect(l2.map(\.bitPattern) == expected2.map(\.bitPattern))
    }
}
