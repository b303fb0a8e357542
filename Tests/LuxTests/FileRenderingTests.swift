import Foundation
import Lux
import LuxTestSupport
import Testing

/// `Image(contentsOf:)` and `RenderContext.write(_:to:)`: file to file through the engine, strip by strip.
@Suite struct FileRenderingTests {
    /// A noisy 8-bit sRGB test picture with edges, written as TIFF by Lux's whole-image writer.
    static func picture(width: Int, height: Int, gray: Bool = false) -> PixelBuffer {
        var generator = SplitMix(seed: 11)
        var values = [Float](repeating: 1, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                let edge: Float = (x / 23 + y / 17) % 2 == 0 ? 0.75 : 0.2
                for c in 0..<3 {
                    values[i + c] = min(1, max(0, edge + 0.1 * (generator.unit() - 0.5) + Float(c) * 0.05))
                }
                if gray {
                    values[i + 1] = values[i]
                    values[i + 2] = values[i]
                }
            }
        }
        let buffer = PixelBuffer(
            width: width, height: height, format: .rgbaFloat, components: values, colorSpace: .sRGB)
        return buffer.converted(to: gray ? .gray8 : .rgba8)
    }

    @Test(
        "a TIFF copied file to file through the engine keeps its pixels (within one code value)",
        .needs("tiffinfo"), arguments: [false, true])
    func copyKeepsPixels(_ gray: Bool) throws {
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let src = dir.appendingPathComponent("in.tif")
        let dst = dir.appendingPathComponent("out.tif")
        let original = Self.picture(width: 333, height: 211, gray: gray)
        try ImageFile.write(original, to: src, options: EncodingOptions(tiffCompression: .deflate))
        let image = try Image(contentsOf: src)
        #expect(image.extent == Rect(x: 0, y: 0, width: 333, height: 211))
        try RenderContext(options: RenderOptions(tileSize: 64)).write(image, to: dst)
        let back = try ImageFile.read(url: dst).pixels.converted(to: .rgba8).components(as: UInt8.self)
        let expected = original.converted(to: .rgba8).components(as: UInt8.self)
        let worst = zip(back, expected).map { abs(Int($0) - Int($1)) }.max() ?? 255
        #expect(back.count == expected.count && worst <= 1, "max difference \(worst)")
        let info = try ExternalTool.capture("tiffinfo", [dst.path])
        #expect(info.status == 0 && !info.errorText.contains("Error"), "\(info.errorText)")
    }

    @Test("a 3×3 box blur streamed file to file matches vips conv on the same TIFF", .needs("vips"))
    func blurMatchesVips() throws {
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let src = dir.appendingPathComponent("in.tif")
        try ImageFile.write(Self.picture(width: 300, height: 200), to: src, options: EncodingOptions(alpha: .discard))
        // vips: the same kernel on the sRGB values, float precision, edges extended (copy), cropped back.
        let mask = dir.appendingPathComponent("box.mat")
        try "3 3 9 0\n1 1 1\n1 1 1\n1 1 1\n".write(to: mask, atomically: true, encoding: .utf8)
        let theirs = dir.appendingPathComponent("vips.tif")
        let run = try ExternalTool.capture(
            "sh",
            [
                "-c",
                "vips embed \(src.path) \(dir.path)/e.v 1 1 302 202 --extend copy && vips conv \(dir.path)/e.v \(dir.path)/c.v \(mask.path) --precision float && vips crop \(dir.path)/c.v \(dir.path)/k.v 1 1 300 200 && vips round \(dir.path)/k.v \(dir.path)/r.v rint && vips cast \(dir.path)/r.v \(theirs.path) uchar",
            ])
        #expect(run.status == 0, "\(run.errorText)")
        let ours = dir.appendingPathComponent("lux.tif")
        let image = try Image(contentsOf: src)
        let blurred = try image.clampedToExtent().applyingFilter(
            "Convolution3X3",
            parameters: ["weights": .vector([1, 1, 1, 1, 1, 1, 1, 1, 1].map { $0 / 9 })], registry: .builtIn)
        // Work on the stored values, as vips does (no linearisation).
        let context = RenderContext(
            options: RenderOptions(workingColorSpace: nil, workingFormat: .rgbaFloat, tileSize: 64))
        try context.write(blurred.cropped(to: image.extent), to: ours, options: EncodingOptions(alpha: .discard))
        let a = try ImageFile.read(url: ours).pixels.converted(to: .rgba8).components(as: UInt8.self)
        let b = try ImageFile.read(url: theirs).pixels.converted(to: .rgba8).components(as: UInt8.self)
        let worst = zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? 255
        #expect(a.count == b.count)
        #expect(worst <= 1, "max difference from vips \(worst)")
    }

    @Test("writing refuses infinite extents and leaves no file behind")
    func refusesInfinite() throws {
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("x.tif")
        #expect(throws: (any Error).self) { try RenderContext().write(Image(color: Color(gray: 0.5)), to: url) }
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }
}
