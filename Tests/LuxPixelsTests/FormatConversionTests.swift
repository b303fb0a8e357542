import LuxColor
import LuxPixels
import Testing

@Suite struct FormatConversionTests {
    /// 100 % colour bars in 8-bit Y′CbCr, video range, as published in ITU-R BT.601 / BT.709 tables.
    @Test(arguments: [
        (YCbCrMatrix.bt709, SIMD3<Float>(1, 0, 0), [63, 102, 240]),
        (.bt709, SIMD3<Float>(0, 1, 0), [173, 42, 26]),
        (.bt709, SIMD3<Float>(0, 0, 1), [32, 240, 118]),
        (.bt709, SIMD3<Float>(1, 1, 1), [235, 128, 128]),
        (.bt601, SIMD3<Float>(1, 0, 0), [81, 90, 240]),
        (.bt601, SIMD3<Float>(0, 1, 0), [145, 54, 34]),
        (.bt601, SIMD3<Float>(0, 0, 1), [41, 240, 110]),
        (.bt601, SIMD3<Float>(0, 0, 0), [16, 128, 128]),
    ])
    func colourBarsInVideoRange(matrix: YCbCrMatrix, rgb: SIMD3<Float>, expected: [Int]) throws {
        var rgba = PixelBuffer(width: 4, height: 4, format: .rgbaFloat)
        for y in 0..<4 { for x in 0..<4 { rgba.setPixel(SIMD4(rgb, 1), x: x, y: y) } }
        for format in [PixelFormat.yCbCr420VideoRange, .yCbCr444VideoRange] {
            let yuv = rgba.converted(to: format, matrix: matrix)
            let luma = yuv.withUnsafePlane(0) { Int($0.row(0, as: UInt8.self)[0]) }
            let chroma = yuv.withUnsafePlane(1) { p in
                [Int(p.row(0, as: UInt8.self)[0]), Int(p.row(0, as: UInt8.self)[1])]
            }
            #expect([luma] + chroma == expected, "\(format)")
            // And back: within one code of the original.
            let back = yuv.converted(to: .rgbaFloat, matrix: matrix).pixel(x: 1, y: 1)
            #expect(abs(back.x - rgb.x) < 0.01 && abs(back.y - rgb.y) < 0.01 && abs(back.z - rgb.z) < 0.01)
        }
    }

    @Test func fullRangeUsesAllCodes() {
        var rgba = PixelBuffer(width: 2, height: 2, format: .rgbaFloat)
        for y in 0..<2 { for x in 0..<2 { rgba.setPixel(SIMD4(1, 1, 1, 1), x: x, y: y) } }
        let yuv = rgba.converted(to: .yCbCr420FullRange)
        #expect(yuv.withUnsafePlane(0) { $0.row(0, as: UInt8.self)[0] } == 255)
        #expect(yuv.planeSize(1) == (1, 1))
    }

    @Test func chromaOf420IsTheAverageOfEachBlock() {
        // Left 2×2 block: red and blue columns; its chroma is the chroma of their mean (0.5, 0, 0.5).
        var rgba = PixelBuffer(width: 2, height: 2, format: .rgbaFloat)
        for y in 0..<2 {
            rgba.setPixel(SIMD4(1, 0, 0, 1), x: 0, y: y)
            rgba.setPixel(SIMD4(0, 0, 1, 1), x: 1, y: y)
        }
        let yuv = rgba.converted(to: .yCbCr420FullRange, matrix: .bt709)
        let (kr, kb): (Float, Float) = (0.2126, 0.0722)
        let yy = 0.5 * kr + 0.5 * kb
        let cb = (0.5 - yy) / (2 * (1 - kb)) * 255 + 128
        let cr = (0.5 - yy) / (2 * (1 - kr)) * 255 + 128
        let c = yuv.withUnsafePlane(1) { [Int($0.row(0, as: UInt8.self)[0]), Int($0.row(0, as: UInt8.self)[1])] }
        #expect(c == [Int(cb.rounded()), Int(cr.rounded())])
    }

    @Test func packedWideGamutCoversItsDocumentedRange() {
        // Seed 002: 30RGBLEPackedWideGamut spans −0.37 … 1.62, gamma-encoded.
        let range = PixelFormat.rgb10WideGamutPacked.valueRange
        #expect(abs(range.lowerBound - -0.37) < 0.01 && abs(range.upperBound - 1.62) < 0.01)
        var f = PixelBuffer(width: 3, height: 1, format: .rgbaFloat)
        f.setPixel(SIMD4(0, 1, -0.3, 1), x: 0, y: 0)
        f.setPixel(SIMD4(1.5, 0.25, 5, 1), x: 1, y: 0)
        let packed = f.converted(to: .rgb10WideGamutPacked)
        let words = packed.components(as: UInt32.self)
        #expect(words[0] == (192 << 20 | 704 << 10 | UInt32(192 - 154)))  // −0.3·512 = −153.6 → −154
        let back = packed.converted(to: .rgbaFloat)
        #expect(back.pixel(x: 0, y: 0) == SIMD4(0, 1, -154.0 / 512, 1))
        #expect(back.pixel(x: 1, y: 0).z == 831.0 / 512)  // clipped at the top code
    }

    @Test func rgbaToBayerSamplesTheCFAChannel() throws {
        var rgba = PixelBuffer(width: 4, height: 2, format: .rgbaFloat)
        for y in 0..<2 { for x in 0..<4 { rgba.setPixel(SIMD4(0.25, 0.5, 0.75, 1), x: x, y: y) } }
        let bayer = rgba.converted(to: .bayer14(.grbg))
        let codes = bayer.components(as: UInt16.self)
        let g = UInt16((0.5 * 16383).rounded())
        let r = UInt16((0.25 * 16383).rounded())
        let b = UInt16((0.75 * 16383).rounded())
        #expect(codes == [g, r, g, r, b, g, b, g])
        // A view that starts one pixel right sees RGGB.
        let view = try bayer.view(x: 1, y: 0, width: 2, height: 2)
        #expect(view.format == .bayer14(.rggb))
    }

    @Test(arguments: PixelFormat.allCases.filter { !$0.isYCbCr && !$0.isBayer && $0 != .rgb10WideGamutPacked })
    func roundTripThroughFloatIsExactToTheCode(format: PixelFormat) {
        var src = PixelBuffer(width: 7, height: 3, format: .rgbaFloat)
        for y in 0..<3 {
            for x in 0..<7 {
                let v = Float(x * 3 + y) / 20
                src.setPixel(format.channelCount == 1 ? SIMD4(v, v, v, 1) : SIMD4(v, 1 - v, v / 2, 0.5), x: x, y: y)
            }
        }
        let back = src.converted(to: format).converted(to: .rgbaFloat)
        let step: Float =
            switch format.componentType {
            case .uint8: 0.5 / 255
            case .uint16: 0.5 / 65535
            case .float16: 1e-3
            default: 1e-6
            }
        for y in 0..<3 {
            for x in 0..<7 {
                let e = back.pixel(x: x, y: y) - src.pixel(x: x, y: y)
                let d = pointwiseMax(e, -e)
                let err = format.hasAlpha ? d.max() : max(d.x, d.y, d.z)
                #expect(err <= step + 1e-7, "\(format) at \(x),\(y)")
            }
        }
    }
}
