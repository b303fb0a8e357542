import CLuxKernels
import LuxTestSupport
import Testing

/// The row kernels of the scene renderer's hot loops against their definitions (Swift's own `Float16`
/// conversions, IEEE fused multiply-add, plain products and sums), on both code paths.
@Suite(.serialized) struct SceneRowKernelTests {
    /// Pseudo-random floats in `lo..<hi`.
    static func values(_ count: Int, seed: UInt32, in range: Range<Float> = -2..<6) -> [Float] {
        var random = SplitMix(seed: UInt64(seed))
        return (0..<count).map { _ in range.lowerBound + random.unit() * (range.upperBound - range.lowerBound) }
    }

    @Test("alternate widening takes even columns from one row and odd ones from the other", arguments: [1, 16, 37, 64])
    func alternateWidening(count: Int) {
        let even = Self.values(count, seed: 3).map { Float16($0).bitPattern }
        let odd = Self.values(count, seed: 4).map { Float16($0).bitPattern }
        let (fast, portable) = KernelPaths.both { () -> [Float] in
            var out = [Float](repeating: .nan, count: count)
            lux_half_alternate_to_float(even, odd, &out, count)
            return out
        }
        let expected = (0..<count).map { Float(Float16(bitPattern: $0 & 1 == 0 ? even[$0] : odd[$0])) }
        #expect(fast.map(\.bitPattern) == expected.map(\.bitPattern))
        #expect(portable.map(\.bitPattern) == expected.map(\.bitPattern))
    }

    @Test(
        "scaled narrowing rounds the product to Float, then to the nearest half, streaming or not",
        arguments: [0, 1, 3])
    func scaledNarrowing(offset: Int) {
        let count = 45  // a misaligned head (with an offset), 16- and 8-value blocks and a tail
        let src = Self.values(count, seed: 5, in: -70_000..<70_000) + [0.000_01, -0.0, 65_519, 65_520]
        let scale: Float = 0.731
        let expected = src.map { Float16($0 * scale).bitPattern }
        for streaming in [Int32(0), 1] {
            let (fast, portable) = KernelPaths.both { () -> [UInt16] in
                var out = [UInt16](repeating: 0x7E00, count: src.count + offset)
                out.withUnsafeMutableBufferPointer { o in
                    lux_float_to_half_scaled(src, scale, o.baseAddress! + offset, src.count, streaming)
                }
                return Array(out[offset...])
            }
            #expect(fast == expected, "streaming \(streaming)")
            #expect(portable == expected, "streaming \(streaming)")
        }
    }

    @Test("indexed interpolation is a + t·d at each index, for upsampling runs and for scattered indices")
    func indexedInterpolation() {
        let length = 40
        let a = Self.values(length, seed: 6)
        let d = Self.values(length, seed: 7)
        // Runs of one card pixel per three columns (the permute path), then indices far apart (the gather path),
        // then a tail; the last indices reach the end of the rows.
        let index: [Int32] = (0..<48).map { Int32($0 / 3) } + [0, 39, 5, 20, 7, 33, 1, 38] + [36, 37, 38, 39, 39]
        let t = Self.values(index.count, seed: 8, in: 0..<1)
        let (fast, portable) = KernelPaths.both { () -> [Float] in
            var out = [Float](repeating: .nan, count: index.count)
            lux_lerp_indexed(a, d, length, index, t, &out, index.count)
            return out
        }
        let expected = index.indices.map { i -> Float in
            let k = Int(index[i])
            let product = t[i] * d[k]
            return a[k] + product
        }
        #expect(fast.map(\.bitPattern) == expected.map(\.bitPattern))
        #expect(portable.map(\.bitPattern) == expected.map(\.bitPattern))
    }

    @Test("tap accumulation chains fused multiply-adds over even, odd, even + 2, odd + 2", arguments: [1, 2, 4])
    func tapAccumulation(taps: Int) {
        let count = 29  // three 8-float blocks and a tail of 5
        let even = Self.values(count + 2, seed: 9)
        let odd = Self.values(count + 2, seed: 10)
        let start = Self.values(count, seed: 11)
        let w: [Float] = [0.37, -0.11, 0.052, 0.9]
        let (fast, portable) = KernelPaths.both { () -> [Float] in
            var acc = start
            odd.withUnsafeBufferPointer { o in
                lux_accumulate_taps(
                    &acc, even, taps >= 2 ? o.baseAddress : nil, w[0], w[1], w[2], w[3], Int32(taps), count)
            }
            return acc
        }
        let expected = (0..<count).map { i -> Float in
            var t = start[i].addingProduct(w[0], even[i])
            if taps >= 2 { t = t.addingProduct(w[1], odd[i]) }
            if taps >= 4 { t = t.addingProduct(w[2], even[i + 2]).addingProduct(w[3], odd[i + 2]) }
            return t
        }
        #expect(fast.map(\.bitPattern) == expected.map(\.bitPattern))
        #expect(portable.map(\.bitPattern) == expected.map(\.bitPattern))
    }
}
