import LuxColor
import LuxFilters
import LuxPixels
import LuxRender
import LuxTestSupport
import Testing

/// `ImageHistogram` against counts made pixel by pixel in the test, with the published luma weights.
@Suite struct ImageHistogramTests {
    /// A random opaque sRGB 8-bit buffer.
    static func randomSRGB(width: Int, height: Int, seed: UInt64) -> PixelBuffer {
        var rng = SplitMix(seed: seed)
        var bytes = [UInt8](repeating: 255, count: width * height * 4)
        for i in 0..<(width * height) {
            for c in 0..<3 { bytes[4 * i + c] = UInt8(truncatingIfNeeded: rng.next()) }
        }
        return PixelBuffer(width: width, height: height, format: .rgba8, components: bytes, colorSpace: .sRGB)
    }

    /// 8-bit pixels are counted from their codes, 16-bit ones (the same values: code × 257) rendered in float.
    @Test(
        "RGB and luma histograms of sRGB pixels equal counts of the encoded values (Rec. 709 luma weights)",
        arguments: [PixelFormat.rgba8, .rgba16])
    func countsMatchReference(format: PixelFormat) throws {
        let (w, h, bins) = (61, 43, 32)
        let buffer = Self.randomSRGB(width: w, height: h, seed: 7)
        let histogram = try ImageHistogram(
            of: Image(buffer: buffer.converted(to: format, threads: 1)), binCount: bins)
        #expect(histogram.binCount == bins)
        let bytes = buffer.components(as: UInt8.self)
        var reference = [[Double]](repeating: [Double](repeating: 0, count: bins), count: 4)
        var ambiguous = 0.0  // luma within 0.002 of a bin edge: the weights' last digits may decide the bin
        func bin(_ v: Double) -> Int { min(Int(max(v, 0) * Double(bins)), bins - 1) }
        for i in 0..<(w * h) {
            let rgb = (0..<3).map { Double(bytes[4 * i + $0]) / 255 }
            for c in 0..<3 { reference[c][bin(rgb[c])] += 1 }
            let y = 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]
            reference[3][bin(y)] += 1
            let position = y * Double(bins)
            if abs(position - position.rounded()) < 0.002 { ambiguous += 1 }
        }
        let n = Double(w * h)
        let got = [histogram.red, histogram.green, histogram.blue, histogram.luminance]
        for c in 0..<3 {
            for k in 0..<bins { #expect(abs(got[c][k] - reference[c][k] / n) < 1e-12, "channel \(c) bin \(k)") }
        }
        let l1 = (0..<bins).reduce(0.0) { $0 + abs(got[3][$1] - reference[3][$1] / n) }
        #expect(l1 <= 2 * ambiguous / n + 1e-9, "luma L1 difference \(l1), ambiguous \(ambiguous)")
        for channel in got { #expect(abs(channel.reduce(0, +) - 1) < 1e-12) }
    }

    @Test("a region counts only its pixels: a half-black, half-white image")
    func region() throws {
        var buffer = PixelBuffer(width: 20, height: 10, format: .rgba8, colorSpace: .sRGB)
        for y in 0..<10 {
            for x in 0..<20 { buffer.setPixel(x < 10 ? [0, 0, 0, 1] : [1, 1, 1, 1], x: x, y: y) }
        }
        let image = Image(buffer: buffer)
        let whole = try ImageHistogram(of: image, binCount: 16)
        #expect(whole.luminance[0] == 0.5 && whole.luminance[15] == 0.5)
        #expect(whole.clippedFraction == 0.5)
        let left = try ImageHistogram(of: image, extent: Rect(x: 0, y: 0, width: 10, height: 10), binCount: 16)
        #expect(left.luminance[0] == 1 && left.red[0] == 1 && left.clippedFraction == 0)
    }

    @Test("Display P3 green: luma 0.6917 in P3 (published weight); out of sRGB's gamut, it clamps to the end bins")
    func wideColor() throws {
        var buffer = PixelBuffer(width: 8, height: 8, format: .rgba8, colorSpace: .displayP3)
        for y in 0..<8 { for x in 0..<8 { buffer.setPixel([0, 1, 0, 1], x: x, y: y) } }
        let image = Image(buffer: buffer)
        let p3 = try ImageHistogram(of: image, colorSpace: .displayP3, binCount: 100)
        #expect(p3.luminance[69] == 1, "P3 green's luma bin: \(p3.luminance.firstIndex(of: 1) ?? -1)")
        #expect(p3.green[99] == 1 && p3.red[0] == 1 && p3.blue[0] == 1)
        // In sRGB, P3 green is (−0.22, 1.04, −0.08) linear: red and blue below 0, green above 1.
        let srgb = try ImageHistogram(of: image, colorSpace: .sRGB, binCount: 100)
        #expect(srgb.red[0] == 1 && srgb.green[99] == 1 && srgb.blue[0] == 1)
    }

    @Test("transparent pixels count as black: an 8-bit buffer with any non-opaque pixel is rendered, not counted")
    func transparentPixels() throws {
        var buffer = PixelBuffer(width: 4, height: 2, format: .rgba8, colorSpace: .sRGB)
        for x in 0..<4 {
            buffer.setPixel([1, 1, 1, 1], x: x, y: 0)
            buffer.setPixel([1, 1, 1, 0], x: x, y: 1)
        }
        let histogram = try ImageHistogram(of: Image(buffer: buffer), binCount: 8)
        #expect(histogram.red[7] == 0.5 && histogram.red[0] == 0.5, "\(histogram.red)")
        #expect(histogram.luminance[7] == 0.5 && histogram.luminance[0] == 0.5, "\(histogram.luminance)")
    }

    @Test("a bin edge at a code: with 255 bins, code c is in bin c")
    func binEdgesAtCodes() throws {
        var buffer = PixelBuffer(width: 256, height: 1, format: .rgba8, colorSpace: .sRGB)
        for x in 0..<256 {
            let v = Float(x) / 255
            buffer.setPixel([v, v, v, 1], x: x, y: 0)
        }
        let histogram = try ImageHistogram(of: Image(buffer: buffer), binCount: 255)
        // Code c is the value c/255: bin ⌊c/255 · 255⌋ = c; code 255 (value 1) joins the last bin.
        for c in 0..<254 { #expect(histogram.red[c] == 1.0 / 256, "bin \(c)") }
        #expect(histogram.red[254] == 2.0 / 256)
    }

    @Test("bad arguments throw instead of rendering")
    func errors() {
        let image = Image(buffer: Self.randomSRGB(width: 4, height: 4, seed: 1))
        #expect(throws: RenderError.self) { try ImageHistogram(of: image, binCount: 0) }
        #expect(throws: RenderError.self) { try ImageHistogram(of: Image(color: Color(gray: 0.5, colorSpace: .sRGB))) }
        #expect(throws: RenderError.self) { try ImageHistogram(of: image, colorSpace: .genericGrayGamma2_2) }
    }
}
