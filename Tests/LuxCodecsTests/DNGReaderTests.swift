import Foundation
import LuxColor
import LuxPixels
import LuxTestSupport
import Testing

@testable import LuxCodecs

/// Reading real and derived DNG files, checked against dcraw, LibRaw and exiftool.
@Suite struct DNGReaderTests {
    static let decodable = Fixtures.genuineDNGs + Fixtures.syntheticDNGs

    @Test(
        "stored raw values match LibRaw's unprocessed_raw dump exactly", .needs("unprocessed_raw"), arguments: decodable
    )
    func matchesLibRawDump(_ name: String) throws {
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let copy = dir.appendingPathComponent("f.dng")
        try FileManager.default.copyItem(at: Fixtures.url(name), to: copy)
        _ = try ExternalTool.capture("unprocessed_raw", ["-q", copy.path])
        // LibRaw exits 0 even when it fails: check for its output file.
        let pgm = try NetpbmImage(Data(contentsOf: URL(fileURLWithPath: copy.path + ".pgm")))
        let file = try ImageFile.read(url: Fixtures.url(name))
        #expect(file.pixels.width == pgm.width && file.pixels.height == pgm.height)
        #expect(file.pixels.components(as: UInt16.self) == pgm.samples)
    }

    @Test("active-area sensor values match dcraw -D -4 exactly", .needs("dcraw"), arguments: decodable)
    func matchesDcraw(_ name: String) throws {
        let out = try ExternalTool.capture("dcraw", ["-D", "-4", "-c", Fixtures.url(name).path])
        #expect(out.status == 0)
        let pgm = try NetpbmImage(out.stdout)
        let raw = try #require(try ImageFile.read(url: Fixtures.url(name)).rawImage)
        let values = try raw.sensorValues()
        #expect(values.width == pgm.width && values.height == pgm.height)
        #expect(values.components(as: UInt16.self) == pgm.samples)
    }

