import Foundation
import LuxColor
import LuxPixels
import LuxTestSupport
import Testing

@testable import LuxCodecs

/// PNG reading and writing, with pngcheck and ImageMagick as oracles, and hand-built files for the colour chunks.
@Suite struct PNGTests {
    static let formats: [PixelFormat] = [.rgba8, .rgba16, .gray8, .gray16]

    @Test(
        "8- and 16-bit gray, RGB and RGBA round-trip exactly and pass pngcheck", .needs("pngcheck"), arguments: formats,
        [false, true])
    func roundTrip(_ format: PixelFormat, _ alpha: Bool) throws {
        if format.channelCount == 1, alpha { return }
        let image = TestImages.gradient(width: 67, height: 45, format: format, alpha: alpha)
        let bytes = try PNG.encode(image)
        let back = try PNG.decode(bytes)
        #expect(back.pixels.format == format)
        #expect(back.pixels.components(as: UInt8.self) == image.components(as: UInt8.self))
        let header = try PNGHeader(bytes: bytes)
        #expect(header.hasAlpha == alpha)
        #expect(header.bitDepth == (format.componentType == .uint16 ? 16 : 8))
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try Self.writeChecked(bytes, in: dir)
    }

    /// Writes `bytes` as `t.png` in `dir` and expects pngcheck to accept it.
    static func writeChecked(_ bytes: [UInt8], in dir: URL) throws -> URL {
        let url = dir.appendingPathComponent("t.png")
        try Data(bytes).write(to: url)
        let check = try ExternalTool.capture("pngcheck", ["-v", url.path])
        #expect(check.status == 0, "\(check.text)")
        return url
    }

    /// A gradient with pseudo-random texture (so deflate cannot shrink it to nothing): `segments` of
    /// ``SegmentedDeflate/segmentSize`` and more once filtered.
    static func texturedImage(format: PixelFormat, alpha: Bool, segments: Int) -> PixelBuffer {
        let bytesPerPixel = (format.channelCount == 1 ? 1 : alpha ? 4 : 3) * (format.componentType == .uint16 ? 2 : 1)
        let width = 523
        let height = segments * SegmentedDeflate.segmentSize / (1 + width * bytesPerPixel) + 3
        var image = TestImages.gradient(width: width, height: height, format: .rgba16, alpha: alpha)
        var state: UInt32 = 12345
        image.withUnsafeMutablePlane { plane in
            for y in 0..<plane.height {
                let row = plane.row(y, as: UInt16.self)
                for i in 0..<(4 * plane.width) where i % 4 != 3 {
                    state = state &* 1_103_515_245 &+ 12345
                    row[i] = row[i] &+ UInt16(state >> 22)
                }
            }
        }
        return image.converted(to: format)
    }

