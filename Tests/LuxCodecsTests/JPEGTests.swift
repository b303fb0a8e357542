import Foundation
import LuxColor
import LuxPixels
import LuxTestSupport
import Testing

@testable import LuxCodecs

/// JPEG decoding and encoding, with libjpeg-turbo's own command-line tools and exiftool as oracles.
@Suite struct JPEGTests {
    static let livePhoto = "livephoto/iphone6s_livephoto_train.jpg"

    @Test(
        "a real iPhone JPEG decodes to exactly what djpeg produces, with its Exif and Live Photo identifier",
        .needs("djpeg"))
    func iPhoneJPEG() throws {
        let file = try ImageFile.read(url: Fixtures.url(Self.livePhoto))
        #expect(file.pixels.width == 4032 && file.pixels.height == 3024 && file.pixels.format == .rgba8)
        #expect(file.metadata.livePhotoContentIdentifier == "E905E6C6-C747-4805-942F-9904A0281F02")
        #expect(file.metadata.exif.make == "Apple" && file.metadata.exif.model == "iPhone 6s")
        let ppm = try NetpbmImage(ExternalTool.capture("djpeg", ["-pnm", Fixtures.url(Self.livePhoto).path]).stdout)
        #expect(TestImages.rgbSamples(file.pixels) == ppm.samples)
    }

    @Test("decoding reduced by 2, 4 and 8 gives exactly djpeg -scale 1/n", .needs("djpeg"), arguments: [2, 4, 8])
    func reducedDecode(denominator: Int) throws {
        let bytes = try Fixtures.bytes(Self.livePhoto)
        let file = try JPEG.decode(bytes, reducedBy: denominator)
        #expect(file.pixels.width == (4032 + denominator - 1) / denominator)
        #expect(file.pixels.height == (3024 + denominator - 1) / denominator)
        #expect(throws: CodecError.self) { _ = try JPEG.decode(bytes, reducedBy: 3) }
        let ppm = try NetpbmImage(
            ExternalTool.capture("djpeg", ["-pnm", "-scale", "1/\(denominator)", Fixtures.url(Self.livePhoto).path])
                .stdout)
        #expect(ppm.width == file.pixels.width && ppm.height == file.pixels.height)
        #expect(TestImages.rgbSamples(file.pixels) == ppm.samples)
    }

    @Test("the pixels a JPEG encodes are the sRGB encoding of linear light, and encoding them writes the same file")
    func encodedPixels() throws {
        // Linear 0, 0.5, 0.18 and 1 in extended linear sRGB, written as an sRGB JPEG.
        let linear: [Float] = [0, 0.5, 0.18, 1, 1, 0.5, 0, 1]
        let pixels = PixelBuffer(
            width: 2, height: 1, format: .rgbaFloat, components: linear, colorSpace: .extendedLinearSRGB)
        let options = EncodingOptions(quality: 0.9, colorSpace: .sRGB)
        let encoded = try JPEG.encodedPixels(of: pixels, options: options)
        #expect(encoded.format == .rgba8 && encoded.colorSpace?.isColorimetricallyEqual(to: .sRGB) == true)
        // IEC 61966-2-1's encoding, written out.
        let expected = linear.enumerated().map { i, l -> UInt8 in
            if i % 4 == 3 { return UInt8((l * 255).rounded()) }
            let e = l <= 0.003_130_8 ? 12.92 * Double(l) : 1.055 * pow(Double(l), 1 / 2.4) - 0.055
            return UInt8((e * 255).rounded())
        }
        #expect(encoded.components(as: UInt8.self) == expected)
        #expect(try JPEG.encode(encoded, options: options) == JPEG.encode(pixels, options: options))
    }

