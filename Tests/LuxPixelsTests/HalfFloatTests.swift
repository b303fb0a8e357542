import CLuxKernels
import LuxPixels
import LuxTestSupport
import Testing

/// The C row converters against Swift's own `Float16` conversions (an independent implementation).
@Suite(.serialized) struct HalfFloatTests {
    static let allHalfBits: [UInt16] = (0...UInt16.max).map { $0 }

    @Test(arguments: [false, true])
    func halfToFloatMatchesSwiftForEveryHalf(portable: Bool) {
        KernelPaths.run(portable: portable) {
            var out = [Float](repeating: 0, count: Self.allHalfBits.count)
            Self.allHalfBits.withUnsafeBufferPointer { src in
                out.withUnsafeMutableBufferPointer { lux_half_to_float(src.baseAddress!, $0.baseAddress!, src.count) }
            }
            var mismatches = 0
            for (i, bits) in Self.allHalfBits.enumerated() {
                let expected = Float(Float16(bitPattern: bits))
                if expected.isNaN ? !out[i].isNaN : expected.bitPattern != out[i].bitPattern { mismatches += 1 }
            }
            #expect(mismatches == 0)
        }
    }

    @Test(arguments: [false, true])
    func floatToHalfRoundsLikeSwift(portable: Bool) {
        KernelPaths.run(portable: portable) {
            // Every half value, the midpoints between neighbours (ties to even), and values around the limits.
            var inputs: [Float] = []
            for bits in UInt16(0)..<0x7C00 {
                let a = Float(Float16(bitPattern: bits))
                let b = Float(Float16(bitPattern: bits + 1))
                inputs += [a, -a, (a + b) / 2, -(a + b) / 2, a.nextUp, a.nextDown]
            }
            inputs += [65504, 65519.99, 65520, 70000, .infinity, -.infinity, 1e-10, -1e-10, 0, -0.0]
            var out = [UInt16](repeating: 0, count: inputs.count)
            inputs.withUnsafeBufferPointer { src in
                out.withUnsafeMutableBufferPointer { lux_float_to_half(src.baseAddress!, $0.baseAddress!, src.count) }
            }
            let mismatches = zip(inputs, out).filter { Float16($0).bitPattern != $1 }.count
            #expect(mismatches == 0)
        }
    }

    @Test func nanStaysNaN() {
        var out: [UInt16] = [0]
        let src: [Float] = [.nan]
        lux_float_to_half(src, &out, 1)
        #expect(Float16(bitPattern: out[0]).isNaN)
    }
}
