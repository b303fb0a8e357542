import LuxColor
import LuxPixels
import LuxRender
import Testing

@Suite struct ColorManagementTests {
    @Test("an sRGB image rendered to Display P3 equals LuxColor's converter")
    func srgbToDisplayP3() throws {
        let src = TestImages.random(width: 97, height: 61, format: .rgba8, colorSpace: .sRGB, seed: 3)
        let context = RenderContext()
        let image = Image(buffer: src)
        let floatOut = try context.createBuffer(image, format: .rgbaFloat, colorSpace: .displayP3)
        let bytesOut = try context.createBuffer(image, format: .rgba8, colorSpace: .displayP3)
        #expect(floatOut.colorSpace == .displayP3)
        let converter = try ColorConverter(from: .sRGB, to: .displayP3)
        let s = src.components(as: UInt8.self)
        let f = floatOut.components(as: Float.self)
        let b = bytesOut.components(as: UInt8.self)
        var worstFloat = 0.0
        var worstCode = 0
        for i in 0..<(97 * 61) {
            let exact = converter.convert(
                SIMD3<Double>(Double(s[4 * i]), Double(s[4 * i + 1]), Double(s[4 * i + 2])) / 255)
            for c in 0..<3 {
                worstFloat = max(worstFloat, abs(Double(f[4 * i + c]) - exact[c]))
                worstCode = max(worstCode, abs(Int(b[4 * i + c]) - Int((exact[c] * 255).rounded())))
            }
            #expect(b[4 * i + 3] == 255)
        }
        #expect(worstFloat < 2e-4, "float error \(worstFloat)")
        #expect(worstCode <= 1, "8-bit error \(worstCode) codes")
        // The 8-bit row converter (tables) agrees too.
        var converted = [UInt8](repeating: 0, count: s.count)
        converter.convert(rgba8: s, into: &converted, count: 97 * 61)
        #expect(zip(converted, b).allSatisfy { abs(Int($0) - Int($1)) <= 1 })
    }

    @Test("sRGB in and sRGB out is an exact round trip (the colour matches cancel)")
    func roundTripCancels() throws {
        let src = TestImages.random(
            width: 64, height: 33, format: .rgba8, colorSpace: .sRGB, seed: 4, randomAlpha: true)
        let context = RenderContext()
        let out = try context.createBuffer(Image(buffer: src), format: .rgba8, colorSpace: .sRGB)
        #expect(out.components(as: UInt8.self) == src.components(as: UInt8.self))
        let text = try context.describe(Image(buffer: src), format: .rgba8, colorSpace: .sRGB, detail: .programs)
        #expect(text.contains("program RGBA8 load_RGBA8_64x33 "), "\(text)")
    }

    @Test(
        "extended-range values survive half and float working formats and clip only in RGBA8",
        arguments: [PixelFormat.rgbaHalf, .rgbaFloat, .rgba8])
    func extendedRange(workingFormat: PixelFormat) throws {
        let values: [Float] = [3.0, -0.5, 0.25, 1, 1.5, 2, -0.125, 1]
        let src = PixelBuffer(
            width: 2, height: 1, format: .rgbaFloat, components: values, colorSpace: .extendedLinearSRGB)
        // Exposure up, an intermediate stored in the working format, exposure back down.
        let image = Image(buffer: src).applying(TestKernels.exposure(1)).insertingIntermediate(cache: false)
            .applying(TestKernels.exposure(-1))
        let context = RenderContext(options: RenderOptions(workingFormat: workingFormat))
        let out = try context.createBuffer(image, format: .rgbaFloat, colorSpace: .extendedLinearSRGB).components(
            as: Float.self)
        if workingFormat == .rgba8 {
            // Stored as 8-bit: every value clipped to 0…1 (after doubling) and quantised.
            let expected: [Float] = [0.5, 0, 0.25, 1, 0.5, 0.5, 0, 1]
            for (o, e) in zip(out, expected) { #expect(abs(o - e) <= 0.5 / 255 + 1e-6, "\(out)") }
        } else {
            #expect(out == values)
        }
        // An RGBA8 destination clips, whatever the working format.
        let bytes = try context.createBuffer(image, format: .rgba8, colorSpace: .extendedLinearSRGB).components(
            as: UInt8.self)
        #expect(bytes[0] == (workingFormat == .rgba8 ? 128 : 255) && bytes[1] == 0)
    }

    @Test("a Display P3 colour outside sRGB keeps negative components in the extended working space")
    func wideGamutThroughWorkingSpace() throws {
        let p3Red = Color(red: 1, green: 0, blue: 0, colorSpace: .displayP3)
        let image = Image(color: p3Red).cropped(to: Rect(x: 0, y: 0, width: 4, height: 4))
        let context = RenderContext()
        let linear = try context.createBuffer(image, format: .rgbaFloat, colorSpace: .extendedLinearSRGB).components(
            as: Float.self)
        #expect(linear[1] < 0 && linear[2] < 0, "P3 red has negative green/blue in linear sRGB: \(linear.prefix(4))")
        let back = try context.createBuffer(image, format: .rgbaFloat, colorSpace: .displayP3).components(
            as: Float.self)
        #expect(abs(back[0] - 1) < 2e-3 && abs(back[1]) < 2e-3 && abs(back[2]) < 2e-3, "\(back.prefix(4))")
    }
}
