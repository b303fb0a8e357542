import Foundation
import LuxCodecs
import LuxPixels
import LuxRender
import LuxTestSupport
import Testing

@testable import LuxRAW

/// Camera raws other than DNG, decoded by LibRaw and developed by Lux's own pipeline.
@Suite struct CameraRawDevelopment {
    /// BT.709 luma of every pixel of an 8-bit RGB(A) buffer.
    static func luma(_ b: PixelBuffer) -> [Double] {
        let rgba = b.converted(to: .rgba8).components(as: UInt8.self)
        return (0..<(b.width * b.height)).map { (i: Int) -> Double in
            let r = 0.2126 * Double(rgba[4 * i])
            let g = 0.7152 * Double(rgba[4 * i + 1])
            return r + g + 0.0722 * Double(rgba[4 * i + 2])
        }
    }

    static func correlation(_ a: [Double], _ b: [Double]) -> Double {
        let ma = a.reduce(0, +) / Double(a.count)
        let mb = b.reduce(0, +) / Double(b.count)
        var ab = 0.0
        var aa = 0.0
        var bb = 0.0
        for (x, y) in zip(a, b) {
            ab += (x - ma) * (y - mb)
            aa += (x - ma) * (x - ma)
            bb += (y - mb) * (y - mb)
        }
        return ab / (aa * bb).squareRoot()
    }

    @Test(
        "the real Kodak DC50 KDC develops like LibRaw's dcraw_emu -w (same size, luma correlation ≥ 0.9)",
        .needs("dcraw_emu"))
    func kodakMatchesLibRaw() throws {
        let dir = try ExternalTool.temporaryFolder("lux-kdc")
        defer { try? FileManager.default.removeItem(at: dir) }
        let kdc = dir.appendingPathComponent("kodak_dc50.kdc")
        try FileManager.default.copyItem(atPath: TestFiles.raw + "/kodak_dc50.kdc", toPath: kdc.path)
        let emu = dir.appendingPathComponent("emu.tiff")
        let run = try ExternalTool.capture("dcraw_emu", ["-w", "-T", "-Z", emu.path, kdc.path])
        try #require(run.status == 0, "\(run.errorText)")
        let theirs = try ImageFile.read(url: emu).pixels

        let developer = try RAWDeveloper(url: kdc)
        #expect(developer.rawImage.properties.make?.lowercased().contains("kodak") == true)
        let ours = try RenderContext().createBuffer(try developer.outputImage, format: .rgba8, colorSpace: .sRGB)
        #expect(ours.width == theirs.width && ours.height == theirs.height, "\(ours.width)×\(ours.height)")
        let r = Self.correlation(Self.luma(ours), Self.luma(theirs))
        print("KDC luma correlation with dcraw_emu -w: \(r)")
        #expect(r >= 0.9)
    }

    @Test(
        "metadata-only camera raws name the camera exiftool reads, then refuse as no pixel data",
        .needs("exiftool"),
        arguments: [
            "canon_350d_STRIPPED.cr2", "nikon_d70_STRIPPED.nef", "fujifilm_s5pro_STRIPPED.raf",
            "sony_zv-e10_TRUNCATED.arw",
        ])
    func metadataOnlyNamesCamera(_ name: String) throws {
        let path = TestFiles.raw + "/metadata-only/" + name
        let model = try ExternalTool.capture("exiftool", ["-s3", "-Model", path]).text
            .trimmingCharacters(in: .whitespacesAndNewlines)
        try #require(!model.isEmpty)
        let error = #expect(throws: RAWError.self) { _ = try RAWDeveloper(url: URL(fileURLWithPath: path)) }
        guard case .noPixelData(let why)? = error else {
            Issue.record("\(name): \(String(describing: error))")
            return
        }
        // exiftool says "Canon EOS 350D DIGITAL", "NIKON D70", "FinePix S5Pro", "ZV-E10": its last word is in ours.
        let word = model.split(separator: " ").last.map(String.init) ?? model
        #expect(why.lowercased().contains(word.lowercased()), "\(why) should name \(model)")
        #expect(why.contains(name), "\(why) should name the file")
    }

    @Test(
        "an X-Trans DNG develops like the Bayer DNG of the same scene, through Lux's decoder and through LibRaw",
        arguments: [false, true])
    func xTransMatchesBayer(throughLibRaw: Bool) throws {
        // Six-by-four patches of camera RGB (0…1 of the white level), the same scene under both layouts.
        let patches: [SIMD3<Double>] = (0..<24).map { i in
            let t = Double(i) / 23
            return SIMD3(0.08 + 0.5 * t, 0.1 + 0.4 * (1 - t) * t * 4 / 1.2, 0.55 - 0.45 * t)
        }
        let value = { (x: Int, y: Int) in patches[(y / 40) * 6 + x / 40] }
        let bayer = SyntheticRaw.field(width: 240, height: 160, value: value)
        var xTrans = bayer
        let pattern = XTransPattern()
        var pixels = PixelBuffer(width: 240, height: 160, format: .gray16)
        pixels.withUnsafeMutablePlane { plane in
            for y in 0..<160 {
                let row = plane.row(y, as: UInt16.self)
                for x in 0..<240 {
                    let v = value(x, y)[pattern.channel(x: x, y: y).rawValue]
                    row[x] = UInt16((SyntheticRaw.black + v * (SyntheticRaw.white - SyntheticRaw.black)).rounded())
                }
            }
        }
        xTrans.pixels = pixels
        xTrans.properties.cfa = CFALayout(pattern)
        let dir = try ExternalTool.temporaryFolder("lux-xtrans-dng")
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("xtrans.dng")
        try ImageFile.write(
            xTrans, to: url, options: EncodingOptions(dng: DNGEncodingOptions(compression: .uncompressed)))
        let developer = try RAWDeveloper(
            url: url, options: DecodingOptions(allowsMappedPixels: true, decodesDNGWithLibRaw: throughLibRaw))
        #expect(developer.rawImage.properties.xTransPattern == pattern)
        let a = try ColorAccuracy.render(try RAWDeveloper(rawImage: bayer).plain(toneCurve: true))
        let b = try ColorAccuracy.render(developer.plain(toneCurve: true))
        var worst = 0.0
        for number in 1...24 {
            let la = SyntheticRaw.lab(linearSRGB: SyntheticRaw.mean(a, SyntheticRaw.patchRect(number)))
            let lb = SyntheticRaw.lab(linearSRGB: SyntheticRaw.mean(b, SyntheticRaw.patchRect(number)))
            let d = la - lb
            worst = max(worst, (d * d).sum().squareRoot())
        }
        #expect(worst < 1, "largest patch difference ΔE*ab \(worst)")
    }

    @Test("the Canon 550D DNG through LibRaw gets the white balance and colour of Lux's own decode")
    func dngThroughLibRawKeepsColor() throws {
        let url = URL(fileURLWithPath: TestFiles.canon550D)
        let own = try RAWDeveloper(url: url)
        let lib = try RAWDeveloper(
            url: url, options: DecodingOptions(allowsMappedPixels: true, decodesDNGWithLibRaw: true))
        #expect(abs(lib.neutralTemperature - own.neutralTemperature) < 100, "\(lib.neutralTemperature) K")
        #expect(abs(lib.neutralTint - own.neutralTint) < 5, "tint \(lib.neutralTint)")
    }
}