    @Test("Exif of the iPhone JPEG matches exiftool", .needs("exiftool"))
    func iPhoneExif() throws {
        let e = try Fixtures.exiftool(Fixtures.url(Self.livePhoto).path)
        let exif = try ImageFile.info(url: Fixtures.url(Self.livePhoto)).metadata.exif
        #expect(Fixtures.close([try #require(exif.exposureTime).doubleValue], Fixtures.numbers(e["ExposureTime"])))
        #expect(Fixtures.close([try #require(exif.fNumber).doubleValue], Fixtures.numbers(e["FNumber"])))
        #expect(exif.isoSpeed == e["ISO"] as? Int)
        #expect(Fixtures.close([try #require(exif.focalLength).doubleValue], Fixtures.numbers(e["FocalLength"])))
        #expect(exif.dateTimeOriginal?.exifString == e["DateTimeOriginal"] as? String)
        #expect(exif.dateTimeOriginal?.offsetString == e["OffsetTimeOriginal"] as? String)
        #expect(exif.lensModel == e["LensModel"] as? String)
        #expect(exif.flash?.rawValue == (e["Flash"] as? Int).map(UInt16.init))
        #expect(Fixtures.close([try #require(exif.gps?.latitude)], Fixtures.numbers(e["GPSLatitude"]), tolerance: 1e-7))
        #expect(
            Fixtures.close([try #require(exif.gps?.longitude)], Fixtures.numbers(e["GPSLongitude"]), tolerance: 1e-7))
    }

    /// Variants made by cjpeg from one picture: subsampling, progressive, grayscale.
    static let variants: [(String, [String])] = [
        ("4:2:0", ["-sample", "2x2"]), ("4:2:2", ["-sample", "2x1"]), ("4:4:4", ["-sample", "1x1"]),
        ("progressive", ["-progressive"]), ("grayscale", ["-grayscale"]), ("arithmetic", ["-arithmetic"]),
    ]

    @Test(
        "files written by cjpeg decode exactly as djpeg decodes them", .needs("cjpeg", "djpeg"),
        arguments: variants.map(\.0))
    func cjpegVariants(_ name: String) throws {
        let args = Self.variants.first { $0.0 == name }!.1
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let src = dir.appendingPathComponent("in.ppm")
        let jpg = dir.appendingPathComponent("out.jpg")
        try TestImages.ppm(TestImages.gradient(width: 131, height: 77)).write(to: src)
        let made = try ExternalTool.capture("cjpeg", args + ["-outfile", jpg.path, src.path])
        try #require(made.status == 0, "cjpeg \(args): \(made.errorText)")
        let file = try ImageFile.read(url: jpg)
        let reference = try NetpbmImage(ExternalTool.capture("djpeg", ["-pnm", jpg.path]).stdout)
        #expect(file.pixels.format == (name == "grayscale" ? .gray8 : .rgba8))
        #expect(TestImages.rgbSamples(file.pixels) == reference.samples)
        let info = try ImageFile.info(url: jpg)
        if name.contains(":") { #expect(info.storage.contains(name)) }
        if name == "progressive" { #expect(info.storage.contains("progressive")) }
    }

    @Test(
        "encoding with the same settings as cjpeg gives the same pixels; subsampling as requested",
        .needs("cjpeg", "djpeg", "exiftool"), arguments: ChromaSubsampling.allCases)
    func encodeMatchesCjpeg(_ subsampling: ChromaSubsampling) throws {
        let image = TestImages.gradient(width: 200, height: 150)
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let ours = dir.appendingPathComponent("ours.jpg")
        let theirs = dir.appendingPathComponent("theirs.jpg")
        let src = dir.appendingPathComponent("in.ppm")
        try TestImages.ppm(image).write(to: src)
        try ImageFile.write(image, to: ours, options: EncodingOptions(quality: 0.9, chromaSubsampling: subsampling))
        let sample = ["4:4:4": "1x1", "4:2:2": "2x1", "4:2:0": "2x2"][subsampling.rawValue]!
        _ = try ExternalTool.capture(
            "cjpeg", ["-quality", "90", "-optimize", "-sample", sample, "-outfile", theirs.path, src.path])
        let a = try NetpbmImage(ExternalTool.capture("djpeg", ["-pnm", ours.path]).stdout)
        let b = try NetpbmImage(ExternalTool.capture("djpeg", ["-pnm", theirs.path]).stdout)
        #expect(a.samples == b.samples)
        #expect(psnr(a.samples, TestImages.rgbSamples(image), peak: 255) > 26)
        let e = try Fixtures.exiftool(ours.path)
        let expected = ["4:4:4": [1.0, 1], "4:2:2": [2.0, 1], "4:2:0": [2.0, 2]][subsampling.rawValue]!
        #expect(Fixtures.numbers(e["YCbCrSubSampling"]) == expected)
    }

    @Test("progressive and optimised-Huffman options take effect; quality changes the size")
    func encoderOptions() throws {
        let image = TestImages.gradient(width: 256, height: 256)
        let plain = try JPEG.encode(image, options: EncodingOptions(quality: 0.9, optimizesHuffmanTables: false))
        let optimized = try JPEG.encode(image, options: EncodingOptions(quality: 0.9, optimizesHuffmanTables: true))
        let progressive = try JPEG.encode(image, options: EncodingOptions(quality: 0.9, isProgressive: true))
        let low = try JPEG.encode(image, options: EncodingOptions(quality: 0.3))
        #expect(optimized.count < plain.count)
        #expect(low.count < optimized.count)
        #expect(try JPEGHeader(bytes: progressive).process == .progressive)
        #expect(try JPEGHeader(bytes: plain).process == .baseline)
        let gray = try JPEG.encode(image.converted(to: .gray8))
        #expect(try JPEGHeader(bytes: gray).componentCount == 1)
    }

    @Test("Exif written by Lux reads back identically in exiftool", .needs("exiftool"))
    func exifRoundTrip() throws {
        var m = ImageMetadata()
        m.exif.make = "Lux"
        m.exif.model = "Simulated Camera"
        m.exif.software = "Lux 0.1"
        m.exif.orientation = .right
        m.exif.exposureTime = Rational(1, 250)
        m.exif.fNumber = Rational(28, 10)
        m.exif.isoSpeed = 640
        m.exif.exposureBias = Rational(-1, 3)
        m.exif.focalLength = Rational(435, 100)
        m.exif.focalLengthIn35mmFilm = 26
        m.exif.flash = .autoFired
        m.exif.meteringMode = 5
        m.exif.exposureProgram = 2
        m.exif.whiteBalance = 0
        m.exif.lensMake = "Lux"
        m.exif.lensModel = "Lux back camera 4.35mm f/2.8"
        m.exif.lensSpecification = [Rational(435, 100), Rational(435, 100), Rational(28, 10), Rational(28, 10)]
        m.exif.dateTimeOriginal = EXIFDateTime(
            year: 2025, month: 2, day: 3, hour: 4, minute: 5, second: 6, subsecond: "789", utcOffsetMinutes: -300)
        m.exif.dateTime = m.exif.dateTimeOriginal
        m.exif.gps = GPSInfo(latitude: 48.858_37, longitude: -2.294_48, altitude: 35.5)
        m.exif.appleMakerNote = AppleMakerNote(contentIdentifier: "5B4D0C8E-1C2A-4F8E-9A57-0D2C1F3E4B6A")
        m.xmp = Array(
            "<?xpacket begin='\u{FEFF}' id='W5M0MpCehiHzreSzNTczkc9d'?><x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\"><rdf:Description xmlns:xmp=\"http://ns.adobe.com/xap/1.0/\" xmp:Rating=\"4\"/></rdf:RDF></x:xmpmeta><?xpacket end='w'?>"
                .utf8)
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        for format in [ImageFormat.jpeg, .png, .tiff] {
            let url = dir.appendingPathComponent("exif.\(format.fileExtension)")
            try ImageFile.write(TestImages.gradient(width: 64, height: 48), metadata: m, to: url)
            let e = try Fixtures.exiftool(url.path)
            #expect(e["Make"] as? String == "Lux", "\(format)")
            #expect(e["Model"] as? String == "Simulated Camera")
            #expect(e["Orientation"] as? Int == 6)
            #expect(Fixtures.numbers(e["ExposureTime"]) == [0.004])
            #expect(Fixtures.numbers(e["FNumber"]) == [2.8])
            #expect(e["ISO"] as? Int == 640)
            #expect(Fixtures.close(Fixtures.numbers(e["ExposureCompensation"]), [-1.0 / 3], tolerance: 1e-4))
            #expect(Fixtures.numbers(e["FocalLength"]) == [4.35])
            #expect(e["FocalLengthIn35mmFormat"] as? Int == 26)
            #expect(e["Flash"] as? Int == 0x19)
            #expect(e["MeteringMode"] as? Int == 5)
            #expect(e["LensModel"] as? String == "Lux back camera 4.35mm f/2.8")
            #expect(Fixtures.numbers(e["LensInfo"]) == [4.35, 4.35, 2.8, 2.8])
            #expect(e["DateTimeOriginal"] as? String == "2025:02:03 04:05:06")
            #expect(e["OffsetTimeOriginal"] as? String == "-05:00")
            #expect(Fixtures.numbers(e["SubSecTimeOriginal"]) == [789])
            #expect(Fixtures.close(Fixtures.numbers(e["GPSLatitude"]), [48.858_37], tolerance: 1e-8))
            #expect(Fixtures.close(Fixtures.numbers(e["GPSLongitude"]), [-2.294_48], tolerance: 1e-8))
            #expect(Fixtures.numbers(e["GPSAltitude"]) == [35.5])
            let id = (e["ContentIdentifier"] ?? e["MediaGroupUUID"]) as? String
            #expect(id == "5B4D0C8E-1C2A-4F8E-9A57-0D2C1F3E4B6A", "\(format) maker note")
            #expect(e["Rating"] as? Int == 4, "\(format) XMP")
            // exiftool's TIFF rules also ask for GPSProcessingMethod, which Exif makes optional and Lux does not invent.
            let verdict = try Fixtures.validate(url.path)
            let ok =
                verdict == "OK"
                || (format == .tiff
                    && verdict.split(separator: "\n").filter { $0.hasPrefix("Warning") }.allSatisfy {
                        $0.contains("GPSProcessingMethod")
                    })
            #expect(ok, "\(format): \(verdict)")
            // And Lux reads back what it wrote.
            let back = try ImageFile.read(url: url).metadata
            #expect(
                back.exif.exposureTime == m.exif.exposureTime && back.exif.dateTimeOriginal == m.exif.dateTimeOriginal)
            #expect(back.livePhotoContentIdentifier == "5B4D0C8E-1C2A-4F8E-9A57-0D2C1F3E4B6A")
            #expect(back.xmp == m.xmp)
        }
    }

    @Test("orientation is applied on request: the stored top-left pixel ends where the tag says")
    func orientation() throws {
        var image = PixelBuffer(width: 32, height: 16, format: .rgba8, colorSpace: .sRGB)
        for y in 0..<16 { for x in 0..<32 { image.setPixel(SIMD4(x < 16 ? 1 : 0, y < 8 ? 1 : 0, 0, 1), x: x, y: y) } }
        var m = ImageMetadata()
        m.orientation = .right  // rotate 90° clockwise to view
        let bytes = try JPEG.encode(image, metadata: m, options: EncodingOptions(quality: 1, chromaSubsampling: .none))
        let upright = try JPEG.decode(bytes, options: DecodingOptions(appliesOrientation: true))
        #expect(upright.pixels.width == 16 && upright.pixels.height == 32)
        #expect(upright.metadata.orientation == .up)
        // The stored top-left (red + green = yellow) quadrant is now top-right.
        let p = upright.pixels.pixel(x: 12, y: 4)
        #expect(p.x > 0.9 && p.y > 0.9 && p.z < 0.1)
        let stored = try JPEG.decode(bytes)
        #expect(stored.pixels.width == 32 && stored.metadata.orientation == .right)
    }

    @Test("truncated JPEGs throw")
    func truncated() throws {
        let bytes = try JPEG.encode(TestImages.gradient(width: 128, height: 128))
        for cut in [10, 200, bytes.count / 2, bytes.count - 3] {
            #expect(throws: CodecError.self) { _ = try JPEG.decode(Array(bytes.prefix(cut))) }
        }
    }

    @Test("wide-gamut pixels are converted to sRGB when optimising colour for sharing")
    func sharing() throws {
        var p3 = PixelBuffer(width: 8, height: 8, format: .rgbaFloat, colorSpace: .displayP3)
        for y in 0..<8 { for x in 0..<8 { p3.setPixel(SIMD4(1, 0, 0, 1), x: x, y: y) } }
        let shared = try JPEG.decode(
            JPEG.encode(
                p3, options: EncodingOptions(quality: 1, chromaSubsampling: .none, optimizesColorForSharing: true)))
        #expect(shared.pixels.colorSpace?.isColorimetricallyEqual(to: .sRGB) == true)
        // P3 red is outside sRGB: it clips to (1, 0, 0) after conversion.
        let v = shared.pixels.pixel(x: 4, y: 4)
        #expect(v.x > 0.97 && v.y < 0.05 && v.z < 0.05)
        let kept = try JPEG.encode(p3, options: EncodingOptions(quality: 1, chromaSubsampling: .none))
        let keptPixel = try JPEG.decode(kept).pixels.pixel(x: 4, y: 4)
        #expect(keptPixel.x > 0.97 && keptPixel.y < 0.05)  // stored as P3 values
    }
}

@Suite struct ICCEmbeddingTests {
    /// Lux's sRGB profile padded to 150 000 bytes (its header's size updated, its profile ID cleared): a valid profile
    /// too large for one APP2 segment, so reading checks it and the container must split and reassemble it.
    static let blob: [UInt8] = {
        var bytes = (try? ColorSpace.sRGB.iccProfile().data) ?? []
        bytes += [UInt8](repeating: 0, count: 150_000 - bytes.count)
        for (i, shift) in [24, 16, 8, 0].enumerated() { bytes[i] = UInt8(truncatingIfNeeded: 150_000 >> shift) }
        for i in 84..<100 { bytes[i] = 0 }
        return bytes
    }()

    @Test(
        "a large ICC profile is split into APP2 chunks and reassembled; exiftool extracts the same bytes",
        .needs("exiftool"), arguments: [ImageFormat.jpeg, .png, .tiff])
    func largeProfileRoundTrip(_ format: ImageFormat) throws {
        var image = TestImages.gradient(width: 16, height: 16)
        image.colorSpace = .sRGB
        let metadata = ImageMetadata(iccProfile: Self.blob)
        let bytes = try ImageFile(pixels: image, metadata: metadata, format: format).encoded()
        #expect(try ImageFile.read(data: bytes).metadata.iccProfile == Self.blob)
        if format == .jpeg {
            let chunks = bytes.indices.dropLast(13).filter { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xE2 }.count
            #expect(chunks == 3)
        }
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("icc.\(format.fileExtension)")
        try Data(bytes).write(to: url)
        let extracted = try ExternalTool.capture("exiftool", ["-b", "-ICC_Profile", url.path]).stdout
        let same = [UInt8](extracted) == Self.blob
        #expect(same, "\(format): exiftool extracted \(extracted.count) bytes")
    }
}

@Suite struct WideGamutTests {
    /// An sRGB colour inside both gamuts, expressed as Display P3 pixels.
    static func p3Patch() throws -> PixelBuffer {
        var srgb = PixelBuffer(width: 16, height: 16, format: .rgbaFloat, colorSpace: .sRGB)
        for y in 0..<16 {
            for x in 0..<16 { srgb.setPixel(SIMD4(200.0 / 255, 100.0 / 255, 80.0 / 255, 1), x: x, y: y) }
        }
        return try srgb.matchingColors(to: .displayP3)
    }

    @Test(
        "a Display P3 file embeds the P3 profile: exiftool names it and vips converts through it to the original sRGB colour",
        .needs("vips", "exiftool"), arguments: [ImageFormat.jpeg, .png, .tiff])
    func displayP3Profile(_ format: ImageFormat) throws {
        try #require(ColorProfiles.profile(for: .displayP3) != nil)
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("p3.\(format.fileExtension)")
        var metadata = ImageMetadata()
        metadata.exif.make = "Lux"
        try ImageFile.write(
            try Self.p3Patch(), metadata: metadata, to: url,
            options: EncodingOptions(quality: 1, chromaSubsampling: .none, sampleType: .uint8))
        let back = try ImageFile.read(url: url)
        #expect(back.pixels.colorSpace?.isColorimetricallyEqual(to: .displayP3) == true)
        #expect(try ImageFile.info(url: url).iccProfileDescription?.contains("P3") == true)
        let e = try Fixtures.exiftool(url.path)
        #expect(
            (e["ProfileDescription"] as? String)?.contains("P3") == true, "\(e["ProfileDescription"] ?? "none")")
        if format == .jpeg { #expect(e["ColorSpace"] as? Int == 0xFFFF) }  // uncalibrated + ICC, as iPhones write
        let out = dir.appendingPathComponent("srgb.ppm")
        let run = try ExternalTool.capture(
            "vips", ["icc_transform", url.path, out.path, "srgb", "--embedded", "--intent", "relative"])
        #expect(run.status == 0, "\(run.errorText)")
        let ppm = try NetpbmImage(Data(contentsOf: out))
        let centre = (8 * ppm.width + 8) * ppm.channels
        let rgb = [Int(ppm.samples[centre]), Int(ppm.samples[centre + 1]), Int(ppm.samples[centre + 2])]
        #expect(abs(rgb[0] - 200) <= 3 && abs(rgb[1] - 100) <= 3 && abs(rgb[2] - 80) <= 3, "vips gave \(rgb)")
    }

    @Test("sharing converts to sRGB and embeds an sRGB profile")
    func sharingProfile() throws {
        let srgbProfile = try #require(ColorProfiles.profile(for: .sRGB))
        let bytes = try JPEG.encode(
            try Self.p3Patch(), options: EncodingOptions(quality: 1, optimizesColorForSharing: true))
        #expect(try JPEGHeader(bytes: bytes).iccProfile == srgbProfile)
        let p = try JPEG.decode(bytes).pixels.pixel(x: 8, y: 8)
        #expect(abs(p.x * 255 - 200) < 2.5 && abs(p.y * 255 - 100) < 2.5 && abs(p.z * 255 - 80) < 2.5)
    }
}
