import Foundation
import LuxColor
public import LuxPixels

/// Binary PPM (P6, 8-bit) reading and writing as pixel buffers, to exchange images with command-line tools in
/// tests.
public enum NetPBM {
    /// Reads an 8-bit binary PPM into an RGBA8 sRGB buffer (alpha 255).
    public static func readPPM(_ path: String) throws -> PixelBuffer {
        let image = try NetpbmImage(Data(contentsOf: URL(fileURLWithPath: path)))
        guard image.channels == 3, image.maxValue == 255 else {
            throw ExternalTool.ToolError(message: "\(path) is not an 8-bit P6 PPM")
        }
        var comps = [UInt8](repeating: 255, count: 4 * image.width * image.height)
        for p in 0..<(image.width * image.height) {
            for c in 0..<3 { comps[4 * p + c] = UInt8(image.samples[3 * p + c]) }
        }
        return PixelBuffer(
            width: image.width, height: image.height, format: .rgba8, components: comps, colorSpace: .sRGB)
    }

    /// Writes the RGB of an RGBA8 buffer as a binary PPM.
    public static func writePPM(_ buffer: PixelBuffer, to path: String) throws {
        precondition(buffer.format == .rgba8)
        let c = buffer.components(as: UInt8.self)
        var out = Data("P6\n\(buffer.width) \(buffer.height)\n255\n".utf8)
        var rgb = [UInt8](repeating: 0, count: 3 * buffer.width * buffer.height)
        for p in 0..<(buffer.width * buffer.height) {
            rgb[3 * p] = c[4 * p]
            rgb[3 * p + 1] = c[4 * p + 1]
            rgb[3 * p + 2] = c[4 * p + 2]
        }
        out.append(contentsOf: rgb)
        try out.write(to: URL(fileURLWithPath: path))
    }

    /// Decodes a JPEG with libjpeg-turbo's `djpeg` (an independent decoder).
    public static func decodeJPEG(_ path: String) throws -> PixelBuffer {
        let (status, data) = try ExternalTool.run("djpeg", ["-ppm", path])
        guard status == 0 else { throw ExternalTool.ToolError(message: "djpeg failed on \(path)") }
        let tmp = try ExternalTool.temporaryDirectory() + "/decoded.ppm"
        try data.write(to: URL(fileURLWithPath: tmp))
        defer { try? FileManager.default.removeItem(atPath: tmp) }
        return try readPPM(tmp)
    }
}
