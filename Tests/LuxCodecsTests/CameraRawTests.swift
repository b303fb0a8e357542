import Foundation
import LuxPixels
import LuxTestSupport
import Testing

@testable import LuxCodecs

/// Camera raws through LibRaw: the genuine Kodak DC50 KDC against LibRaw's own tools, DNGs routed through LibRaw
/// against LuxCodecs' DNG decoder, and bad input.
@Suite struct CameraRawTests {
    static let kdc = "raw/kodak_dc50.kdc"

    @Test("the KDC's mosaic is bit-identical to LibRaw's unprocessed_raw", .needs("unprocessed_raw"))
    func kdcMosaicMatchesUnprocessedRaw() throws {
        let dir = try ExternalTool.temporaryFolder("lux-kdc")
        defer { try? FileManager.default.removeItem(at: dir) }
        let copy = dir.appendingPathComponent("kodak_dc50.kdc")
        try FileManager.default.copyItem(at: try Fixtures.url(Self.kdc), to: copy)
        let run = try ExternalTool.capture("unprocessed_raw", [copy.path])
        try #require(run.status == 0, "\(run.errorText)")
        let pgm = try NetpbmImage(Data(contentsOf: URL(fileURLWithPath: copy.path + ".pgm")))

        let file = try ImageFile.read(url: copy)
        #expect(file.format == .cameraRaw)
        let raw = try #require(file.rawImage)
        let values = try raw.sensorValues()
        #expect(values.width == pgm.width && values.height == pgm.height)
        #expect(values.components(as: UInt16.self) == pgm.samples)
    }

    @Test("the KDC's description agrees with raw-identify", .needs("raw-identify"))
    func kdcPropertiesMatchRawIdentify() throws {
        let path = try Fixtures.url(Self.kdc).path
        let text = try ExternalTool.capture("raw-identify", ["-v", path]).text
        func field(_ name: String) -> String? {
            text.split(separator: "\n").first { $0.hasPrefix(name) }.map {
                String($0.dropFirst(name.count)).trimmingCharacters(in: .whitespaces)
            }
        }
        let raw = try #require(try ImageFile.read(url: URL(fileURLWithPath: path)).rawImage)
        let p = raw.properties
        // "Camera: Kodak DC50 ID: 0x0", "Full size:    768 x 512", "Filter pattern: GRBGGRBG…", "ISO speed: 84".
        #expect(field("Camera:")?.hasPrefix("Kodak DC50") == true)
        #expect(p.uniqueCameraModel == "Kodak DC50")
        #expect(field("Full size:") == "\(p.width) x \(p.height)")
        #expect(field("Image size:") == "\(p.activeArea.width) x \(p.activeArea.height)")
        let pattern = try #require(field("Filter pattern:"))
        #expect(pattern.hasPrefix(try #require(p.cfaPattern).rawValue))
        #expect(field("ISO speed:").flatMap { Int($0) } == p.exif.isoSpeed)
        #expect(p.exif.make == "Eastman Kodak Company")
        #expect(p.storage.description.hasPrefix("LibRaw 0.20"))
        #expect(raw.pixels.format == .bayer16(.grbg))
    }

    @Test("a DNG routed through LibRaw gives the mosaic, pattern and levels of LuxCodecs' own decoder")
    func dngThroughLibRawMatchesOwnDecoder() throws {
        let bytes = try Fixtures.bytes("raw/canon_eos550d_magiclantern_14bit.dng")
        let own = try #require(try ImageFile.read(data: bytes).rawImage)
        let viaLibRaw = try ImageFile.read(data: bytes, options: DecodingOptions(decodesDNGWithLibRaw: true))
        #expect(viaLibRaw.format == .dng)
        let lib = try #require(viaLibRaw.rawImage)
        #expect(lib.properties.storage.decoder?.hasPrefix("LibRaw") == true)
        #expect(lib.properties.cfaPattern == own.properties.cfaPattern)
        #expect(lib.properties.activeArea == own.properties.activeArea)
        #expect(lib.blackLevel.value(row: 0, column: 0) == own.blackLevel.value(row: 0, column: 0))
        #expect(lib.whiteLevel == own.whiteLevel)
        #expect(try lib.sensorValues().components(as: UInt16.self) == own.sensorValues().components(as: UInt16.self))
    }

