import Foundation
import LuxPixels
import LuxTestSupport
import Testing

@testable import LuxRender

/// `PixelBuffer.warpRGBA8(by:into:)` (the 8-bit warp of stabilised movie frames) against values worked out by hand
/// and against the render engine's affine transform of the clamped image, rendered without colour management (so
/// that it, too, interpolates the stored values), on both kernel paths.
@Suite(.serialized) struct RGBA8WarpTests {
    static func buffer(width: Int, height: Int, _ value: (Int, Int, Int) -> UInt8) -> PixelBuffer {
        var b = PixelBuffer(width: width, height: height, format: .rgba8)
        b.withUnsafeMutablePlane { p in
            for y in 0..<height {
                let row = p.row(y, as: UInt8.self)
                for x in 0..<width { for c in 0..<4 { row[4 * x + c] = value(x, y, c) } }
            }
        }
        return b
    }

    static func samples(_ b: PixelBuffer) -> [UInt8] {
        b.withUnsafePlane { p in
            (0..<b.height).flatMap { y in
                Array(UnsafeBufferPointer(start: p.row(y, as: UInt8.self), count: 4 * b.width))
            }
        }
    }

    /// A quarter-pixel shift to the right: each pixel is ¾ of itself and ¼ of its left neighbour (the first repeats
    /// the edge), exactly, since the weights are whole 256ths.
    @Test func quarterPixelShiftBlendsNeighboursByHand() {
        let row: [UInt8] = [0, 200, 100, 40]
        let source = Self.buffer(width: 4, height: 2) { x, _, c in c == 3 ? 255 : row[x] }
        KernelPaths.each { _ in
            var out = PixelBuffer(width: 4, height: 2, format: .rgba8)
            #expect(source.warpRGBA8(by: AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0.25, ty: 0), into: &out))
            let s = Self.samples(out)
            for y in 0..<2 {
                #expect((0..<4).map { s[16 * y + 4 * $0] } == [0, 150, 125, 55])
                #expect((0..<4).map { s[16 * y + 4 * $0 + 3] } == [255, 255, 255, 255])
            }
        }
    }

    /// A slight rotation, scale and shift (a stabilising warp's size) of an opaque pseudo-random image (a movie frame:
    /// the engine blends premultiplied colours, which only opaque pixels share with straight ones), edges included: within
    /// a level of the engine everywhere (positions to 1/256 pixel, three roundings), under a quarter on average, and
    /// the same bytes on both kernel paths.
    @Test func rotationMatchesTheEngineWithinALevel() throws {
        var random = SplitMix(seed: 17)
        let (w, h) = (157, 93)
        let noise = (0..<(w * h * 4)).map { _ in UInt8(random.next() >> 56) }
        let source = Self.buffer(width: w, height: h) { x, y, c in c == 3 ? 255 : noise[4 * (y * w + x) + c] }
        let angle = 0.02
        let t = AffineTransform(
            a: 1.01 * cos(angle), b: 1.01 * sin(angle), c: -1.01 * sin(angle), d: 1.01 * cos(angle), tx: 3.3,
            ty: -2.7)
        let context = RenderContext(options: RenderOptions(workingColorSpace: nil))
        var expected = PixelBuffer(width: w, height: h, format: .rgba8)
        try context.render(
            Image(buffer: source).clampedToExtent().transformed(by: t).cropped(to: Rect(width: w, height: h)),
            to: &expected)
        let reference = Self.samples(expected)
        let (fast, portable) = KernelPaths.both { () -> [UInt8] in
            var out = PixelBuffer(width: w, height: h, format: .rgba8)
            _ = source.warpRGBA8(by: t, into: &out)
            return Self.samples(out)
        }
        #expect(fast == portable)
        let errors = zip(fast, reference).map { abs(Int($0) - Int($1)) }
        #expect(errors.max()! <= 1)
        #expect(Double(errors.reduce(0, +)) / Double(errors.count) < 0.25)
    }

    @Test func refusesOtherFormatsAndSingularTransforms() {
        let source = Self.buffer(width: 4, height: 4) { _, _, _ in 9 }
        var out = PixelBuffer(width: 4, height: 4, format: .rgba8)
        #expect(!source.warpRGBA8(by: AffineTransform(a: 0, b: 0, c: 0, d: 0, tx: 1, ty: 1), into: &out))
        var float = PixelBuffer(width: 4, height: 4, format: .rgbaFloat)
        #expect(!source.warpRGBA8(by: .identity, into: &float))
        #expect(Self.samples(out).allSatisfy { $0 == 0 })
    }
}
