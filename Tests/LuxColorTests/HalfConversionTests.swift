import LuxColor
import Testing

/// The half-float row path against the exact conversion in `Double` (an independent reference: the
/// reference transfer functions, no tables), measured in half-float ULPs of the exact result.
@Suite struct HalfConversionTests {
    /// One unit in the last place of `v` as a half float (the subnormal spacing near zero).
    static func halfULP(_ v: Double) -> Double {
        let a = abs(v)
        guard a >= 6.103515625e-05 else { return 5.960464477539063e-08 }  // 2⁻²⁴ below 2⁻¹⁴
        var e = -14
        while Double(sign: .plus, exponent: e + 1, significand: 1) <= a { e += 1 }
        return Double(sign: .plus, exponent: e - 10, significand: 1)
    }

    @Test(arguments: [
        (ColorSpace.sRGB, ColorSpace.displayP3), (.displayP3, .sRGB), (.extendedSRGB, .displayP3),
        (.sRGB, .extendedLinearSRGB), (.extendedLinearSRGB, .sRGB), (.extendedLinearSRGB, .extendedSRGB),
        (.adobeRGB, .itur2020), (.rommRGB, .extendedLinearDisplayP3), (.genericGrayGamma2_2, .sRGB),
        (.sRGB, .labD50),
    ])
    func halfRowsAreWithinOneAndAHalfULPsOfExact(_ from: ColorSpace, _ to: ColorSpace) throws {
        let converter = try ColorConverter(from: from, to: to)
        // Every 5th finite half in −2…2, with the other channels taken from shifted positions.
        var values = [Float16]()
        var bits: UInt16 = 0
        while bits < 0xFFFF {
            let v = Float16(bitPattern: bits)
            if v.isFinite && abs(v) <= 2 { values.append(v) }
            bits &+= 5
        }
        let n = values.count
        var pixels = [Float16](repeating: 0, count: 4 * n)
        for i in 0..<n {
            pixels[4 * i] = values[i]
            pixels[4 * i + 1] = values[(i * 7 + 13) % n]
            pixels[4 * i + 2] = values[(i * 31 + 101) % n]
            pixels[4 * i + 3] = Float16(0.5)
        }
        var out = [Float16](repeating: 0, count: 4 * n)
        converter.convert(rgbaHalf: pixels, into: &out, count: n)
        var worst = 0.0
        for i in 0..<n {
            let input = SIMD3(Double(pixels[4 * i]), Double(pixels[4 * i + 1]), Double(pixels[4 * i + 2]))
            let exact = converter.convert(input)
            for c in 0..<3 {
                let ours = Double(out[4 * i + c])
                // Lab has an absolute scale (L 0…100): allow its float arithmetic 1e-4 on top.
                let slack = to.model == .lab ? 1e-4 : 1e-7
                let ulps = (abs(ours - exact[c]) - slack) / Self.halfULP(exact[c])
                worst = max(worst, ulps)
            }
            #expect(out[4 * i + 3] == 0.5)
        }
        #expect(worst <= (to.isExtendedRange ? 0.6 : 1.5), "\(from) → \(to): worst \(worst) half ULPs")
        print("\(from) → \(to): worst \(worst) half ULPs")
    }

    @Test func inPlaceAndIdentityAndNaN() throws {
        let converter = try ColorConverter(from: .sRGB, to: .displayP3)
        var row: [Float16] = [1, 0, 0, 1, .nan, 0.5, 2, 0.25]
        let copy = row
        var out = [Float16](repeating: 0, count: 8)
        converter.convert(rgbaHalf: copy, into: &out, count: 2)
        row.withUnsafeMutableBufferPointer {
            converter.convert(rgbaHalf: $0.baseAddress!, into: $0.baseAddress!, count: 2)
        }
        #expect(row.map(\.bitPattern) == out.map(\.bitPattern))
        #expect(abs(Double(out[0]) - 0.9175) < 0.001 && abs(Double(out[1]) - 0.2003) < 0.001)
        #expect(out[3] == 1 && out[7] == 0.25)
        #expect(out[4...6].allSatisfy { $0.isFinite })  // NaN is clamped away in a non-extended source
        let identity = try ColorConverter(from: .extendedLinearSRGB, to: .extendedLinearSRGB)
        var same = [Float16](repeating: 0, count: 8)
        identity.convert(rgbaHalf: copy, into: &same, count: 2)
        #expect(same.map(\.bitPattern) == copy.map(\.bitPattern))
    }
}
