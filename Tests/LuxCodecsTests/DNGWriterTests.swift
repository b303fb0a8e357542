import Foundation
import LuxColor
import LuxPixels
import LuxTestSupport
import Testing

@testable import LuxCodecs

/// DNGs written by Lux: read back exactly by Lux, opened by dcraw, LibRaw and darktable, validated by exiftool.
@Suite struct DNGWriterTests {
    static let compressions: [DNGEncodingOptions.Compression] = [.uncompressed, .losslessJPEG]

    func write(_ raw: RawImage, _ compression: DNGEncodingOptions.Compression, in dir: URL, preview: Bool = false)
        throws -> URL
    {
        let url = dir.appendingPathComponent("lux-\(compression.rawValue).dng")
        var image = raw
        if preview {
            var rendered = PixelBuffer(width: 320, height: 240, format: .rgba8, colorSpace: .sRGB)
            for y in 0..<240 {
                for x in 0..<320 { rendered.setPixel(SIMD4(Float(x) / 320, Float(y) / 240, 0.5, 1), x: x, y: y) }
            }
            image.renderedPreview = rendered
        }
        try ImageFile.write(image, to: url, options: EncodingOptions(dng: DNGEncodingOptions(compression: compression)))
        return url
    }

    @Test("read back bit-exactly with every tag", arguments: compressions)
    func roundTrip(_ compression: DNGEncodingOptions.Compression) throws {
        let raw = SyntheticRaw.image()
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let back = try #require(try ImageFile.read(url: write(raw, compression, in: dir)).rawImage)
        #expect(back.pixels.format == .bayer16(.rggb))
        #expect(back.pixels.components(as: UInt16.self) == raw.pixels.components(as: UInt16.self))
        #expect(back.activeArea == raw.activeArea)
        #expect(back.defaultCrop == raw.defaultCrop)
        #expect(back.blackLevel == raw.blackLevel)
        #expect(back.whiteLevel == raw.whiteLevel)
        #expect(back.cfa == raw.cfa)
        #expect(back.color.colorMatrix1 == raw.color.colorMatrix1)
        #expect(back.color.calibrationIlluminant1 == .d65)
        #expect(
            Fixtures.close(
                try #require(back.color.asShotNeutral), try #require(raw.color.asShotNeutral), tolerance: 1e-6))
        #expect(back.baselineExposure == 0.5)
        #expect(back.noiseProfile == raw.noiseProfile)
        #expect(back.uniqueCameraModel == "Lux Synthetic Sensor")
        #expect(back.exif.exposureTime == Rational(1, 125))
        #expect(back.exif.dateTimeOriginal == raw.exif.dateTimeOriginal)
        #expect(back.storage.compression == (compression == .uncompressed ? 1 : 7))
        #expect(back.previews.count == 1)  // the generated IFD0 thumbnail
    }

    @Test("dcraw and LibRaw read the same sensor values", .needs("dcraw", "unprocessed_raw"), arguments: compressions)
    func dcrawAndLibRawAgree(_ compression: DNGEncodingOptions.Compression) throws {
        let raw = SyntheticRaw.image()
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = try write(raw, compression, in: dir)
        let dcraw = try NetpbmImage(ExternalTool.capture("dcraw", ["-D", "-4", "-c", url.path]).stdout)
        #expect(dcraw.samples == (try raw.sensorValues()).components(as: UInt16.self))
        _ = try ExternalTool.capture("unprocessed_raw", ["-q", url.path])
        let libraw = try NetpbmImage(Data(contentsOf: URL(fileURLWithPath: url.path + ".pgm")))
        #expect(libraw.samples == raw.pixels.components(as: UInt16.self))
    }

    /// Mean RGB of a rendered patch (coordinates relative to the rendered image's origin).
    func mean(_ img: NetpbmImage, _ rect: (Int, Int, Int, Int)) -> SIMD3<Double> {
        var s = SIMD3<Double>.zero
        let (x0, y0, w, h) = (rect.0 + rect.2 / 4, rect.1 + rect.3 / 4, rect.2 / 2, rect.3 / 2)
        for y in y0..<(y0 + h) {
            for x in x0..<(x0 + w) {
                let i = (y * img.width + x) * 3
                s += SIMD3(Double(img.samples[i]), Double(img.samples[i + 1]), Double(img.samples[i + 2]))
            }
        }
        return s / Double(w * h)
    }

    /// A plausible rendering keeps the neutral patch neutral and the red/green/blue patches in their hue.
    func expectPlausible(_ img: NetpbmImage, offset: (Int, Int), tool: String) {
        let chart = SyntheticRaw.patches(width: 640, height: 480)
        func at(_ name: String) -> SIMD3<Double> {
            let r = chart.first { $0.name == name }!.rect
            return mean(img, (r.0 - offset.0, r.1 - offset.1, r.2, r.3))
        }
        let n = at("neutral")
        let r = at("red")
        let g = at("green")
        let b = at("blue")
        let spread = (n.max() - n.min()) / max(n.max(), 1)
        #expect(spread < 0.12, "\(tool): neutral patch \(n) is not neutral")
        #expect(r.x > 1.5 * r.y && r.x > 1.5 * r.z, "\(tool): red patch \(r)")
        #expect(g.y > 1.2 * g.x && g.y > 1.2 * g.z, "\(tool): green patch \(g)")
        #expect(b.z > 1.2 * b.x && b.z > 1.2 * b.y, "\(tool): blue patch \(b)")
    }

    @Test("dcraw renders a plausible picture", .needs("dcraw"), arguments: compressions)
    func dcrawRenders(_ compression: DNGEncodingOptions.Compression) throws {
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = try write(SyntheticRaw.image(), compression, in: dir)
        let out = try ExternalTool.capture("dcraw", ["-w", "-q", "0", "-c", url.path])
        let img = try NetpbmImage(out.stdout)
        #expect(img.width == 640 && img.height == 480)
        expectPlausible(img, offset: (0, 0), tool: "dcraw")
    }

    @Test("LibRaw (dcraw_emu) renders a plausible picture", .needs("dcraw_emu"), arguments: compressions)
    func libRawRenders(_ compression: DNGEncodingOptions.Compression) throws {
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = try write(SyntheticRaw.image(), compression, in: dir)
        _ = try ExternalTool.capture("dcraw_emu", ["-w", "-q", "0", url.path])
        // dcraw_emu exits 0 even when it fails: its output file is the evidence.
        let img = try NetpbmImage(Data(contentsOf: URL(fileURLWithPath: url.path + ".ppm")))
        #expect(img.width == 640 && img.height == 480)
        expectPlausible(img, offset: (0, 0), tool: "dcraw_emu")
    }

    @Test(
        "darktable renders a plausible picture of the default crop", .timeLimit(.minutes(3)), .needs("darktable-cli"),
        arguments: compressions)
    func darktableRenders(_ compression: DNGEncodingOptions.Compression) throws {
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = try write(SyntheticRaw.image(), compression, in: dir)
        let out = dir.appendingPathComponent("dt.ppm")
        let run = try ExternalTool.capture(
            "darktable-cli",
            [
                url.path, out.path, "--core", "--configdir", dir.appendingPathComponent("dtconf").path, "--library",
                ":memory:",
                "--disable-opencl",
            ])
        guard FileManager.default.fileExists(atPath: out.path) else {
            Issue.record("darktable-cli failed: \(run.errorText)")
            return
        }
        let img = try NetpbmImage(Data(contentsOf: out))
        #expect(img.width == 632 && img.height == 472)  // DefaultCropSize
        expectPlausible(img, offset: (4, 4), tool: "darktable")
    }

    @Test(
        "exiftool validates the file without warnings and reads our tags", .needs("exiftool"), arguments: compressions)
    func exiftoolValidates(_ compression: DNGEncodingOptions.Compression) throws {
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let raw = SyntheticRaw.image()
        let url = try write(raw, compression, in: dir, preview: true)
        let verdict = try Fixtures.validate(url.path)
        #expect(verdict == "OK", "\(verdict)")
        let e = try Fixtures.exiftool(url.path)
        #expect(e["UniqueCameraModel"] as? String == "Lux Synthetic Sensor")
        #expect(Fixtures.numbers(e["DNGVersion"]) == [1, 4, 0, 0])
        #expect(Fixtures.numbers(e["BlackLevel"]) == [512])
        #expect(Fixtures.numbers(e["WhiteLevel"]) == [16383])
        #expect(Fixtures.numbers(e["ActiveArea"]) == [8, 8, 488, 648])
        #expect(Fixtures.numbers(e["DefaultCropOrigin"]) == [4, 4])
        #expect(Fixtures.numbers(e["DefaultCropSize"]) == [632, 472])
        #expect(Fixtures.numbers(e["CFAPattern2"]) == [0, 1, 1, 2])
        #expect(Fixtures.close(Fixtures.numbers(e["ColorMatrix1"]), SyntheticRaw.xyzToCamera.entries))
        #expect(Fixtures.close(Fixtures.numbers(e["AsShotNeutral"]), SyntheticRaw.neutral, tolerance: 1e-6))
        #expect(e["CalibrationIlluminant1"] as? Int == 21)
        #expect(Fixtures.close(Fixtures.numbers(e["ExposureTime"]), [1.0 / 125]))
        #expect(Fixtures.numbers(e["FNumber"]) == [1.8])
        #expect(e["ISO"] as? Int == 200)
        #expect(Fixtures.close(Fixtures.numbers(e["ExposureCompensation"]), [-2.0 / 3], tolerance: 1e-4))
        #expect(e["Flash"] as? Int == 0x10)
        #expect(e["LensModel"] as? String == "Lux 26mm f/1.8")
        #expect(e["DateTimeOriginal"] as? String == "2024:06:01 12:30:05")
        #expect(e["OffsetTimeOriginal"] as? String == "+02:00")
        #expect(e["SubSecTimeOriginal"] as? Int == 250 || e["SubSecTimeOriginal"] as? String == "250")
        #expect(Fixtures.numbers(e["NoiseProfile"]).count == 6)
    }

    @Test("a linear DNG from RGB pixels reads back and opens in dcraw", .needs("dcraw", "exiftool"))
    func linearDNG() throws {
        var rgb = PixelBuffer(width: 96, height: 64, format: .rgba16, colorSpace: .linearSRGB)
        for y in 0..<64 { for x in 0..<96 { rgb.setPixel(SIMD4(Float(x) / 95, Float(y) / 63, 0.25, 1), x: x, y: y) } }
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        for compression in Self.compressions {
            let url = dir.appendingPathComponent("linear-\(compression.rawValue).dng")
            try ImageFile.write(
                rgb, to: url, options: EncodingOptions(dng: DNGEncodingOptions(compression: compression)))
            let back = try #require(try ImageFile.read(url: url).rawImage)
            #expect(back.photometric == .linearRaw && back.samplesPerPixel == 3)
            #expect(back.pixels.components(as: UInt16.self) == rgb.components(as: UInt16.self))
            let verdict = try Fixtures.validate(url.path)
            #expect(verdict == "OK", "\(verdict)")
            let out = try ExternalTool.capture("dcraw", ["-4", "-c", url.path])
            let img = try NetpbmImage(out.stdout)
            #expect(img.width == 96 && img.height == 64)
        }
    }

    @Test("writing refuses a CFA image without a colour matrix, and an active area outside the image")
    func invalidDescriptions() throws {
        var raw = SyntheticRaw.image(width: 64, height: 48)
        raw.properties.color.colorMatrix1 = nil
        #expect(throws: CodecError.self) { _ = try DNG.encode(raw) }
        raw = SyntheticRaw.image(width: 64, height: 48)
        raw.properties.activeArea = RawArea(top: 0, left: 0, bottom: 1000, right: 10)
        #expect(throws: CodecError.self) { _ = try DNG.encode(raw) }
    }

    @Test("opcode lists round-trip as typed values", .needs("exiftool"))
    func opcodes() throws {
        var raw = SyntheticRaw.image(width: 64, height: 48)
        let gain = GainMap(
            area: OpcodeArea(top: 0, left: 0, bottom: 48, right: 64, rowPitch: 2, columnPitch: 2), pointsV: 2,
            pointsH: 3,
            spacingV: 1, spacingH: 0.5, mapPlanes: 1, gains: [1, 1.1, 1.2, 1.3, 1.4, 1.5])
        raw.opcodeList2 = [DNGOpcode(.gainMap(gain))]
        raw.opcodeList3 = [
            DNGOpcode(
                .warpRectilinear(WarpRectilinear(planes: [.init(radial: [1, -0.01, 0.002, 0], tangential: [0, 0])]))),
            DNGOpcode(.fixVignetteRadial(FixVignetteRadial(coefficients: [0.1, 0.02, 0, 0, 0]))),
            DNGOpcode(.other(id: 6, parameters: [0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 30, 0, 0, 0, 40])),
        ]
        let back = try #require(try DNG.decode(DNG.encode(raw)).rawImage)
        #expect(back.opcodeList2 == raw.opcodeList2)
        #expect(back.opcodeList3 == raw.opcodeList3)
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("op.dng")
        try ImageFile.write(raw, to: url)
        let text = try ExternalTool.capture("exiftool", ["-OpcodeList2", "-OpcodeList3", url.path]).text
        #expect(text.contains("GainMap"))
        #expect(
            text.contains("WarpRectilinear") && text.contains("FixVignetteRadial") && text.contains("TrimBounds"))
    }
}

