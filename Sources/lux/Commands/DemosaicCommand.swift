import ArgumentParser
import Foundation
import Lux

/// `lux demosaic IN.pgm|tiff --cfa RGGB -o OUT.ppm|tiff`: demosaics a bare mosaic (for quality scoring).
struct DemosaicCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demosaic",
        abstract: "Demosaic a Bayer or X-Trans mosaic stored as a gray PGM or TIFF.",
        discussion: """
            Reads one sample per pixel (8- or 16-bit PGM, or a gray TIFF), reconstructs RGB with LuxRAW's \
            demosaicer (Bayer: --method; X-Trans: LuxRAW's Markesteijn-style method, or its plain interpolation \
            with --method bilinear) and writes a 16-bit PPM (P6, maxval 65535) or a 16-bit TIFF, values clipped to 0...1. \
            No white balance, colour or tone processing: what external scorers such as \
            demosaic_psnr.py --eval need.

            Example:
              python demosaic_psnr.py --dump /tmp/dm
              for f in /tmp/dm/*_rggb.pgm; do lux demosaic $f --cfa RGGB -o ${f%_rggb.pgm}_out.ppm; done
              python demosaic_psnr.py --eval /tmp/dm
              lux demosaic chelsea_xtrans.pgm --cfa xtrans -o chelsea_out.ppm
            """)

    @Argument(help: "The mosaic: a P5 PGM (8 or 16 bit) or a gray TIFF.", completion: .file())
    var input: String

    @Option(
        help:
            "The colour filter array at the top-left pixel: RGGB, GRBG, GBRG, BGGR, or xtrans (Fujifilm's 6x6 layout, its first row GGRGGB; xtrans:X,Y starts at column X, row Y of it)."
    )
    var cfa: String

    @Option(help: "Demosaicing method: rcd (default), quality (slower, finer) or bilinear.")
    var method = DemosaicMethodArgument(.rcd)

    @Option(
        name: [.customShort("o"), .customLong("out")], help: "The output: .ppm (16-bit P6) or .tif/.tiff (16-bit RGB).",
        completion: .file())
    var out: String

    @OptionGroup var overwriteOptions: OverwriteOptions

    /// The layout `--cfa` names.
    var layout: MosaicLayout? {
        if let p = CFAPattern(rawValue: cfa.uppercased()) { return .bayer(p) }
        let parts = cfa.lowercased().split(separator: ":", maxSplits: 1)
        guard parts.first == "xtrans" else { return nil }
        guard parts.count == 2 else { return .xTrans(XTransPattern()) }
        let phase = parts[1].split(separator: ",").compactMap { Int($0) }
        guard phase.count == 2, phase.allSatisfy({ (0..<6).contains($0) }) else { return nil }
        return .xTrans(XTransPattern(phaseX: phase[0], phaseY: phase[1]))
    }

    func validate() throws {
        guard layout != nil else {
            throw ValidationError("--cfa must be RGGB, GRBG, GBRG, BGGR, xtrans or xtrans:X,Y (0...5), not '\(cfa)'")
        }
        let ext = URL(fileURLWithPath: out).pathExtension.lowercased()
        guard ["ppm", "tif", "tiff"].contains(ext) else {
            throw ValidationError("the output must end in .ppm, .tif or .tiff")
        }
    }

    func run() throws {
        try overwriteOptions.check(out)
        let mosaic = try PNM.isPNM(input) ? PNM.readGray(input) : readTIFF()
        let rgb = try method.method.demosaic(mosaic, layout: layout)
        let url = URL(fileURLWithPath: out)
        if url.pathExtension.lowercased() == "ppm" {
            try PNM.writeRGB16(rgb, to: url)
        } else {
            try writeTIFF(rgb.converted(to: .rgba16), to: url)
        }
    }

    private func writeTIFF(_ pixels: PixelBuffer, to url: URL) throws {
        let result = Result { () throws(CodecError) in
            try ImageFile.write(
                pixels, to: url, format: .tiff, options: EncodingOptions(embedsColorProfile: false, alpha: .discard))
        }
        if case .failure(let e) = result { throw CLIError(e, file: out) }
    }

    private func readTIFF() throws -> PixelBuffer {
        do {
            let file = try ImageFile.read(url: URL(fileURLWithPath: input))
            guard [.gray8, .gray16, .grayFloat].contains(file.pixels.format) || file.pixels.format.isBayer else {
                throw CLIError("\(input): expected a gray (one sample per pixel) mosaic, found \(file.pixels.format)")
            }
            return file.pixels
        } catch let e as CodecError { throw CLIError(e, file: input) }
    }
}

