import CLuxKernels
import LuxTestSupport
import Testing

/// The planar float and 8-bit row converters (used by the render engine and processors) against their definitions.
@Suite(.serialized) struct PlanarFloatTests {
    static let n = 1003  // many 8-pixel blocks and a tail

    @Test(arguments: [false, true])
    func pixelsToPlanes(portable: Bool) {
        KernelPaths.run(portable: portable) {
            let src: [Float] = (0..<(4 * Self.n)).map { Float($0) * 0.5 - 7 }
            var (r, g, b, a) = [[Float]](repeating: [Float](repeating: .nan, count: Self.n), count: 4).fourTuple
            lux_float4_to_planar(src, &r, &g, &b, &a, Self.n)
            var (r3, g3, b3, _) = [[Float]](repeating: [Float](repeating: .nan, count: Self.n), count: 4).fourTuple
            lux_float4_to_planar(src, &r3, &g3, &b3, nil, Self.n)
            for (c, plane) in [r, g, b, a].enumerated() {
                let expected: [Float] = (0..<Self.n).map { src[4 * $0 + c] }
                #expect(plane == expected)
            }
            #expect([r3, g3, b3] == [r, g, b])
        }
    }

    @Test(arguments: [false, true])
    func planesToPixels(portable: Bool) {
        KernelPaths.run(portable: portable) {
            let planes = (0..<4).map { c in (0..<Self.n).map { Float($0 * 4 + c) * 0.25 } }
            var out = [Float](repeating: .nan, count: 4 * Self.n)
            lux_planar_to_float4(planes[0], planes[1], planes[2], planes[3], &out, Self.n)
            let expected: [Float] = (0..<(4 * Self.n)).map { Float($0) * 0.25 }
            #expect(out == expected)
            lux_planar_to_float4(planes[0], planes[1], planes[2], nil, &out, Self.n)
            let opaque: [Float] = expected.indices.map { i in i % 4 == 3 ? Float(1) : expected[i] }
            #expect(out == opaque)
        }
    }

