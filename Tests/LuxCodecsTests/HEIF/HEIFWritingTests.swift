import Foundation
import LuxColor
import LuxPixels
import LuxTestSupport
import Testing

@testable import LuxCodecs

/// Writing HEIC as iOS does (512 × 512 grid tiles, ICC profile, Exif, thumbnail), judged by libheif's tools, exiftool
/// and vips.
@Suite struct HEIFWritingTests {
    /// The iPhone JPEG decoded at a quarter of its size (1008 × 756: a 2 × 2 grid), with its Exif.
    static func photo() throws -> ImageFile {
        try JPEG.decode(try Fixtures.bytes(JPEGTests.livePhoto), reducedBy: 4)
    }

    /// Writes `file` as HEIC in a new folder and returns the path.
    static func write(_ file: ImageFile, options: EncodingOptions = .default, name: String = "out.heic") throws -> URL {
        let dir = try ExternalTool.temporaryFolder("lux-heic")
        let url = dir.appendingPathComponent(name)
        try ImageFile.write(file, to: url, options: options)
        return url
    }

    /// The RGB samples of an 8-bit buffer against libheif's decode of `url`, as PSNR in dB.
    static func psnrAgainstLibheif(_ source: PixelBuffer, _ url: URL) throws -> Double {
        let decoded = try NetpbmImage(Data(contentsOf: try libheifPPM(url)))
        #expect(decoded.width == source.width && decoded.height == source.height)
        return psnr(TestImages.rgbSamples(source.converted(to: .rgba8)), decoded.samples, peak: 255)
    }

    static func libheifPPM(_ url: URL) throws -> URL {
        let ppm = url.deletingLastPathComponent().appendingPathComponent("decoded.ppm")
        let run = try ExternalTool.capture("vips", ["heifload", url.path, ppm.path])
        try #require(run.status == 0, "vips heifload: \(run.errorText)")
        return ppm
    }

    @Test(
        "a JPEG photo written as HEIC at the default quality decodes in libheif at ≥ 38 dB, with a 2 × 2 grid and a thumbnail",
        .needs("heif-info", "heif-convert", "vips"))
    func roundTrip() throws {
        let photo = try Self.photo()
        let url = try Self.write(photo)
        let info = try HEIFOracle.heifInfo(url.path)
        #expect(info.contains("image: 1008x756"))
        #expect(info.contains("thumbnail: 320x240"))
        #expect(info.contains("color profile: prof"))
        #expect(info.contains("Exif:"))
        let value = try Self.psnrAgainstLibheif(photo.pixels, url)
        #expect(value >= 38, "PSNR \(value) dB")
        let png = url.deletingLastPathComponent().appendingPathComponent("converted.png")
        #expect(try ExternalTool.capture("heif-convert", [url.path, png.path]).status == 0)
        // Lux reads its own file back with the same pixels libheif decodes.
        let back = try ImageFile.read(url: url)
        #expect(HEIFOracle.maximumDifference(back.pixels, try RawPPM(Data(contentsOf: try Self.libheifPPM(url)))) == 0)
    }

