import LuxFusion
import LuxPixels
import LuxTestSupport
import Testing

/// The stabiliser's reduced frames: each pixel the rounded mean of an f × f block of the frame converted to RGBA8.
@Suite struct ReducedFrameTests {
    /// A frame of pseudo-random colours in `format`, with columns and rows beyond the last whole block.
    static func frame(width w: Int, height h: Int, format: PixelFormat) -> PixelBuffer {
        var random = SplitMix(seed: 12_345)
        let bytes = (0..<(4 * w * h)).map { i -> UInt8 in
            let r = UInt8(truncatingIfNeeded: random.next() >> 56)
            return i % 4 == 3 ? 255 : r
        }
        return PixelBuffer(width: w, height: h, format: .rgba8, components: bytes).converted(to: format)
    }

    @Test(
        "reduced frames are the block means of the RGBA8 conversion",
        arguments: [PixelFormat.yCbCr420VideoRange, .yCbCr420FullRange, .bgra8, .rgba8])
    func blockMeans(format: PixelFormat) {
        let (w, h, width) = (98, 62, 30)
        let f = 4  // ⌈98 / 30⌉
        let frame = Self.frame(width: w, height: h, format: format)
        let reduced = LivePhotoStabilizer(analysisWidth: width).reduced(frame)
        #expect(reduced.format == .rgba8 && reduced.width == w / f && reduced.height == h / f)
        let rgba = frame.converted(to: .rgba8).components(as: UInt8.self)
        var expected: [UInt8] = []
        for y in 0..<(h / f) {
            for x in 0..<(w / f) {
                for c in 0..<4 {
                    var sum = 0
                    for dy in 0..<f {
                        for dx in 0..<f { sum += Int(rgba[4 * ((y * f + dy) * w + x * f + dx) + c]) }
                    }
                    expected.append(UInt8((sum + f * f / 2) / (f * f)))
                }
            }
        }
        #expect(reduced.components(as: UInt8.self) == expected)
    }
}