/// The Adobe DNG SDK (``AdobeDNGSDK``) as an oracle.
@Suite struct AdobeDNGSDKTests {
    @Test(
        "the Adobe DNG SDK reads Lux's DNGs without warnings and gets the same raw values", .needsDNGSDK,
        arguments: DNGWriterTests.compressions)
    func sdkReads(_ compression: DNGEncodingOptions.Compression) throws {
        let raw = SyntheticRaw.image()
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("sdk.dng")
        let out = dir.appendingPathComponent("raw.u16")
        try ImageFile.write(raw, to: url, options: EncodingOptions(dng: DNGEncodingOptions(compression: compression)))
        let reading = try AdobeDNGSDK.read(url, rawValues: out)
        #expect(reading.complaints.isEmpty, "\(reading.complaints)")
        #expect(reading.bayerPattern == "RGGB")
        let data = try Data(contentsOf: out)
        let values = data.withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)) }
        #expect(values == raw.pixels.components(as: UInt16.self))
    }
}

@Suite struct DNGDescriptionTests {
    /// Every optional tag of the raw description, with values that do not fall on defaults.
    static func fullyDescribed() -> RawImage {
        var raw = SyntheticRaw.image(width: 96, height: 64)
        let a = raw.activeArea
        raw.blackLevel = BlackLevel(
            repeatRows: 2, repeatColumns: 2, values: [510, 512.5, 511, 513],
            deltaH: (0..<a.width).map { Double($0 % 3) * 0.5 },
            deltaV: (0..<a.height).map { -Double($0 % 2) })
        raw.whiteLevel = [16000]
        raw.linearizationTable = (0..<16384).map { UInt16($0 * 4) }
        raw.maskedAreas = [RawArea(top: 0, left: 0, bottom: a.top, right: raw.width)]
        raw.color.colorMatrix2 = SyntheticRaw.xyzToCamera
        raw.color.calibrationIlluminant2 = .d65
        raw.color.colorMatrix1 = Matrix3x3([0.7, -0.2, -0.05, -0.4, 1.2, 0.2, -0.1, 0.2, 0.7])
        raw.color.calibrationIlluminant1 = .standardA
        raw.color.forwardMatrix1 = Matrix3x3([0.6, 0.3, 0.0642, 0.25, 0.7, 0.05, 0.02, 0.0949, 0.71])
        raw.color.forwardMatrix2 = Matrix3x3([0.62, 0.28, 0.0642, 0.26, 0.69, 0.05, 0.03, 0.0849, 0.71])
        raw.color.cameraCalibration1 = Matrix3x3([1.01, 0, 0, 0, 1, 0, 0, 0, 0.99])
        raw.color.analogBalance = [1, 1, 1]
        raw.color.asShotNeutral = nil
        raw.color.asShotWhiteXY = Chromaticity(x: 0.3457, y: 0.3585)
        raw.color.profileName = "Lux Standard"
        raw.baselineNoise = 0.8
        raw.baselineSharpness = 1.2
        raw.linearResponseLimit = 0.9
        raw.shadowScale = 1
        raw.bayerGreenSplit = 120
        raw.antiAliasStrength = 0.5
        raw.bestQualityScale = 1
        raw.defaultScale = [1, 1]
        raw.defaultUserCrop = [0.1, 0.1, 0.9, 0.9]
        raw.rawDataUniqueID = (0..<16).map { UInt8($0 * 7) }
        raw.originalRawFileName = "LUX_0001.RAW"
        raw.cameraSerialNumber = "SN-42"
        raw.localizedCameraModel = "Synthetic Sensor"
        raw.exif.gps = GPSInfo(latitude: -33.8568, longitude: 151.2153, altitude: -2)
        return raw
    }

