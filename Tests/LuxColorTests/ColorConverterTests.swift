import LuxColor
import Testing

@Suite struct ColorConverterTests {
    @Test func srgbRedToDisplayP3MatchesPublishedValue() throws {
        // FORMATS.md §4.3: lcms, relative colorimetric: sRGB (255,0,0) → Display P3 (234,51,35).
        let c = try ColorConverter(from: .sRGB, to: .displayP3)
        let p3 = c.convert(SIMD3<Double>(1, 0, 0)) * 255
        #expect(abs(p3.x - 234) < 0.6 && abs(p3.y - 51) < 0.6 && abs(p3.z - 35) < 0.6, "\(p3)")
        var src: [UInt8] = [255, 0, 0, 255]
        var dst: [UInt8] = [0, 0, 0, 0]
        c.convert(rgba8: &src, into: &dst, count: 1)
        #expect(dst == [234, 51, 35, 255])
    }
}