/// Minimal binary PNM (P5/P6) reading and writing for the demosaic command.
enum PNM {
    static func isPNM(_ path: String) -> Bool {
        guard let h = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? h.close() }
        let head = h.readData(ofLength: 2)
        return head == Data("P5".utf8)
    }

    /// Reads a P5 file into `.gray8` or `.gray16` (big-endian samples for maxval > 255).
    static func readGray(_ path: String) throws -> PixelBuffer {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CLIError("\(path): cannot read the file")
        }
        let bytes = [UInt8](data)
        var fields: [Int] = []
        var pos = 2
        while fields.count < 3 {
            while pos < bytes.count, bytes[pos] == UInt8(ascii: "#") || isSpace(bytes[pos]) {
                if bytes[pos] == UInt8(ascii: "#") {
                    while pos < bytes.count, bytes[pos] != 10 { pos += 1 }
                } else {
                    pos += 1
                }
            }
            var v = 0
            var digits = 0
            while pos < bytes.count, bytes[pos] >= 48, bytes[pos] <= 57, digits < 9 {
                v = v * 10 + Int(bytes[pos] - 48)
                pos += 1
                digits += 1
            }
            guard digits > 0 else { throw CLIError("\(path): malformed PGM header") }
            fields.append(v)
        }
        pos += 1
        let (w, h, maxval) = (fields[0], fields[1], fields[2])
        guard w > 0, h > 0, w <= 65535, h <= 65535, (1...65535).contains(maxval) else {
            throw CLIError("\(path): unsupported PGM size \(w)×\(h), maxval \(maxval)")
        }
        let wide = maxval > 255
        guard bytes.count - pos >= w * h * (wide ? 2 : 1) else { throw CLIError("\(path): the PGM is truncated") }
        let out = PixelBuffer(width: w, height: h, format: wide ? .gray16 : .gray8)
        var copy = out
        copy.withUnsafeMutablePlane { plane in
            for y in 0..<h {
                if wide {
                    let d = plane.row(y, as: UInt16.self)
                    for x in 0..<w {
                        let i = pos + 2 * (y * w + x)
                        d[x] = UInt16(Double(UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1])) * 65535 / Double(maxval))
                    }
                } else {
                    let d = plane.row(y, as: UInt8.self)
                    for x in 0..<w { d[x] = UInt8(min(255, Int(bytes[pos + y * w + x]) * 255 / maxval)) }
                }
            }
        }
        return copy
    }

    static func isSpace(_ b: UInt8) -> Bool { b == 32 || b == 9 || b == 10 || b == 13 }

    /// Writes RGB as a 16-bit P6 (values clipped to 0...1).
    static func writeRGB16(_ buffer: PixelBuffer, to url: URL) throws {
        let rgba = buffer.converted(to: .rgbaFloat).components(as: Float.self)
        var data = Data("P6\n\(buffer.width) \(buffer.height)\n65535\n".utf8)
        var body = [UInt8](repeating: 0, count: buffer.width * buffer.height * 6)
        for p in 0..<(buffer.width * buffer.height) {
            for c in 0..<3 {
                let v = rgba[4 * p + c]
                let q = UInt16((min(max(v.isNaN ? 0 : v, 0), 1) * 65535).rounded())
                body[6 * p + 2 * c] = UInt8(q >> 8)
                body[6 * p + 2 * c + 1] = UInt8(q & 0xFF)
            }
        }
        data.append(contentsOf: body)
        try data.write(to: url, options: .atomic)
    }
}