    @Test("tags match exiftool's reading", .needs("exiftool"), arguments: decodable)
    func tagsMatchExiftool(_ name: String) throws {
        let e = try Fixtures.exiftool(Fixtures.url(name).path)
        let raw = try #require(try ImageFile.read(url: Fixtures.url(name)).rawImage)
        #expect(raw.width == e["ImageWidth"] as? Int)
        #expect(raw.height == e["ImageHeight"] as? Int)
        #expect(raw.bitsPerSample == e["BitsPerSample"] as? Int)
        #expect(raw.make == e["Make"] as? String)
        #expect(raw.model == e["Model"] as? String)
        #expect(raw.uniqueCameraModel == e["UniqueCameraModel"] as? String)
        #expect(raw.dngVersion.map { $0.map(Double.init) } == Fixtures.numbers(e["DNGVersion"]))
        #expect(raw.dngBackwardVersion.map { $0.map(Double.init) } == Fixtures.numbers(e["DNGBackwardVersion"]))
        #expect(raw.cfa.map { $0.colors.map(Double.init) } == Fixtures.numbers(e["CFAPattern2"]))
        #expect(raw.blackLevel.values == Fixtures.numbers(e["BlackLevel"]))
        #expect(raw.whiteLevel == Fixtures.numbers(e["WhiteLevel"]))
        #expect(Fixtures.close(try #require(raw.color.colorMatrix1).entries, Fixtures.numbers(e["ColorMatrix1"])))
        #expect(Fixtures.close(try #require(raw.color.asShotNeutral), Fixtures.numbers(e["AsShotNeutral"])))
        #expect(raw.orientation.rawValue == e["Orientation"] as? UInt16)
        if let a = e["ActiveArea"] {
            let area = raw.activeArea
            #expect([area.top, area.left, area.bottom, area.right].map(Double.init) == Fixtures.numbers(a))
        }
        if let o = e["DefaultCropOrigin"], let s = e["DefaultCropSize"] {
            let c = try #require(raw.defaultCrop)
            #expect([c.x, c.y] == Fixtures.numbers(o) && [c.width, c.height] == Fixtures.numbers(s))
        }
        if let i = e["CalibrationIlluminant1"] as? Int {
            #expect(raw.color.calibrationIlluminant1?.rawValue == UInt16(i))
        }
        if let b = e["AnalogBalance"] { #expect(raw.color.analogBalance == Fixtures.numbers(b)) }
    }

    @Test("the uncompressed and lossless-JPEG 12 MP files decode bit-identically")
    func syntheticPairIsIdentical() throws {
        let a = try ImageFile.read(url: Fixtures.url(Fixtures.syntheticDNGs[0]))
        let b = try ImageFile.read(url: Fixtures.url(Fixtures.syntheticDNGs[1]))
        #expect(a.raw?.storage.compression == 1 && b.raw?.storage.compression == 7)
        #expect(a.pixels.format == .bayer16(.rggb) && b.pixels.format == .bayer16(.rggb))
        #expect(a.pixels.components(as: UInt16.self) == b.pixels.components(as: UInt16.self))
    }

    @Test("decoding with one thread and with several gives the same values")
    func threadCountDoesNotMatter() throws {
        let bytes = try Fixtures.bytes(Fixtures.genuineDNGs[0])
        let one = try DNG.decode(bytes, options: DecodingOptions(threads: 1))
        let many = try DNG.decode(bytes, options: DecodingOptions(threads: 4))
        #expect(one.pixels.components(as: UInt16.self) == many.pixels.components(as: UInt16.self))
    }

    @Test("files with metadata but no pixel data throw instead of decoding zeros", arguments: Fixtures.metadataOnly)
    func metadataOnlyFilesThrow(_ name: String) throws {
        let url = try Fixtures.url(name)
        #expect(throws: CodecError.self) { _ = try ImageFile.read(url: url) }
        do {
            _ = try ImageFile.read(url: url)
        } catch {
            let text = error.description
            print("\(name): \(text)")
            #expect(!text.isEmpty)
        }
    }

    /// What each metadata-only camera raw is refused with (SOURCES.md says which data each lacks; dcraw, dcraw_emu
    /// and rawpy develop three of them into full-size pictures of nothing): no pixel data, naming the file and the
    /// camera its metadata names (the camera as LibRaw names it where LibRaw reads the header, as IFD0 does where
    /// LibRaw does not).
    @Test(
        "each metadata-only camera raw gets the typed error that says why it has no picture",
        arguments: [
            ("raw/metadata-only/sony_zv-e10_TRUNCATED.arw", "(SONY ZV-E10 raw file)"),
            ("raw/metadata-only/canon_350d_STRIPPED.cr2", "(Canon EOS 350D DIGITAL raw file)"),
            ("raw/metadata-only/fujifilm_s5pro_STRIPPED.raf", "(Fujifilm S5Pro raw file)"),
            ("raw/metadata-only/nikon_d70_STRIPPED.nef", "(Nikon D70 raw file)"),
        ])
    func metadataOnlyErrorKinds(_ name: String, _ phrase: String) throws {
        let url = try Fixtures.url(name)
        do {
            let file = try ImageFile.read(url: url)
            Issue.record("\(name) decoded to \(file.pixels.width)×\(file.pixels.height)")
        } catch {
            if case .missingPixelData = error {
            } else {
                Issue.record("\(name): expected missingPixelData, got \(error)")
            }
            #expect(error.description.contains(phrase), "\(name): \(error)")
            #expect(error.description.contains(url.lastPathComponent), "\(name): \(error)")
        }
    }

    @Test("the stripped and header-only DNGs report missing pixel data")
    func missingDataIsNamed() throws {
        for name in [Fixtures.metadataOnly[0], Fixtures.metadataOnly[1], Fixtures.metadataOnly[2]] {
            let url = try Fixtures.url(name)
            do {
                _ = try ImageFile.read(url: url)
                Issue.record("\(name) decoded")
            } catch .missingPixelData {
            } catch {
                Issue.record("\(name): expected missingPixelData, got \(error)")
            }
        }
    }

    @Test("header reads of metadata-only DNGs agree with exiftool", .needs("exiftool"))
    func headerOnlyTags() throws {
        for name in [Fixtures.metadataOnly[0], Fixtures.metadataOnly[1], Fixtures.metadataOnly[2]] {
            let e = try Fixtures.exiftool(Fixtures.url(name).path)
            let info = try ImageFile.info(url: Fixtures.url(name))
            let raw = try #require(info.raw)
            // exiftool stops reading a directory at the first value it cannot read (the truncated Leica file),
            // so compare the tags it reports.
            #expect(info.metadata.exif.make == e["Make"] as? String)
            #expect(info.metadata.exif.model == e["Model"] as? String)
            #expect(info.metadata.exif.orientation?.rawValue == (e["Orientation"] as? Int).map(UInt16.init))
            #expect(raw.width == e["ImageWidth"] as? Int || e["SubfileType"] as? Int == 1)
            if let v = e["UniqueCameraModel"] { #expect(raw.uniqueCameraModel == v as? String) }
            if let v = e["ColorMatrix1"] {
                #expect(Fixtures.close(try #require(raw.color.colorMatrix1).entries, Fixtures.numbers(v)))
            }
            if let v = e["ColorMatrix2"] {
                #expect(Fixtures.close(try #require(raw.color.colorMatrix2).entries, Fixtures.numbers(v)))
            }
            if let v = e["CalibrationIlluminant1"] as? Int {
                #expect(raw.color.calibrationIlluminant1?.rawValue == UInt16(v))
            }
            if let v = e["CalibrationIlluminant2"] as? Int {
                #expect(raw.color.calibrationIlluminant2?.rawValue == UInt16(v))
            }
            if let v = e["AsShotNeutral"] {
                #expect(Fixtures.close(try #require(raw.color.asShotNeutral), Fixtures.numbers(v)))
            }
            if let b = e["BaselineExposure"] {
                #expect(Fixtures.close([try #require(raw.baselineExposure)], Fixtures.numbers(b)))
            }
            if let v = e["ISO"] as? Int { #expect(info.metadata.exif.isoSpeed == v) }
            if let t = e["ExposureTime"] {
                #expect(
                    Fixtures.close([try #require(info.metadata.exif.exposureTime).doubleValue], Fixtures.numbers(t)))
            }
            if let v = e["FNumber"] {
                #expect(Fixtures.close([try #require(info.metadata.exif.fNumber).doubleValue], Fixtures.numbers(v)))
            }
        }
    }

    @Test(
        "the ProRAW header is a 3-sample Linear Raw with lossless-JPEG tiles, a linearisation table and a noise profile"
    )
    func proRAWHeader() throws {
        let info = try ImageFile.info(url: Fixtures.url(Fixtures.metadataOnly[0]))
        let raw = try #require(info.raw)
        #expect(raw.photometric == .linearRaw && raw.samplesPerPixel == 3 && raw.bitsPerSample == 12)
        #expect(raw.storage.compression == 7 && raw.storage.tileWidth == 504)
        #expect(raw.linearizationTable?.count == 4096)
        #expect(raw.noiseProfile?.planes.count ?? 0 >= 1)
        #expect(info.metadata.exif.make == "Apple")
        #expect(raw.orientation == .right)
        // The colour tags feed LuxColor's DNG camera model: illuminant A (2850 K) and D65 (6500 K) by the SDK
        // table, and the as-shot neutral maps to the D50 white (DNG chapter 6).
        let calibration = try #require(raw.color.cameraColorCalibration)
        #expect(calibration.first.temperature == 2850 && calibration.second?.temperature == 6500)
        let neutral = try #require(raw.color.sceneNeutral)
        let white = try calibration.cameraToXYZD50(neutral: neutral) * neutral
        #expect(abs(white.x - 0.9642) < 1e-3 && abs(white.y - 1) < 1e-3 && abs(white.z - 0.8249) < 1e-3)
    }
}
