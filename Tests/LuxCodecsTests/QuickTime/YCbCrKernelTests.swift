import CLuxKernels
import CLuxMediaShims
import LuxTestSupport
import Testing

/// LuxCodecs' 8-bit Y′CbCr 4:2:0 ↔ RGBA row kernels (`lux_yuv420_rows_to_rgba8`, `lux_rgba8_to_yuv420`) on their two
/// code paths: the AVX2 loops give the portable loops' codes, byte for byte, at every width (vector blocks and the
/// scalar tails), for both chroma sitings and for odd sizes.
@Suite(.serialized) struct YCbCrKernelTests {
    static func noise(_ count: Int, seed: UInt32) -> [UInt8] {
        var random = SplitMix(seed: UInt64(seed))
        return (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next() >> 56) }
    }

    static let sizes = [(1, 1), (7, 3), (16, 2), (33, 17), (40, 9), (64, 48)]

    @Test("Y′CbCr → RGBA: both paths give the same codes", arguments: sizes)
    func toRGBA(size: (Int, Int)) {
        let (w, h) = size
        let (cw, ch) = ((w + 1) / 2, (h + 1) / 2)
        let (ls, cs, ds) = (w + 5, cw + 3, 4 * w + 8)
        let luma = Self.noise(ls * h, seed: 1)
        let cb = Self.noise(cs * ch, seed: 2)
        let cr = Self.noise(cs * ch, seed: 3)
        // BT.709 video range and BT.601 full range ({ys, yo, rv, gu, gv, bu}).
        let matrices: [[Float]] = [
            [255 / 219, 16, 1.5748 * 255 / 224, 0.1873 * 255 / 224, 0.4681 * 255 / 224, 1.8556 * 255 / 224],
            [1, 0, 1.402, 0.3441, 0.7141, 1.772],
        ]
        for matrix in matrices {
            for centred in [Int32(0), 1] {
                let (fast, portable) = KernelPaths.both { () -> [UInt8] in
                    var out = [UInt8](repeating: 0, count: ds * h)
                    let status = lux_yuv420_rows_to_rgba8(
                        luma, ls, cb, cs, cr, cs, w, h, matrix, centred, &out, ds, 0, h)
                    #expect(status == 0)
                    var codes: [UInt8] = []
                    for row in 0..<h { codes += out[(row * ds)..<(row * ds + 4 * w)] }
                    return codes
                }
                #expect(portable == fast, "\(w)×\(h), centred \(centred), matrix \(matrix[0])")
            }
        }
    }

    @Test("RGBA → Y′CbCr 4:2:0: both paths give the same codes", arguments: sizes)
    func toYCbCr(size: (Int, Int)) {
        let (w, h) = size
        let (cw, ch) = ((w + 1) / 2, (h + 1) / 2)
        let (ss, ls, cs) = (4 * w + 12, w + 3, cw + 5)
        let pixels = Self.noise(ss * h, seed: 4)
        let matrix: [Float] = [
            0.1826, 0.6142, 0.062, 16, -0.0252, -0.0847, 0.1098, 128, 0.1098, -0.0998, -0.0101, 128,
        ]
        let (fast, portable) = KernelPaths.both { () -> [UInt8] in
            var y = [UInt8](repeating: 0, count: ls * h)
            var u = [UInt8](repeating: 0, count: cs * ch)
            var v = [UInt8](repeating: 0, count: cs * ch)
            lux_rgba8_to_yuv420(pixels, ss, w, h, matrix, &y, ls, &u, cs, &v, cs, 0, ch)
            var codes: [UInt8] = []
            for row in 0..<h { codes += y[(row * ls)..<(row * ls + w)] }
            for row in 0..<ch { codes += u[(row * cs)..<(row * cs + cw)] + v[(row * cs)..<(row * cs + cw)] }
            return codes
        }
        #expect(portable == fast, "\(w)×\(h)")
    }
}