    @Test(
        "every tag of the description survives a write and read", .needs("exiftool", "unprocessed_raw"),
        .needsDNGSDK, arguments: DNGWriterTests.compressions)
    func roundTrip(_ compression: DNGEncodingOptions.Compression) throws {
        let raw = Self.fullyDescribed()
        let bytes = try DNG.encode(raw, options: EncodingOptions(dng: DNGEncodingOptions(compression: compression)))
        let back = try #require(try DNG.decode(bytes).rawImage)
        #expect(back.pixels.components(as: UInt16.self) == raw.pixels.components(as: UInt16.self))
        #expect(back.blackLevel == raw.blackLevel)
        #expect(back.whiteLevel == raw.whiteLevel)
        #expect(back.linearizationTable == raw.linearizationTable)
        #expect(back.maskedAreas == raw.maskedAreas)
        #expect(back.color.colorMatrix1 == raw.color.colorMatrix1 && back.color.colorMatrix2 == raw.color.colorMatrix2)
        #expect(back.color.calibrationIlluminant1 == .standardA && back.color.calibrationIlluminant2 == .d65)
        #expect(
            back.color.forwardMatrix1 == raw.color.forwardMatrix1
                && back.color.forwardMatrix2 == raw.color.forwardMatrix2)
        #expect(back.color.cameraCalibration1 == raw.color.cameraCalibration1)
        #expect(back.color.asShotNeutral == nil && back.color.asShotWhiteXY == raw.color.asShotWhiteXY)
        #expect(back.color.profileName == "Lux Standard")
        #expect(back.baselineNoise == 0.8 && back.baselineSharpness == 1.2 && back.linearResponseLimit == 0.9)
        #expect(back.bayerGreenSplit == 120 && back.antiAliasStrength == 0.5 && back.bestQualityScale == 1)
        #expect(back.defaultUserCrop == raw.defaultUserCrop)
        #expect(back.rawDataUniqueID == raw.rawDataUniqueID)
        #expect(back.originalRawFileName == "LUX_0001.RAW" && back.cameraSerialNumber == "SN-42")
        #expect(back.localizedCameraModel == "Synthetic Sensor")
        #expect(back.exif.gps?.latitude.map { abs($0 + 33.8568) < 1e-7 } == true)
        #expect(back.exif.gps?.altitude == -2)
        // Oracles for the linearised values: LibRaw applies the table while unpacking (uncompressed data; with
        // lossless-JPEG tiles and a table LibRaw 0.20 and dcraw 9.28 return different values from the Adobe
        // SDK, which reads our stage-1 values exactly); the Adobe DNG SDK reads the stored values.
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("full.dng")
        try Data(bytes).write(to: url)
        if compression == .uncompressed {
            _ = try ExternalTool.capture("unprocessed_raw", ["-q", url.path])
            let libraw = try NetpbmImage(Data(contentsOf: URL(fileURLWithPath: url.path + ".pgm")))
            let table = try #require(raw.linearizationTable)
            let linearised = raw.pixels.components(as: UInt16.self).map { table[min(Int($0), table.count - 1)] }
            #expect(libraw.samples == linearised)
        }
        let out = dir.appendingPathComponent("raw.u16")
        let reading = try AdobeDNGSDK.read(url, rawValues: out)
        #expect(reading.complaints.isEmpty, "\(reading.complaints)")
        let values = try Data(contentsOf: out).withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)) }
        #expect(values == raw.pixels.components(as: UInt16.self))
        let verdict = try Fixtures.validate(url.path)
        #expect(verdict == "OK", "\(verdict)")
        let e = try Fixtures.exiftool(url.path)
        #expect(Fixtures.numbers(e["BlackLevelRepeatDim"]) == [2, 2])
        #expect(Fixtures.numbers(e["BlackLevel"]) == [510, 512.5, 511, 513])
        #expect(e["CalibrationIlluminant1"] as? Int == 17 && e["CalibrationIlluminant2"] as? Int == 21)
        #expect(Fixtures.numbers(e["AsShotWhiteXY"]) == [0.3457, 0.3585])
        #expect(e["ProfileName"] as? String == "Lux Standard")
    }
}

