import CLuxKernels
import LuxTestSupport
import Testing

/// Block matching's C kernel against the same sums computed lane by lane in Swift, on both of its paths.
@Suite(.serialized) struct TileCostKernelTests {
    /// Two 70 × 30 frames of pseudo-random samples.
    static let frames: [[Float]] = {
        var random = SplitMix(seed: 12345)
        return (0..<2).map { _ in (0..<(70 * 30)).map { _ in random.unit() * 2 - 0.5 } }
    }()
    static let stride = 70

    /// The lanes of a `width × rows` tile at `(x0, y0)` against the other frame at `(ax, ay)`, summed in Swift: lane
    /// i holds columns i, i + 8, … row by row.
    static func lanes(x0: Int, y0: Int, ax: Int, ay: Int, width: Int, rows: Int) -> (l1: [Float], l2: [Float]) {
        var l1 = [Float](repeating: 0, count: 8)
        var l2 = [Float](repeating: 0, count: 8)
        for y in 0..<rows {
            for x in 0..<width {
                let d = frames[0][(y0 + y) * stride + x0 + x] - frames[1][(ay + y) * stride + ax + x]
                l1[x % 8] += abs(d)
                l2[x % 8] += d * d
            }
        }
        return (l1, l2)
    }

    @Test(arguments: [false, true])
    func laneSumsMatchSwift(portable: Bool) {
        KernelPaths.run(portable: portable) {
            // A 40 × 17 tile at (5, 3) against (5 + 3, 3 − 2).
            let (width, rows, stride) = (40, 17, Self.stride)
            let expected = Self.lanes(x0: 5, y0: 3, ax: 8, ay: 1, width: width, rows: rows)
            var l1 = [Float](repeating: .nan, count: 8)
            var l2 = [Float](repeating: .nan, count: 8)
            Self.frames[0].withUnsafeBufferPointer { ref in
                Self.frames[1].withUnsafeBufferPointer { alt in
                    lux_tile_cost_lanes(
                        ref.baseAddress! + 3 * stride + 5, stride, alt.baseAddress! + stride + 8, stride, width, rows,
                        &l1,
                        &l2)
                }
            }
            #expect(l1.map(\.bitPattern) == expected.l1.map(\.bitPattern))
            #expect(l2.map(\.bitPattern) == expected.l2.map(\.bitPattern))
        }
    }

    @Test("the 3×3 grid kernel gives each offset's lanes", arguments: [false, true])
    func gridMatchesSwift(portable: Bool) {
        KernelPaths.run(portable: portable) {
            // A 24 × 21 tile at (9, 4) against the offsets around (9 − 2, 4 + 3).
            let (width, rows, stride) = (24, 21, Self.stride)
            var l1 = [Float](repeating: .nan, count: 72)
            var l2 = [Float](repeating: .nan, count: 72)
            Self.frames[0].withUnsafeBufferPointer { ref in
                Self.frames[1].withUnsafeBufferPointer { alt in
                    lux_tile_cost_grid(
                        ref.baseAddress! + 4 * stride + 9, stride, alt.baseAddress! + 7 * stride + 7, stride, width,
                        rows,
                        &l1, &l2)
                }
            }
            for dy in -1...1 {
                for dx in -1...1 {
                    let k = 3 * (dy + 1) + dx + 1
                    let expected = Self.lanes(x0: 9, y0: 4, ax: 7 + dx, ay: 7 + dy, width: width, rows: rows)
                    #expect(
                        l1[(8 * k)..<(8 * k + 8)].map(\.bitPattern) == expected.l1.map(\.bitPattern),
                        "offset \(dx), \(dy)")
                    #expect(
                        l2[(8 * k)..<(8 * k + 8)].map(\.bitPattern) == expected.l2.map(\.bitPattern),
                        "offset \(dx), \(dy)")
                }
            }
        }
    }
}
