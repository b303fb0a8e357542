import Foundation
import LuxColor
public import LuxPixels

/// Minimal binary PPM (P6, 8-bit) and PFM reading/writing, to exchange images with command-line tools in
/// tests without depending on LuxCodecs.
public enum NetPBM {
    /// Reads an 8-bit binary PPM into an RGBA8 sRGB buffer (alpha 255).
    public static func readPPM(_ path: String) throws -> PixelBuffer {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        var fields: [String] = []
        var i = 0
        let bytes = [UInt8](data)
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 }
        while fields.count < 4 && i < bytes.count {
            // Whitespace and comments (to the end of the line) separate header fields.
            while i < bytes.count, isSpace(bytes[i]) || bytes[i] == 0x23 {
                if bytes[i] == 0x23 {
                    while i < bytes.count, bytes[i] != 0x0A { i += 1 }
                }
                i += 1
            }
            var f = ""
            while i < bytes.count, !isSpace(bytes[i]) {
                f.append(Character(UnicodeScalar(bytes[i])))
                i += 1
            }
            fields.append(f)
        }
        i += 1
        guard fields.count == 4, fields[0] == "P6", let w = Int(fields[1]), let h = Int(fields[2]), fields[3] == "255",
            bytes.count >= i + 3 * w * h
        else { throw ExternalTool.ToolError(message: "\(path) is not an 8-bit P6 PPM") }
        var comps = [UInt8](repeating: 255, count: 4 * w * h)
        for p in 0..<(w * h) {
            comps[4 * p] = bytes[i + 3 * p]
            comps[4 * p + 1] = bytes[i + 3 * p + 1]
            comps[4 * p + 2] = bytes[i + 3 * p + 2]
        }
        return PixelBuffer(width: w, height: h, format: .rgba8, components: comps, colorSpace: .sRGB)
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