    /// The 12-megapixel lossless-JPEG DNG exercises LibRaw's tiled lossless-JPEG decoder.
    @Test("the synthetic 12 MP lossless-JPEG DNG decodes to the same mosaic through LibRaw")
    func tiledLosslessJPEGThroughLibRaw() throws {
        let url = try TestData.url(SyntheticDNG.losslessJPEG.relativePath)
        let own = try #require(try ImageFile.read(url: url).rawImage)
        let lib = try #require(
            try ImageFile.read(url: url, options: DecodingOptions(decodesDNGWithLibRaw: true)).rawImage)
        #expect(lib.pixels.format == own.pixels.format)
        #expect(lib.pixels.components(as: UInt16.self) == own.pixels.components(as: UInt16.self))
    }

    /// Active areas on even rows and columns keep the CFA phase through LibRaw.
    ///
    /// DNG puts the CFA pattern's origin at the active area's corner; LibRaw 0.20 reads it from the stored frame's
    /// corner and drops an odd first row or column, which is one reason DNGs stay on LuxCodecs' own decoder. The
    /// files here start their active area on even rows and columns, where both agree.
    @Test(
        "an active area away from the frame's corner keeps the CFA phase through LibRaw",
        arguments: [(0, 0), (2, 0), (0, 2), (4, 2)])
    func activeAreaPhase(_ offset: (Int, Int)) throws {
        var raw = SyntheticRaw.image(width: 96, height: 64)
        let a = raw.properties.activeArea
        raw.properties.activeArea = RawArea(
            top: a.top + offset.1, left: a.left + offset.0, bottom: a.bottom, right: a.right)
        let bytes = try DNG.encode(raw, options: EncodingOptions(dng: .init(compression: .uncompressed)))
        let own = try #require(try ImageFile.read(data: bytes).rawImage)
        let lib = try #require(try CameraRaw.decode(bytes).rawImage)
        #expect(lib.properties.cfaPattern == own.properties.cfaPattern)
        #expect(lib.properties.activeArea == own.properties.activeArea)
        #expect(try lib.sensorValues().components(as: UInt16.self) == own.sensorValues().components(as: UInt16.self))
    }

    @Test("decodes on several threads at once, each with its own LibRaw, to identical results")
    func parallelDecodes() async throws {
        let bytes = try Fixtures.bytes(Self.kdc)
        let reference = try ImageFile.read(data: bytes).pixels.components(as: UInt16.self)
        try await withThrowingTaskGroup(of: [UInt16].self) { group in
            for _ in 0..<4 { group.addTask { try ImageFile.read(data: bytes).pixels.components(as: UInt16.self) } }
            for try await pixels in group { #expect(pixels == reference) }
        }
    }

    @Test("dimensions and memory beyond the decoding limits are refused before unpacking, naming the file")
    func limits() throws {
        let url = try Fixtures.url(Self.kdc)
        let pixelLimit = DecodingOptions(limits: DecodingLimits(maxPixelCount: 100_000))
        #expect {
            _ = try ImageFile.read(url: url, options: pixelLimit)
        } throws: { error in
            guard case .limitExceeded(let what, let value, let limit)? = error as? CodecError else { return false }
            return what.contains("kodak_dc50.kdc") && value == 768 * 512 && limit == 100_000
        }
        // The stored mosaic (768 × 512 × 2 = 786 432 bytes) passes the limit; LibRaw's buffer (768 × 520 × 2 =
        // 798 720 bytes, which the mosaic is lent from) does not.
        let byteLimit = DecodingOptions(limits: DecodingLimits(maxByteCount: 790_000))
        #expect {
            _ = try ImageFile.read(data: try Fixtures.bytes(Self.kdc), options: byteLimit)
        } throws: { error in
            guard case .limitExceeded(let what, _, _)? = error as? CodecError else { return false }
            return what.contains("LibRaw")
        }
    }

    @Test("a KDC cut short anywhere is refused as missing pixel data, never developed from zeros")
    func truncatedKDC() throws {
        let bytes = try Fixtures.bytes(Self.kdc)
        for length in [200, 1_000, 19_712, 40_000, 92_000, bytes.count - 1] {
            #expect(throws: CodecError.self, "\(length) bytes") {
                _ = try CameraRaw.decode(Array(bytes.prefix(length)))
            }
        }
    }

    @Test("every LibRaw error code maps to a typed error naming the file")
    func errorCodes() {
        let codes: [Int32] = [
            -1, -2, -3, -4, -5, -6, -7, -8, -100007, -100008, -100009, -100010, -100011, -100012, -100013,
        ]
        for code in codes {
            let error = CameraRaw.codecError(LibRawStatus(code: code), what: "IMG_1.NEF (Nikon D70 raw file)", size: 10)
            #expect(error.description.contains("IMG_1.NEF"), "\(code): \(error)")
        }
        #expect(CameraRaw.codecError(LibRawStatus(code: -2), what: "x", size: 1).description.contains("LibRaw 0.20"))
        if case .missingPixelData = CameraRaw.codecError(LibRawStatus(code: -100009), what: "x", size: 1) {
        } else {
            Issue.record("an input/output error (LibRaw read past the end) is missing pixel data")
        }
    }

    @Test("data LibRaw does not recognise is an unknown format, not a camera raw")
    func notARaw() {
        #expect(throws: CodecError.self) { _ = try ImageFile.read(data: Array(repeating: 0x5A, count: 4096)) }
        #expect(!CameraRaw.identifies(UnsafeRawBufferPointer(start: nil, count: 0)))
    }
}
