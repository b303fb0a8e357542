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
    /// the edge), exactly, since the weights are whole 256ths; 20 pixels wide, so the AVX2 loop's blocks of eight and
    /// its scalar tail both run.
    @Test func quarterPixelShiftBlendsNeighboursByHand() {
        let row: [UInt8] = (0..<20).map { [0, 200, 100, 40][$0 % 4] }
        var expected: [UInt8] = [0]
        for x in 1..<20 {
            let blend: Int = 3 * Int(row[x]) + Int(row[x - 1])
            expected.append(UInt8(blend / 4))
        }
        // The hand values: 0, 150, 125, 55, then 10 (¾·0 + ¼·40), 150, 125, 55, ...
        #expect(Array(expected.prefix(5)) == [0, 150, 125, 55, 10])
        let source = Self.buffer(width: 20, height: 2) { x, _, c in c == 3 ? 255 : row[x] }
        KernelPaths.each { _ in
            var out = PixelBuffer(width: 20, height: 2, format: .rgba8)
            #expect(source.warpRGBA8(by: AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0.25, ty: 0), into: &out))
            let s = Self.samples(out)
            for y in 0..<2 {
                #expect((0..<20).map { s[80 * y + 4 * $0] } == expected)
                #expect((0..<20).allSatisfy { s[80 * y + 4 * $0 + 3] == 255 })
            }
        }
    }

    /// A target of another size than the source, shifted far beyond it: every pixel repeats the source's nearest edge
    /// pixel, as the engine's clamped image does.
    @Test func farOutsideRepeatsTheEdges() throws {
        let source = Self.buffer(width: 37, height: 21) { x, y, c in c == 3 ? 255 : UInt8((7 * x + 11 * y + c) % 256) }
        for t in [
            AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 500, ty: -300),
            AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: -1e7, ty: 1e7),
        ] {
            var expected = PixelBuffer(width: 29, height: 13, format: .rgba8)
            try RenderContext(options: RenderOptions(workingColorSpace: nil)).render(
                Image(buffer: source).clampedToExtent().transformed(by: t).cropped(to: Rect(width: 29, height: 13)),
                to: &expected)
            let (fast, portable) = KernelPaths.both { () -> [UInt8] in
                var out = PixelBuffer(width: 29, height: 13, format: .rgba8)
                #expect(source.warpRGBA8(by: t, into: &out))
                return Self.samples(out)
            }
            #expect(fast == portable)
            #expect(fast == Self.samples(expected))
        }
    }

    /// Sources one pixel wide, one row high and 2 × 2 (the vector loop reads pairs of columns and rows: a single
    /// column or row goes through the portable loop), turned and shifted so that positions fall beyond every edge: the
    /// engine's clamped image, and the same bytes on both kernel paths.
    @Test func thinSourcesRepeatTheirEdgesAsTheEngineDoes() throws {
        let transform = AffineTransform(a: 0.96, b: 0.28, c: -0.28, d: 0.96, tx: 1.3, ty: -0.6)
        for (w, h) in [(1, 9), (9, 1), (1, 1), (2, 2), (2, 17)] {
            let source = Self.buffer(width: w, height: h) { x, y, c in
                c == 3 ? 255 : UInt8((53 * x + 97 * y + 31 * c) % 256)
            }
            var expected = PixelBuffer(width: 19, height: 11, format: .rgba8)
            try RenderContext(options: RenderOptions(workingColorSpace: nil)).render(
                Image(buffer: source).clampedToExtent().transformed(by: transform).cropped(
                    to: Rect(width: 19, height: 11)),
                to: &expected)
            let (fast, portable) = KernelPaths.both { () -> [UInt8] in
                var out = PixelBuffer(width: 19, height: 11, format: .rgba8)
                #expect(source.warpRGBA8(by: transform, into: &out))
                return Self.samples(out)
            }
            #expect(fast == portable, "\(w)×\(h)")
            let worst = zip(fast, Self.samples(expected)).map { abs(Int($0) - Int($1)) }.max() ?? 0
            #expect(worst <= 1, "\(w)×\(h): \(worst) levels from the engine")
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
