import Foundation
import LuxCodecs
import LuxColor
import LuxPixels
import LuxRender
import LuxTestSupport
import RealModule
import Testing

@testable import LuxRAW

/// Every decodable DNG of the test data develops to a JPEG that matches LibRaw's render
/// (`dcraw_emu -w -o 1`) after exposure and gamma normalisation, with exiftool's DefaultCrop and Orientation.
///
/// The threshold, 30 dB CPSNR on 8×-downscaled (4× for half size) sRGB-encoded images: the renders differ
/// legitimately in demosaicing (RCD vs AHD), noise reduction, sharpening and highlight handling, which
/// downscaling mostly averages out — the 550D measures 39.5 dB and the half-size 12 MP files 36.2 dB — while a
/// wrong white balance (3000 K instead of as shot, the negative control below) drops to 16.5 dB.
@Suite(.serialized) struct LibRawComparison {
    struct Case: Sendable, CustomTestStringConvertible {
        var file: String
        var half: Bool
        var testDescription: String { (file as NSString).lastPathComponent + (half ? " (half size)" : "") }
    }

    static let cases = [
        Case(file: "canon_eos550d_magiclantern_14bit.dng", half: false),
        Case(file: "derived/synthetic12mp_canon550d_tiled_uncompressed.dng", half: true),
        Case(file: "derived/synthetic12mp_canon550d_tiled_lj92.dng", half: true),
    ]

    /// Linear light of an 8-bit sRGB value.
    static func srgbToLinear(_ v: Double) -> Double { v <= 0.04045 ? v / 12.92 : Double.pow((v + 0.055) / 1.055, 2.4) }
    static func linearToSRGB(_ v: Double) -> Double {
        let c = min(max(v, 0), 1)
        return c <= 0.0031308 ? 12.92 * c : 1.055 * Double.pow(c, 1 / 2.4) - 0.055
    }
    /// Linear light of LibRaw's default output curve (BT.709: power 1/2.222, slope 4.5).
    static func bt709ToLinear(_ v: Double) -> Double { v < 0.081 ? v / 4.5 : Double.pow((v + 0.099) / 1.099, 1 / 0.45) }

    /// Box-downscales 8-bit RGB(A) to linear floats by `f`.
    static func downscale(_ b: PixelBuffer, by f: Int, decode: (Double) -> Double) -> (
        w: Int, h: Int, px: [SIMD3<Double>]
    ) {
        let rgba = b.converted(to: .rgba8).components(as: UInt8.self)
        let lut = (0..<256).map { decode(Double($0) / 255) }
        let w = b.width / f
        let h = b.height / f
        var out = [SIMD3<Double>](repeating: .zero, count: w * h)
        for y in 0..<(h * f) {
            for x in 0..<(w * f) {
                let o = 4 * (y * b.width + x)
                out[(y / f) * w + x / f] += SIMD3(lut[Int(rgba[o])], lut[Int(rgba[o + 1])], lut[Int(rgba[o + 2])])
            }
        }
        return (w, h, out.map { $0 / Double(f * f) })
    }

    static func exifInts(_ file: String, _ tag: String) throws -> [Double] {
        let r = try ExternalTool.capture("exiftool", ["-s3", "-n", "-" + tag, file])
        return r.text.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Double($0) }
    }

    @Test(
        "develops like LibRaw (CPSNR after exposure/gamma normalisation) with exiftool's crop and orientation",
        .needs("dcraw_emu", "exiftool"), arguments: cases)
    func matchesLibRaw(_ c: Case) throws {
        let path = try TestData.path("raw/" + c.file)
        let dir = try ExternalTool.temporaryFolder("lux-libraw")
        defer { try? FileManager.default.removeItem(at: dir) }

        // Lux: default development (scene-referred: no tone curve, so both renders are plain gamma curves).
        var developer = try RAWDeveloper(url: URL(fileURLWithPath: path))
        developer.boostAmount = 0
        developer.scaleFactor = c.half ? 0.5 : 1
        let pixels = try RenderContext().createBuffer(try developer.outputImage, format: .rgba8, colorSpace: .sRGB)
        let jpeg = dir.appendingPathComponent("lux.jpg")
        try ImageFile.write(pixels, to: jpeg, options: EncodingOptions(quality: 0.9))
        let ours = try ImageFile.read(url: jpeg).pixels

        // Crop and orientation from exiftool.
        let size = try Self.exifInts(path, "DefaultCropSize")
        let orientation = try Self.exifInts(path, "Orientation").first ?? 1
        var expected =
            size.count == 2
            ? (size[0], size[1]) : (Double(developer.nativeSize.width), Double(developer.nativeSize.height))
        if orientation >= 5 { expected = (expected.1, expected.0) }
        let scale = c.half ? 0.5 : 1
        #expect(
            abs(Double(ours.width) - expected.0 * scale) <= 1 && abs(Double(ours.height) - expected.1 * scale) <= 1,
            "Lux \(ours.width)×\(ours.height), exiftool \(expected)")

        // LibRaw.
        let copy = dir.appendingPathComponent("in.dng")
        try FileManager.default.copyItem(atPath: path, toPath: copy.path)
        let tiff = dir.appendingPathComponent("libraw.tiff")
        _ = try ExternalTool.capture(
            "dcraw_emu", ["-w", "-o", "1", "-T"] + (c.half ? ["-h"] : []) + ["-Z", tiff.path, copy.path])
        let theirs = try ImageFile.read(url: tiff).pixels
        let f = c.half ? 4 : 8
        let cpsnr = Self.normalizedCPSNR(ours, theirs, factor: f)
        print("\(c.testDescription): CPSNR vs LibRaw \(cpsnr) dB")
        #expect(cpsnr > 30)
        if !c.half {
            // Negative control: the same file with a wrong white balance (3000 K) must fail the threshold.
            developer.neutralTemperature = 3000
            let wrong = try RenderContext().createBuffer(try developer.outputImage, format: .rgba8, colorSpace: .sRGB)
            let bad = Self.normalizedCPSNR(wrong, theirs, factor: f)
            print("  wrong white balance: \(bad) dB")
            #expect(bad < 30)
        }
    }

    /// CPSNR of two 8-bit renders after both are decoded to linear light, box-downscaled by `factor`, and the
    /// second is scaled by the least-squares exposure gain; compared in sRGB encoding.
    static func normalizedCPSNR(_ ours: PixelBuffer, _ theirs: PixelBuffer, factor f: Int) -> Double {
        let a = Self.downscale(ours, by: f, decode: Self.srgbToLinear)
        let b = Self.downscale(theirs, by: f, decode: Self.bt709ToLinear)
        let w = min(a.w, b.w)
        let h = min(a.h, b.h)
        // Exposure: the least-squares gain between the two linear images, on unclipped pixels.
        var num = 0.0
        var den = 0.0
        for y in 0..<h {
            for x in 0..<w {
                let p = a.px[y * a.w + x]
                let q = b.px[y * b.w + x]
                guard p.max() < 0.9, q.max() < 0.9 else { continue }
                num += (p * q).sum()
                den += (q * q).sum()
            }
        }
        let k = num / den
        var mse = 0.0
        for y in 0..<h {
            for x in 0..<w {
                let p = a.px[y * a.w + x]
                let q = b.px[y * b.w + x] * k
                for ch in 0..<3 {
                    let d = Self.linearToSRGB(p[ch]) - Self.linearToSRGB(q[ch])
                    mse += d * d
                }
            }
        }
        return psnr(meanSquaredError: mse / Double(3 * w * h))
    }
}
