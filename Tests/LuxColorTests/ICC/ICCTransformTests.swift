import LuxColor
import Testing

/// ``ICCTransform`` (Little CMS) against hand-computed values and its own checks of layouts and profile classes.
@Suite("ICC transform")
struct ICCTransformTests {
    @Test("Display P3 pure green through Little CMS to sRGB lands where the matrices say (clipped red)")
    func displayP3ToSRGB() throws {
        let transform = try ICCTransform(
            from: try ColorSpace.displayP3.iccProfile(), layout: .rgba8, to: try ColorSpace.sRGB.iccProfile(),
            layout: .rgba8)
        // P3 (0, 1, 0) is sRGB linear (−0.2249, 1.0421, −0.0786) by the two spaces' published matrices: out of
        // gamut, clipped to (0, 255, 0); P3 white stays white and alpha is copied.
        let source: [UInt8] = [0, 255, 0, 200, 255, 255, 255, 7]
        var output = [UInt8](repeating: 0, count: 8)
        transform.convert(source, to: &output, width: 2, rows: 1, sourceStride: 8, destinationStride: 8)
        #expect(output[0] == 0 && output[1] == 255 && output[2] <= 1 && output[3] == 200)
        #expect(output[4...6].allSatisfy { $0 >= 254 } && output[7] == 7)
    }

    @Test("a layout of another colour model than the profile's is refused before Little CMS sees it")
    func layoutMismatch() throws {
        #expect(throws: ColorError.self) {
            try ICCTransform(
                from: try ColorSpace.sRGB.iccProfile(), layout: .cmyk8(inverted: false),
                to: try ColorSpace.sRGB.iccProfile(), layout: .rgba8)
        }
        #expect(throws: ColorError.self) {
            try ICCTransform(
                from: try ColorSpace.genericGrayGamma2_2.iccProfile(), layout: .rgba8,
                to: try ColorSpace.sRGB.iccProfile(), layout: .rgba8)
        }
    }
}
