import Foundation
import LuxColor
import LuxPixels
import LuxTestSupport
import Testing

@testable import LuxCodecs

/// Reading real HEIC files, judged by libheif's `heif-convert` and `heif-info`, exiftool and vips.
@Suite struct HEIFReadingTests {
    static let samples = [
        "heic/iphone13pro_portrait_depth.heic", "heic/iphone8plus.heic", "heic/visionpro_spatial_stereo.heic",
        "heic/sony_a7s3.hif",
    ]

    @Test(
        "vips heifload decodes exactly heif-convert's oriented PNG (so either is the oracle)",
        .needs("heif-convert", "vips"))
    func oraclesAgree() throws {
        let path = try TestData.path("heic/iphone8plus.heic")
        let converted = try HEIFOracle.heifConvert(path)
        let loaded = try HEIFOracle.vipsHeifload(path)
        #expect(converted.width == 3024 && converted.height == 4032)
        #expect(converted.samples == loaded.samples)
    }

    @Test(
        "every sample's primary image decodes within 2 levels of libheif's own decode (heif-convert, vips heifload)",
        .needs("vips"), arguments: samples)
    func primaryMatchesLibheif(sample: String) throws {
        let path = try TestData.path(sample)
        let file = try ImageFile.read(url: URL(fileURLWithPath: path))
        #expect(file.format == .heic)
        let reference = try HEIFOracle.vipsHeifload(path)
        #expect(file.pixels.width == reference.width && file.pixels.height == reference.height)
        #expect(HEIFOracle.maximumDifference(file.pixels, reference) <= 2)
    }