    @Test(
        "PNG data deflated in segments on several threads is one zlib stream whose pixels ImageMagick reads exactly",
        .needs("convert"), .needs("python3"), .needs("pngcheck"),
        arguments: [(PixelFormat.rgba16, true), (.rgba8, false), (.gray8, false)])
    func segmentedDeflate(_ format: PixelFormat, _ alpha: Bool) throws {
        let image = Self.texturedImage(format: format, alpha: alpha, segments: 5)
        let bytes = try PNG.encode(image, options: EncodingOptions(threads: 3))
        #expect(try PNG.encode(image, options: EncodingOptions(threads: 1)) == bytes)
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = try Self.writeChecked(bytes, in: dir)
        // The IDAT chunks joined must inflate (zlib verifies the header and the Adler-32) to one filter byte and
        // the packed samples per row.
        let script = """
            import struct, sys, zlib
            b = open(sys.argv[1], 'rb').read(); i = 8; data = b''
            while i < len(b):
                n, t = struct.unpack('>I4s', b[i:i + 8])
                if t == b'IDAT': data += b[i + 8:i + 8 + n]
                i += 12 + n
            print(len(zlib.decompress(data)))
            """
        let inflated = try ExternalTool.capture("python3", ["-c", script, url.path])
        let sampleBytes = (format.channelCount == 1 ? 1 : alpha ? 4 : 3) * (format.componentType == .uint16 ? 2 : 1)
        #expect(
            inflated.text.trimmingCharacters(in: .whitespacesAndNewlines)
                == "\(image.height * (1 + image.width * sampleBytes))")
        let channels = format.channelCount == 1 ? "gray" : alpha ? "rgba" : "rgb"
        let dump = try ExternalTool.capture("convert", [url.path, "-endian", "MSB", "-depth", "16", "\(channels):-"])
            .stdout
        let theirs = stride(from: 0, to: dump.count, by: 2).map { UInt16(dump[$0]) << 8 | UInt16(dump[$0 + 1]) }
        let wide = image.converted(to: format.channelCount == 1 ? .gray16 : .rgba16).components(as: UInt16.self)
        let step = format.channelCount == 1 ? 1 : 4
        let kept = format.channelCount == 1 ? 1 : alpha ? 4 : 3
        let ours = wide.indices.filter { $0 % step < kept }.map { wide[$0] }
        #expect(theirs.count == ours.count)
        let wrong = zip(theirs, ours).enumerated().filter { $0.element.0 != $0.element.1 }
        #expect(wrong.isEmpty, "\(wrong.count) samples differ, the first \(wrong.first.map { "\($0)" } ?? "")")
    }

    /// ImageMagick writes each variant; its raw RGBA dump is the oracle.
    static let variants: [(String, [String])] = [
        ("palette", ["-type", "Palette", "-depth", "8"]), ("gray 4-bit", ["-type", "Grayscale", "-depth", "4"]),
        ("interlaced 16-bit", ["-interlace", "PNG", "-depth", "16"]),
        ("gray+alpha", ["-type", "GrayscaleAlpha", "-depth", "8"]),
    ]

    @Test(
        "PNGs written by ImageMagick decode to the values ImageMagick reads", .needs("convert"),
        arguments: variants.map(\.0))
    func imageMagickVariants(_ name: String) throws {
        let args = Self.variants.first { $0.0 == name }!.1
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let src = dir.appendingPathComponent("in.ppm")
        let png = dir.appendingPathComponent("out.png")
        try TestImages.ppm(TestImages.gradient(width: 40, height: 30)).write(to: src)
        var convertArgs = [src.path] + args
        if name.contains("alpha") {
            convertArgs += ["-alpha", "on", "-channel", "A", "-evaluate", "set", "60%", "+channel"]
        }
        _ = try ExternalTool.capture("convert", convertArgs + [png.path])
        let file = try ImageFile.read(url: png)
        let dump = try ExternalTool.capture("convert", [png.path, "-depth", "16", "rgba:-"]).stdout
        let reference = stride(from: 0, to: dump.count, by: 2).map { UInt16(dump[$0]) << 8 | UInt16(dump[$0 + 1]) }
        let ours = file.pixels.converted(to: .rgba16).components(as: UInt16.self)
        #expect(ours.count == reference.count)
        let maxError = zip(ours, reference).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(maxError <= 0, "\(name): max error \(maxError)")
    }

    // MARK: Hand-built PNGs

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            c ^= UInt32(b)
            for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        }
        return ~c
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let t = Array(type.utf8)
        let n = UInt32(data.count)
        let crc = crc32(t + data)
        return [UInt8(n >> 24), UInt8(n >> 16 & 255), UInt8(n >> 8 & 255), UInt8(n & 255)] + t + data
            + [UInt8(crc >> 24), UInt8(crc >> 16 & 255), UInt8(crc >> 8 & 255), UInt8(crc & 255)]
    }

    static func be32(_ v: Int) -> [UInt8] {
        [UInt8(v >> 24 & 255), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)]
    }

    /// A 2×2 RGB PNG with the given ancillary chunks before IDAT.
    static func png(_ chunks: [(String, [UInt8])]) throws -> [UInt8] {
        let ihdr = be32(2) + be32(2) + [8, 2, 0, 0, 0]
        let scanlines: [UInt8] = [0, 255, 0, 0, 0, 255, 0, 0, 0, 0, 255, 128, 128, 128]
        var out = PNGHeader.signature + chunk("IHDR", ihdr)
        for (t, d) in chunks { out += chunk(t, d) }
        return out + chunk("IDAT", try TIFFDecompression.deflate(scanlines)) + chunk("IEND", [])
    }

    @Test("gAMA, cHRM and sRGB chunks set the colour space")
    func colourChunks() throws {
        let linear = try PNG.decode(Self.png([("gAMA", Self.be32(100_000))]))
        #expect(linear.pixels.colorSpace?.isLinear == true)
        #expect(linear.pixels.colorSpace?.primaries == RGBPrimaries.rec709)

        let gamma18 = try PNG.decode(Self.png([("gAMA", Self.be32(55_556))]))
        #expect(
            gamma18.pixels.colorSpace?.transferFunction.isApproximatelyEqual(to: .gamma(1.8), tolerance: 1e-3) == true)

        // cHRM with Display P3 primaries and D65, gAMA 1/2.2: P3 primaries, gamma-2.2-like curve.
        let p3 = [31270, 32900, 68000, 32000, 26500, 69000, 15000, 6000].flatMap(Self.be32)
        let wide = try PNG.decode(Self.png([("gAMA", Self.be32(45_455)), ("cHRM", p3)]))
        #expect(wide.pixels.colorSpace?.primaries == RGBPrimaries.p3)

        let srgb = try PNG.decode(Self.png([("sRGB", [0]), ("gAMA", Self.be32(100_000))]))
        #expect(srgb.pixels.colorSpace?.isColorimetricallyEqual(to: .sRGB) == true)  // sRGB wins over gAMA

        let cicp = try PNG.decode(Self.png([("cICP", [12, 13, 0, 1])]))
        #expect(cicp.pixels.colorSpace?.isColorimetricallyEqual(to: .displayP3) == true)

        let plain = try PNG.decode(Self.png([]))
        #expect(plain.pixels.colorSpace?.isColorimetricallyEqual(to: .sRGB) == true)
        #expect(plain.pixels.pixel(x: 0, y: 0) == SIMD4(1, 0, 0, 1))
    }

    @Test("an iCCP chunk is read back as the profile bytes")
    func iccpChunk() throws {
        let fakeProfile = [UInt8](repeating: 7, count: 600)
        let payload = Array("test".utf8) + [0, 0] + (try TIFFDecompression.deflate(fakeProfile))
        let file = try PNG.decode(Self.png([("iCCP", payload)]))
        #expect(file.metadata.iccProfile == fakeProfile)
    }

    @Test("Display P3 pixels are written with colour information that round-trips")
    func wideGamutWrite() throws {
        let image = TestImages.gradient(width: 16, height: 16, format: .rgba16)
        var p3 = image
        p3.colorSpace = .displayP3
        let back = try PNG.decode(PNG.encode(p3))
        #expect(back.pixels.colorSpace?.isColorimetricallyEqual(to: .displayP3) == true)
        #expect(back.pixels.components(as: UInt16.self) == p3.components(as: UInt16.self))
    }

    @Test("truncated and corrupted PNGs throw")
    func damaged() throws {
        let bytes = try PNG.encode(TestImages.gradient(width: 64, height: 64))
        for cut in [7, 20, 40, bytes.count / 2, bytes.count - 5] {
            #expect(throws: CodecError.self) { _ = try PNG.decode(Array(bytes.prefix(cut))) }
        }
        var flipped = bytes
        flipped[bytes.count / 2] ^= 0x55  // inside IDAT: the CRC check fails
        #expect(throws: CodecError.self) { _ = try PNG.decode(flipped) }
    }
}