    @Test("exiftool reads the Exif (orientation 1), the ICC profile and the HEVC configuration", .needs("exiftool"))
    func exiftoolReadsMetadata() throws {
        var photo = try Self.photo()
        photo.metadata.exif.orientation = .right
        let url = try Self.write(photo, options: EncodingOptions(colorSpace: .displayP3))
        let e = try Fixtures.exiftool(url.path)
        #expect(e["Make"] as? String == "Apple" && e["Model"] as? String == "iPhone 6s")
        #expect(e["Orientation"] as? Int == 1)
        #expect(e["ProfileDescription"] as? String == "Display P3")
        #expect(e["BitDepthLuma"] as? Int == 8)
        #expect(e["ImageWidth"] as? Int == 1008 && e["ImageHeight"] as? Int == 756)
        #expect(
            e["MajorBrand"] as? String == "heic" || (e["MajorBrand"] as? String)?.hasPrefix("High Efficiency") == true)
        let back = try ImageFile.read(url: url)
        #expect(try #require(back.pixels.colorSpace).isColorimetricallyEqual(to: .displayP3))
        #expect(back.metadata.exif.model == "iPhone 6s")
    }

    @Test(
        "a 10-bit HEIC of 16-bit pixels: Main 10, heix brand, libheif decodes it to within 10-bit precision",
        .needs("exiftool", "vips"))
    func tenBit() throws {
        let source = TestImages.gradient(width: 600, height: 400, format: .rgba16)
        let url = try Self.write(
            ImageFile(pixels: source), options: EncodingOptions(quality: 0.9, sampleType: .uint10))
        let e = try Fixtures.exiftool(url.path)
        #expect(e["BitDepthLuma"] as? Int == 10 && e["BitDepthChroma"] as? Int == 10)
        let decoded = try NetpbmImage(Data(contentsOf: try Self.libheifPPM(url)))
        #expect(decoded.maxValue == 65535)
        let ours = source.components(as: UInt16.self).enumerated().filter { $0.offset % 4 != 3 }.map(\.element)
        let value = psnr(ours, decoded.samples, peak: 65535)
        #expect(value >= 40, "PSNR \(value) dB")
        #expect(try ImageFile.info(url: url).heif?.mainBrand == "heix")
    }

    @Test(
        "odd sizes and single-tile images keep their exact size", .needs("heif-info"),
        arguments: [(333, 217), (64, 64), (1, 1), (513, 1)])
    func sizes(width: Int, height: Int) throws {
        let source = TestImages.gradient(width: width, height: height)
        let url = try Self.write(ImageFile(pixels: source))
        #expect(try HEIFOracle.heifInfo(url.path).contains("image: \(width)x\(height)"))
        let back = try ImageFile.read(url: url)
        #expect(back.pixels.width == width && back.pixels.height == height)
    }

    @Test(
        "an HDR gain map stored as an auxiliary image is listed by exiftool and decoded by heif-convert --with-aux",
        .needs("exiftool", "heif-convert", "vips"))
    func gainMapKept() throws {
        let original = try TestData.url("heic/iphone13pro_portrait_depth.heic")
        let gainMap = try ImageFile.read(url: original, options: DecodingOptions(component: .hdrGainMap))
        var photo = try Self.photo()
        photo.auxiliaryImages = [AuxiliaryImage(type: HEIFAuxiliaryKind.appleHDRGainMapType, file: gainMap)]
        let url = try Self.write(photo)
        let e = try Fixtures.exiftool(url.path)
        #expect(e["AuxiliaryImageType"] as? String == HEIFAuxiliaryKind.appleHDRGainMapType)
        let back = try ImageFile.read(url: url, options: DecodingOptions(component: .hdrGainMap))
        #expect(back.pixels.width == 2016 && back.pixels.height == 1512 && back.pixels.format == .gray8)
        let value = psnr(back.pixels.components(as: UInt8.self), gainMap.pixels.components(as: UInt8.self), peak: 255)
        #expect(value >= 38, "PSNR \(value) dB")
        let dir = url.deletingLastPathComponent()
        let run = try ExternalTool.capture(
            "heif-convert", ["--with-aux", "--no-colons", url.path, dir.appendingPathComponent("c.png").path])
        #expect(run.status == 0)
        let aux = try HEIFOracle.ppm(
            dir.appendingPathComponent("c-urn_com_apple_photo_2020_aux_hdrgainmap.png").path, in: dir)
        #expect(HEIFOracle.maximumDifference(back.pixels, aux) == 0)
    }

    @Test("vips reads the file", .needs("vipsheader"))
    func vipsReads() throws {
        let url = try Self.write(try Self.photo())
        let header = try ExternalTool.capture("vipsheader", [url.path])
        #expect(header.status == 0 && header.text.contains("1008x756"))
    }
}