    @Test(
        "the second image of the Vision Pro stereo pair is image 1, as libheif lists and decodes it",
        .needs("heif-info", "vips"))
    func stereoPair() throws {
        let path = try TestData.path("heic/visionpro_spatial_stereo.heic")
        let info = try ImageFile.info(url: URL(fileURLWithPath: path))
        let images = try #require(info.heif?.images)
        let listed = try HEIFOracle.heifInfo(path)
        #expect(images.count == 2 && listed.components(separatedBy: "image: ").count - 1 == 2)
        #expect(images.map(\.itemID) == [26, 52] && images[0].isPrimary && !images[1].isPrimary)
        let right = try ImageFile.read(url: URL(fileURLWithPath: path), options: DecodingOptions(imageIndex: 1))
        #expect(HEIFOracle.maximumDifference(right.pixels, try HEIFOracle.vipsHeifload(path, page: 1)) <= 2)
        #expect(throws: CodecError.self) {
            _ = try ImageFile.read(url: URL(fileURLWithPath: path), options: DecodingOptions(imageIndex: 2))
        }
    }

    @Test(
        "the iPhone 8 Plus photo is rotated by its irot once: Exif orientation 6 is reported as up", .needs("exiftool"))
    func rotationAppliedOnce() throws {
        let url = try TestData.url("heic/iphone8plus.heic")
        let exif = try Fixtures.exiftool(url.path)
        #expect(exif["Orientation"] as? Int == 6)
        #expect(exif["Rotation"] as? Int == 270)
        let stored = try ImageFile.read(url: url)
        let oriented = try ImageFile.read(url: url, options: DecodingOptions(appliesOrientation: true))
        // 4032 × 3024 coded, 3024 × 4032 shown: the HEIF rotation happened, and applying the orientation again did
        // nothing more.
        #expect(stored.pixels.width == 3024 && stored.pixels.height == 4032)
        #expect(stored.metadata.orientation == .up)
        #expect(oriented.pixels.width == 3024 && oriented.pixels.height == 4032)
        #expect(stored.pixels.components(as: UInt8.self) == oriented.pixels.components(as: UInt8.self))
    }

    @Test(
        "the iPhone 13 Pro photo: Display P3 from its ICC profile, Exif, XMP, depth and HDR gain map listed",
        .needs("heif-info", "exiftool"))
    func iPhoneDescription() throws {
        let path = try TestData.path("heic/iphone13pro_portrait_depth.heic")
        let info = try ImageFile.info(url: URL(fileURLWithPath: path))
        #expect(info.format == .heic && info.width == 4032 && info.height == 3024 && info.bitsPerSample == 8)
        #expect(try #require(info.colorSpace).isColorimetricallyEqual(to: .displayP3))
        let exif = try Fixtures.exiftool(path)
        #expect(info.metadata.exif.model == exif["Model"] as? String)
        #expect(info.metadata.xmp != nil)
        let image = try #require(info.heif?.images.first)
        let listed = try HEIFOracle.heifInfo(path)
        #expect(listed.contains("Exif: \(try #require(image.metadata.first { $0.type == "Exif" }).byteCount) bytes"))
        #expect(listed.contains("XMP: \(try #require(image.metadata.first { $0.type == "mime" }).byteCount) bytes"))
        let depth = try #require(image.auxiliaryImages.first { $0.kind == .depth })
        #expect(listed.contains("(\(depth.width)x\(depth.height))"))
        let representation = try #require(image.depth)
        #expect(representation.kind == .uniformDisparity)
        let dMin = String(format: "%.6f", try #require(representation.minimumDisparity))
        #expect(listed.contains(try Regex("d-min: +\(dMin)")))
        let gainMap = try #require(image.auxiliaryImages.first { $0.kind == .hdrGainMap })
        #expect(
            gainMap.type == exif["AuxiliaryImageType"] as? String
                || gainMap.type == HEIFAuxiliaryKind.appleHDRGainMapType)
        #expect(gainMap.width == 2016 && gainMap.height == 1512)
        #expect(info.heif?.mainBrand == "heic")
    }

    @Test(
        "the depth map and the HDR gain map read as gray images equal to heif-convert --with-aux",
        .needs("heif-convert", "vips"))
    func auxiliaryImages() throws {
        let path = try TestData.path("heic/iphone13pro_portrait_depth.heic")
        let dir = try ExternalTool.temporaryFolder("lux-heif")
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try ExternalTool.capture(
            "heif-convert", ["--with-aux", "--no-colons", path, dir.appendingPathComponent("out.png").path])
        try #require(run.status == 0, "heif-convert: \(run.errorText)")
        let components: [(String, ImageComponent)] = [
            ("depth", .depth), ("urn_com_apple_photo_2020_aux_hdrgainmap", .hdrGainMap),
        ]
        for (suffix, component) in components {
            let aux = try ImageFile.read(
                url: URL(fileURLWithPath: path), options: DecodingOptions(component: component))
            #expect(aux.pixels.format == .gray8 && aux.pixels.colorSpace == nil)
            let reference = try HEIFOracle.ppm(dir.appendingPathComponent("out-\(suffix).png").path, in: dir)
            #expect(HEIFOracle.maximumDifference(aux.pixels, reference) == 0, "\(component)")
        }
    }

    @Test(
        "the Sony 10-bit heix: nclx BT.709/sRGB, 16-bit pixels, two thumbnails as heif-info lists them",
        .needs("heif-info"))
    func sonyTenBit() throws {
        let path = try TestData.path("heic/sony_a7s3.hif")
        let info = try ImageFile.info(url: URL(fileURLWithPath: path))
        #expect(info.bitsPerSample == 10 && info.pixelFormat == .rgba16 && info.heif?.mainBrand == "heix")
        let image = try #require(info.heif?.images.first)
        let nclx = try #require(image.nclx)
        #expect(nclx.colorPrimaries == 1 && nclx.transferCharacteristics == 13 && nclx.matrixCoefficients == 5)
        #expect(try #require(info.colorSpace).isColorimetricallyEqual(to: .sRGB))
        let listed = try HEIFOracle.heifInfo(path)
        for t in image.thumbnails { #expect(listed.contains("thumbnail: \(t.width)x\(t.height)")) }
        #expect(image.thumbnails.count == 2)
        let thumb = try ImageFile.read(
            url: URL(fileURLWithPath: path), options: DecodingOptions(component: .thumbnail(1)))
        #expect(thumb.pixels.width == 320 && thumb.pixels.height == 212)
    }

    @Test("the truncated sample and garbage after a HEIF header give typed errors")
    func damagedFiles() throws {
        let url = try TestData.url("heic/truncated.heic")
        #expect(throws: CodecError.self) { _ = try ImageFile.read(url: url) }
        var bytes = try Fixtures.bytes("heic/iphone8plus.heic")
        bytes = Array(bytes.prefix(4000))
        #expect(throws: CodecError.self) { _ = try ImageFile.read(data: bytes) }
    }
}
