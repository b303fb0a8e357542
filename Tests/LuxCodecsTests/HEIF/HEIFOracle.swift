import Foundation
import LuxPixels
import LuxTestSupport
import Testing

@testable import LuxCodecs

/// libheif's own tools as oracles: what `heif-convert` and `vips heifload` (libheif too, the same values bit for
/// bit, without heif-convert's slow PNG compression) decode, and what `heif-info` lists.
enum HEIFOracle {
    /// The samples `heif-convert` writes for `path` (image `index` of a multi-image file; an auxiliary image by its
    /// file-name suffix, "depth" or the type with ':' as '_').
    static func heifConvert(_ path: String, index: Int? = nil, auxiliary: String? = nil) throws -> RawPPM {
        let dir = try ExternalTool.temporaryFolder("lux-heif")
        defer { try? FileManager.default.removeItem(at: dir) }
        let png = dir.appendingPathComponent("out.png")
        let run = try ExternalTool.capture(
            "heif-convert", (auxiliary == nil ? [] : ["--with-aux", "--no-colons"]) + [path, png.path])
        try #require(run.status == 0, "heif-convert: \(run.text) \(run.errorText)")
        var name = "out"
        if let index { name += "-\(index + 1)" }
        if let auxiliary { name += "-\(auxiliary)" }
        return try ppm(dir.appendingPathComponent(name + ".png").path, in: dir)
    }

    /// The samples libheif decodes for top-level image `page` of `path`, through `vips heifload`.
    static func vipsHeifload(_ path: String, page: Int = 0) throws -> RawPPM {
        let dir = try ExternalTool.temporaryFolder("lux-heif")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out.ppm")
        let run = try ExternalTool.capture("vips", ["heifload", path, out.path, "--page", "\(page)"])
        try #require(run.status == 0, "vips heifload: \(run.errorText)")
        return try RawPPM(Data(contentsOf: out))
    }

    /// An image file as PPM/PGM samples (converted by vips).
    static func ppm(_ path: String, in dir: URL) throws -> RawPPM {
        let out = dir.appendingPathComponent("converted.ppm")
        let converted = try ExternalTool.capture("vips", ["copy", path, out.path])
        try #require(converted.status == 0, "vips: \(converted.errorText)")
        return try RawPPM(Data(contentsOf: out))
    }

    /// The largest difference, in 8-bit levels, between `pixels` (8- or 16-bit, RGBA or gray) and `reference`
    /// (compared at 8 bits: 16-bit samples on either side are scaled by 255/65535).
    static func maximumDifference(_ pixels: PixelBuffer, _ reference: RawPPM) -> Int {
        precondition(pixels.width == reference.width && pixels.height == reference.height)
        let channels = reference.channels
        let sixteen = pixels.format.componentType == .uint16
        let stride = pixels.format.hasAlpha ? 4 : 1
        let wide = reference.maxValue > 255
        var worst = 0
        reference.data.withUnsafeBytes { raw in
            let theirs = raw.baseAddress! + reference.offset
            pixels.withUnsafePlane { plane in
                for y in 0..<pixels.height {
                    let row = plane.row(y)
                    let base = y * pixels.width * channels
                    for x in 0..<pixels.width {
                        for c in 0..<channels {
                            let i = x * stride + min(c, stride - 1)
                            let mine =
                                sixteen
                                ? (Int(row.load(fromByteOffset: 2 * i, as: UInt16.self)) * 255 + 32767) / 65535
                                : Int(row.load(fromByteOffset: i, as: UInt8.self))
                            let k = base + x * channels + c
                            let t =
                                wide
                                ? ((Int(theirs.load(fromByteOffset: 2 * k, as: UInt8.self)) << 8
                                    | Int(theirs.load(fromByteOffset: 2 * k + 1, as: UInt8.self))) * 255 + 32767)
                                    / 65535
                                : Int(theirs.load(fromByteOffset: k, as: UInt8.self))
                            worst = max(worst, abs(mine - t))
                        }
                    }
                }
            }
        }
        return worst
    }

    /// `heif-info`'s listing of a file.
    static func heifInfo(_ path: String) throws -> String {
        try ExternalTool.capture("heif-info", [path]).text
    }
}

/// A binary PPM/PGM kept as its file bytes (parsing samples into arrays is slow in a debug build).
struct RawPPM {
    let width: Int
    let height: Int
    let channels: Int
    let maxValue: Int
    let data: Data
    /// Where the samples start.
    let offset: Int

    init(_ data: Data) throws {
        self.data = data
        var tokens: [String] = []
        var p = data.startIndex
        while tokens.count < 4 && p < data.endIndex {
            if data[p] == UInt8(ascii: "#") {
                while p < data.endIndex, data[p] != 10 { p += 1 }
            } else if [9, 10, 13, 32].contains(data[p]) {
                p += 1
            } else {
                let start = p
                while p < data.endIndex, ![9, 10, 13, 32].contains(data[p]) { p += 1 }
                tokens.append(String(decoding: data[start..<p], as: UTF8.self))
            }
        }
        guard tokens.count == 4, tokens[0] == "P5" || tokens[0] == "P6", let w = Int(tokens[1]),
            let h = Int(tokens[2]), let m = Int(tokens[3])
        else { throw CocoaError(.fileReadCorruptFile) }
        (width, height, maxValue, channels) = (w, h, m, tokens[0] == "P5" ? 1 : 3)
        offset = p + 1 - data.startIndex
        guard data.count - offset >= w * h * channels * (m > 255 ? 2 : 1) else {
            throw CocoaError(.fileReadCorruptFile)
        }
    }

    /// The sample bytes.
    var samples: Data { data.subdata(in: (data.startIndex + offset)..<data.endIndex) }
}
