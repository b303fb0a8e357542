import LuxColor
import Testing

@Suite struct PlanarConversionTests {
    @Test(
        "planar conversion equals the exact Double conversion",
        arguments: [
            (ColorSpace.sRGB, ColorSpace.displayP3), (.extendedLinearSRGB, .sRGB), (.sRGB, .extendedLinearSRGB),
            (.adobeRGB, .extendedLinearSRGB),
        ])
    func planarMatchesReference(from: ColorSpace, to: ColorSpace) throws {
        let c = try ColorConverter(from: from, to: to)
        let n = 1000
        var r = (0..<n).map { Float($0 % 97) / 96 }
        var g = (0..<n).map { Float($0 % 31) / 30 }
        var b = (0..<n).map { Float($0 % 13) / 12 }
        let (r0, g0, b0) = (r, g, b)
        r.withUnsafeMutableBufferPointer { rp in
            g.withUnsafeMutableBufferPointer { gp in
                b.withUnsafeMutableBufferPointer { bp in
                    c.convertInPlace(red: rp.baseAddress!, green: gp.baseAddress!, blue: bp.baseAddress!, count: n)
                }
            }
        }
        for i in 0..<n {
            // Independent oracle: the Double path with reference transfer functions.
            let exact = c.convert(SIMD3<Double>(Double(r0[i]), Double(g0[i]), Double(b0[i])))
            #expect(
                abs(Double(r[i]) - exact.x) < 2e-4 && abs(Double(g[i]) - exact.y) < 2e-4
                    && abs(Double(b[i]) - exact.z) < 2e-4, "pixel \(i)")
        }
    }
}