@Suite struct RawThumbnailTests {
    @Test("the thumbnail made from raw data keeps neutral patches neutral and colours in their hue")
    func plausibleThumbnail() throws {
        let raw = SyntheticRaw.image()
        let back = try #require(try DNG.decode(DNG.encode(raw)).rawImage)
        let thumb = try #require(back.previews.first).image()
        #expect(max(thumb.width, thumb.height) <= 256)
        let scale = Double(thumb.width) / 640
        func mean(_ name: String) -> SIMD4<Float> {
            let r = SyntheticRaw.patches(width: 640, height: 480).first { $0.name == name }!.rect
            let cx = Int((Double(r.0) + Double(r.2) / 2) * scale)
            let cy = Int((Double(r.1) + Double(r.3) / 2) * scale)
            return thumb.pixel(x: cx, y: cy)
        }
        let n = mean("neutral")
        let red = mean("red")
        let green = mean("green")
        let blue = mean("blue")
        #expect(abs(n.x - n.y) < 0.03 && abs(n.z - n.y) < 0.03, "neutral \(n)")
        #expect(red.x > red.y + 0.2 && red.x > red.z + 0.2, "red \(red)")
        #expect(green.y > green.x && green.y > green.z, "green \(green)")
        #expect(blue.z > blue.x && blue.z > blue.y, "blue \(blue)")
    }
}
