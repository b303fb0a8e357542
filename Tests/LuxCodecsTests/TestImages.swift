import Foundation
import LuxColor
import LuxPixels
import LuxTestSupport
import Testing

@testable import LuxCodecs

/// Generated test pictures and small helpers to compare pixels.
enum TestImages {
    /// A smooth colour picture with some edges, in `format`.
    static func gradient(width: Int, height: Int, format: PixelFormat = .rgba8, alpha: Bool = false) -> PixelBuffer {
        var rgba = [Float](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                let fx = Float(x) / Float(max(width - 1, 1))
                let fy = Float(y) / Float(max(height - 1, 1))
                rgba[i] = fx
                rgba[i + 1] = fy
                rgba[i + 2] = (x / 16 + y / 16) % 2 == 0 ? 0.8 : 0.2
                rgba[i + 3] = alpha ? 0.25 + 0.75 * fx * fy : 1
            }
        }
        let float = PixelBuffer(width: width, height: height, format: .rgbaFloat, components: rgba, colorSpace: .sRGB)
        return float.converted(to: format)
    }

    /// A crop of the iPhone photo at 3/8 size (at most 1512 × 1134), as a PPM for cjpeg.
    ///
    /// It has real chroma detail across MCU rows. Tests that use it need djpeg and ImageMagick's convert.
    static func photoCrop(in dir: URL, width: Int = 1001, height: Int = 777) throws -> URL {
        let scaled = dir.appendingPathComponent("scaled.ppm")
        try ExternalTool.capture("djpeg", ["-pnm", "-scale", "3/8", Fixtures.url(JPEGTests.livePhoto).path]).stdout
            .write(to: scaled)
        let crop = dir.appendingPathComponent("crop.ppm")
        let made = try ExternalTool.capture(
            "convert", [scaled.path, "-crop", "\(width)x\(height)+211+157", "+repage", crop.path])
        try #require(made.status == 0, "convert: \(made.errorText)")
        return crop
    }

    /// Writes pixels as a binary PPM (RGB, 8-bit) so command-line tools can read them.
    static func ppm(_ buffer: PixelBuffer) -> Data {
        let rgba = buffer.converted(to: .rgba8).components(as: UInt8.self)
        var out = Data("P6\n\(buffer.width) \(buffer.height)\n255\n".utf8)
        out.reserveCapacity(out.count + buffer.width * buffer.height * 3)
        for i in 0..<(buffer.width * buffer.height) { out.append(contentsOf: rgba[(4 * i)..<(4 * i + 3)]) }
        return out
    }

    /// The RGB samples of an `.rgba8`/`.gray8` buffer (alpha dropped), for comparing with PPM/PGM output.
    static func rgbSamples(_ buffer: PixelBuffer) -> [UInt16] {
        if buffer.format == .gray8 { return buffer.components(as: UInt8.self).map(UInt16.init) }
        // Through raw pointers: tests run in debug builds, where a 12 MP picture made 12 million small arrays.
        let rgba = buffer.components(as: UInt8.self)
        let count = rgba.count / 4 * 3
        return rgba.withUnsafeBufferPointer { source in
            [UInt16](unsafeUninitializedCapacity: count) { out, initialized in
                guard var s = source.baseAddress, var d = out.baseAddress else { return }
                for _ in 0..<(count / 3) {
                    d[0] = UInt16(s[0])
                    d[1] = UInt16(s[1])
                    d[2] = UInt16(s[2])
                    s += 4
                    d += 3
                }
                initialized = count
            }
        }
    }
}
