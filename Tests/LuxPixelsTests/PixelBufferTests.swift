import LuxColor
import LuxPixels
import Testing

@Suite struct PixelBufferTests {
    @Test(arguments: PixelFormat.allCases)
    func rowsAreAlignedTo64Bytes(format: PixelFormat) {
        let b = PixelBuffer(width: 33, height: 5, format: format)
        for p in 0..<b.planeCount {
            #expect(b.bytesPerRow(plane: p) % 64 == 0)
            #expect(b.bytesPerRow(plane: p) >= b.planeSize(p).width * format.bytesPerPixel(plane: p))
            b.withUnsafePlane(p) { #expect(Int(bitPattern: $0.baseAddress) % 64 == 0) }
        }
    }

    @Test func planesOf420AreHalfSizeRoundedUp() {
        let b = PixelBuffer(width: 33, height: 5, format: .yCbCr420VideoRange)
        #expect(b.planeCount == 2)
        #expect(b.planeSize(0) == (33, 5))
        #expect(b.planeSize(1) == (17, 3))
    }

    @Test func copiesAreIndependent() {
        var a = PixelBuffer(width: 4, height: 4, format: .rgba8)
        let b = a
        a.setPixel(SIMD4(1, 1, 1, 1), x: 0, y: 0)
        #expect(a.pixel(x: 0, y: 0) == SIMD4(1, 1, 1, 1))
        #expect(b.pixel(x: 0, y: 0) == SIMD4(0, 0, 0, 0))
        #expect(!a.sharesStorage(with: b))
    }

    @Test func viewsShareMemoryUntilWritten() throws {
        var base = PixelBuffer(width: 8, height: 8, format: .rgbaFloat)
        base.setPixel(SIMD4(0.5, 0.25, 0.125, 1), x: 5, y: 6)
        var view = try base.view(x: 4, y: 4, width: 4, height: 4)
        #expect(view.sharesStorage(with: base))
        #expect(view.pixel(x: 1, y: 2) == SIMD4(0.5, 0.25, 0.125, 1))
        view.setPixel(SIMD4(1, 1, 1, 1), x: 0, y: 0)
        #expect(!view.sharesStorage(with: base))
        #expect(base.pixel(x: 4, y: 4) == SIMD4(0, 0, 0, 0))
        #expect(view.pixel(x: 1, y: 2) == SIMD4(0.5, 0.25, 0.125, 1))
    }

    @Test func viewsOutsideTheBufferThrow() {
        let b = PixelBuffer(width: 8, height: 8, format: .rgba8)
        #expect(throws: PixelError.self) { try b.view(x: 6, y: 0, width: 4, height: 2) }
        let yuv = PixelBuffer(width: 8, height: 8, format: .yCbCr420VideoRange)
        #expect(throws: PixelError.self) { try yuv.view(x: 1, y: 0, width: 2, height: 2) }
    }

    @Test func componentsRoundTrip() {
        let values: [UInt16] = (0..<(3 * 2)).map { UInt16($0 * 1000) }
        let b = PixelBuffer(width: 3, height: 2, format: .gray16, components: values)
        #expect(b.components(as: UInt16.self) == values)
        #expect(b.pixel(x: 2, y: 1).x == Float(5000) / 65535)
    }

    @Test func colourMatchingIsIndependentOfThreadCount() throws {
        var b = PixelBuffer(width: 301, height: 97, format: .rgbaHalf, colorSpace: .sRGB)
        for y in 0..<97 {
            for x in 0..<301 {
                b.setPixel(SIMD4(Float(x) / 300, Float(y) / 96, Float((x * y) % 17) / 16, 1), x: x, y: y)
            }
        }
        let one = try b.matchingColors(to: .displayP3, threads: 1)
        let two = try b.matchingColors(to: .displayP3, threads: 2)
        #expect(one.components(as: UInt16.self) == two.components(as: UInt16.self))
        #expect(one.colorSpace == .displayP3)
        // Red in sRGB is inside P3: (234, 51, 35)/255 per lcms (FORMATS.md §4.3).
        let red = one.pixel(x: 300, y: 0)
        #expect(abs(red.x * 255 - 234) < 0.7 && abs(red.y * 255 - 51) < 0.7 && abs(red.z * 255 - 35) < 0.7)
    }

    @Test func matchingWithoutAColourSpaceThrows() {
        let b = PixelBuffer(width: 2, height: 2, format: .rgba8)
        #expect(throws: PixelError.self) { try b.matchingColors(to: .displayP3) }
    }
}
