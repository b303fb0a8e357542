import Foundation
import LuxCodecs
import LuxPixels

/// The studio tests' images, made and measured a whole buffer at a time (per-pixel access converts a whole row for
/// every pixel, which made each test's set-up take seconds in a debug build).
enum TestImages {
    /// An sRGB RGBA image whose 8-bit samples at (x, y) are `sample(x, y)`.
    static func pixels(width: Int, height: Int, _ sample: (Int, Int) -> SIMD4<UInt8>) -> PixelBuffer {
        var components: [UInt8] = []
        components.reserveCapacity(width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let s = sample(x, y)
                components += [s.x, s.y, s.z, s.w]
            }
        }
        return PixelBuffer(width: width, height: height, format: .rgba8, components: components, colorSpace: .sRGB)
    }

    /// A JPEG of ``pixels(width:height:_:)``.
    static func jpeg(width: Int, height: Int, _ sample: (Int, Int) -> SIMD4<UInt8>) throws -> Data {
        Data(try JPEG.encode(pixels(width: width, height: height, sample)))
    }

    /// The mean of a JPEG's red, green and blue samples (0...255) and its size.
    static func mean(ofJPEG bytes: [UInt8]) throws -> (mean: Double, width: Int, height: Int) {
        let pixels = try JPEG.decode(bytes).pixels.converted(to: .rgba8)
        let components = pixels.components(as: UInt8.self)
        var sum = 0
        for index in stride(from: 0, to: components.count, by: 4) {
            sum += Int(components[index]) + Int(components[index + 1]) + Int(components[index + 2])
        }
        return (Double(sum) / Double(3 * pixels.width * pixels.height), pixels.width, pixels.height)
    }
}
