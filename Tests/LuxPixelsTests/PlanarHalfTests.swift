import CLuxKernels
import LuxPixels
import LuxTestSupport
import Testing

/// The planar half-float row converters (used by the render engine) against Swift's `Float16`.
@Suite(.serialized) struct PlanarHalfTests {
    @Test(arguments: [false, true])
    func halfPixelsToPlanes(portable: Bool) {
        KernelPaths.run(portable: portable) {
            // Every half bit pattern appears once, spread over the four channels; 16387 pixels tests the tail.
            let n = 16387
            let src: [UInt16] = (0..<(4 * n)).map { UInt16(truncatingIfNeeded: $0 &* 40503) }
            var r = [Float](repeating: 0, count: n)
            var g = r
            var b = r
            var a = r
            lux_half4_to_planar(src, &r, &g, &b, &a, n)
            let planes = [r, g, b, a]
            var mismatches = 0
            for i in 0..<n {
                for c in 0..<4 {
                    let e = Float(Float16(bitPattern: src[4 * i + c]))
                    let v = planes[c][i]
                    if e.isNaN ? !v.isNaN : e.bitPattern != v.bitPattern { mismatches += 1 }
                }
            }
            #expect(mismatches == 0)
        }
    }

    @Test(arguments: [false, true])
    func planesToHalfPixels(portable: Bool) {
        KernelPaths.run(portable: portable) {
            let n = 10005
            var random = SplitMix(seed: 12345)
            func next() -> Float {
                let bits = random.next()
                // Values across the half range, including exact ties between neighbouring halves.
                let h = Float(Float16(bitPattern: UInt16(truncatingIfNeeded: bits >> 8) & 0x7BFF))
                return (bits & 1) == 0 ? h : h * (1 + 1 / 2048)
            }
            let planes = (0..<4).map { _ in (0..<n).map { _ in next() } }
            var dst = [UInt16](repeating: 0, count: 4 * n)
            dst.withUnsafeMutableBufferPointer { d in
                lux_planar_to_half4(planes[0], planes[1], planes[2], planes[3], d.baseAddress!, n)
            }
            var mismatches = 0
            for i in 0..<n {
                for c in 0..<4 where Float16(planes[c][i]).bitPattern != dst[4 * i + c] { mismatches += 1 }
            }
            #expect(mismatches == 0)
        }
    }
}