    @Test(arguments: [false, true])
    func codesToPlanes(portable: Bool) {
        KernelPaths.run(portable: portable) {
            let n = 259
            let src: [UInt8] = (0..<(4 * n)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
            var (r, g, b, a) = [[Float]](repeating: [Float](repeating: .nan, count: n), count: 4).fourTuple
            lux_rgba8_to_planar(src, &r, &g, &b, &a, n)
            for (c, plane) in [r, g, b, a].enumerated() {
                let expected: [Float] = (0..<n).map { Float(src[4 * $0 + c]) * (1 / 255) }
                #expect(plane == expected)
            }
        }
    }

    @Test(arguments: [false, true])
    func planesToCodes(portable: Bool) {
        KernelPaths.run(portable: portable) {
            // Every code, the ties halfway between codes, and out-of-range values, −0 and NaN.
            var values: [Float] = (0...255).flatMap { [Float($0) / 255, (Float($0) + 0.5) / 255] }
            values += [-0.0, -1, 1.5, .infinity, -.infinity, .nan, 1e-9, 0.999_999]
            while values.count % 4 != 0 || values.count < 4 * 9 { values.append(0.25) }
            let n = values.count / 4
            let planes = (0..<4).map { c in (0..<n).map { values[4 * $0 + c] } }
            var out = [UInt8](repeating: 0, count: 4 * n)
            lux_planar_to_rgba8(planes[0], planes[1], planes[2], planes[3], &out, n)
            let expected: [UInt8] = values.map { v in
                let c: Float = v > 0 ? min(v, 1) : 0
                return UInt8((c * 255).rounded(.toNearestOrEven))
            }
            #expect(out == expected)
        }
    }

    @Test(arguments: [false, true])
    func pixelsToCodes(portable: Bool) {
        KernelPaths.run(portable: portable) {
            // The values of `planesToCodes` as interleaved pixels: 8-pixel blocks and a tail of 3.
            var values: [Float] = (0...255).flatMap { [Float($0) / 255, (Float($0) + 0.5) / 255] }
            values += [-0.0, -1, 1.5, .infinity, -.infinity, .nan, 1e-9, 0.999_999]
            while values.count % 32 != 12 { values.append(0.75) }
            let n = values.count / 4
            var out = [UInt8](repeating: 7, count: 4 * n + 4)
            lux_float4_to_rgba8(values, &out, n)
            let expected: [UInt8] = values.map { v in
                let c: Float = v > 0 ? min(v, 1) : 0
                return UInt8((c * 255).rounded(.toNearestOrEven))
            }
            #expect(Array(out[..<(4 * n)]) == expected)
            #expect(out[(4 * n)...].allSatisfy { $0 == 7 }, "wrote past the end")
        }
    }

    @Test(
        "Float planes → 8-bit RGBA through a 65536-entry curve table: index rounding, clamping, NaN, alpha",
        arguments: [false, true])
    func planesToTableCodes(portable: Bool) {
        KernelPaths.run(portable: portable) {
            // A table whose entries differ from their neighbours, so an index off by one shows; every tie between
            // two indices (k + ½)/65535 near 0, ½ and 1; out-of-range values, −0 and NaN.
            let table: [UInt8] = (0..<65536).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ $0 >> 8) }
            var values: [Float] = [-0.0, -1, 1.5, .infinity, -.infinity, .nan, 1e-9, 0.999_999, 1, 0.5]
            for k in [0, 1, 2, 3, 32766, 32767, 32768, 65533, 65534] {
                values += [Float(k) / 65535, (Float(k) + 0.5) / 65535, (Float(k) + 0.499) / 65535]
            }
            values += (0..<200).map { Float($0) * 0.0051 - 0.01 }
            while values.count % 4 != 0 || (values.count / 4) % 8 != 5 { values.append(0.3) }
            let n = values.count / 4
            let planes = (0..<4).map { c in (0..<n).map { values[4 * $0 + c] } }
            var out = [UInt8](repeating: 7, count: 4 * n + 4)
            lux_planar_to_rgba8_table(planes[0], planes[1], planes[2], planes[3], table, &out, n)
            var expected: [UInt8] = []
            for i in 0..<n {
                for c in 0..<3 {
                    let v = planes[c][i]
                    let clamped: Float = v > 0 ? min(v, 1) : 0
                    expected.append(table[Int((clamped * 65535).rounded(.toNearestOrEven))])
                }
                let a = planes[3][i]
                expected.append(UInt8(((a > 0 ? min(a, 1) : 0) * 255).rounded(.toNearestOrEven)))
            }
            #expect(Array(out[..<(4 * n)]) == expected)
            #expect(out[(4 * n)...].allSatisfy { $0 == 7 }, "wrote past the end")
        }
    }

    @Test(
        "RGB ↔ RGBA 8-bit rows: alpha 255 added, alpha dropped, nothing written past the end",
        arguments: [false, true])
    func packedRGB(portable: Bool) {
        KernelPaths.run(portable: portable) {
            for n in [0, 1, 5, 6, 7, 8, 37, 1001] {
                let rgb: [UInt8] = (0..<(3 * n)).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 5) }
                var rgba = [UInt8](repeating: 9, count: 4 * n + 16)
                lux_rgb8_to_rgba8(rgb, &rgba, n)
                var expected: [UInt8] = []
                for i in 0..<n { expected += [rgb[3 * i], rgb[3 * i + 1], rgb[3 * i + 2], 255] }
                #expect(Array(rgba[..<(4 * n)]) == expected, "n \(n)")
                #expect(rgba[(4 * n)...].allSatisfy { $0 == 9 }, "n \(n): wrote past the end")
                var back = [UInt8](repeating: 9, count: 3 * n + 16)
                lux_rgba8_to_rgb8(rgba, &back, n)
                #expect(Array(back[..<(3 * n)]) == rgb, "n \(n)")
                #expect(back[(3 * n)...].allSatisfy { $0 == 9 }, "n \(n): wrote past the end")
            }
        }
    }
}

extension Array {
    /// The first four elements.
    fileprivate var fourTuple: (Element, Element, Element, Element) { (self[0], self[1], self[2], self[3]) }
}
