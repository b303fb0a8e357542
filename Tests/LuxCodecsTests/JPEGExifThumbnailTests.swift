import Foundation
import LuxColor
import LuxPixels
import LuxTestSupport
import Testing

@testable import LuxCodecs

/// A JPEG's Exif thumbnail (IFD1), judged by exiftool (which extracts and validates it) and djpeg (which decodes it).
@Suite struct JPEGExifThumbnailTests {
    /// A smooth 8-bit sRGB picture: red across, green down, blue constant.
    static func gradient(width: Int, height: Int) -> PixelBuffer {
        var buffer = PixelBuffer(width: width, height: height, format: .rgba8, colorSpace: .sRGB)
        buffer.withUnsafeMutablePlane { plane in
            for y in 0..<height {
                let row = plane.row(y, as: UInt8.self)
                for x in 0..<width {
                    row[4 * x] = UInt8(x * 255 / (width - 1))
                    row[4 * x + 1] = UInt8(y * 255 / (height - 1))
                    row[4 * x + 2] = 96
                    row[4 * x + 3] = 255
                }
            }
        }
        return buffer
    }

    /// Writes `bytes` to a temporary file, extracts its thumbnail with `exiftool -b -ThumbnailImage` and decodes it
    /// with djpeg; also returns exiftool's `-validate` verdict.
    static func extractedThumbnail(_ bytes: [UInt8]) throws -> (thumbnail: NetpbmImage?, verdict: String) {
        let dir = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/photo.jpg"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let verdict = try Fixtures.validate(path)
        let extracted = try ExternalTool.capture("exiftool", ["-b", "-ThumbnailImage", path]).stdout
        guard extracted.count > 2 else { return (nil, verdict) }
        let thumbPath = dir + "/thumb.jpg"
        try extracted.write(to: URL(fileURLWithPath: thumbPath))
        let ppm = try ExternalTool.capture("djpeg", ["-pnm", thumbPath])
        return (try NetpbmImage(ppm.stdout), verdict)
    }

    static var exif: EXIF {
        var e = EXIF()
        e.make = "Lux"
        e.model = "Thumbnail test"
        return e
    }

    @Test(
        "a given thumbnail goes into IFD1: exiftool extracts a JPEG that djpeg decodes at its size with its pixels, and validates the file",
        .needs("exiftool", "djpeg"))
    func givenThumbnail() throws {
        let thumbnail = Self.gradient(width: 160, height: 120)
        let bytes = try JPEG.encode(
            Self.gradient(width: 640, height: 480), metadata: ImageMetadata(exif: Self.exif), thumbnail: thumbnail)
        let (extracted, verdict) = try Self.extractedThumbnail(bytes)
        let decoded = try #require(extracted)
        #expect(decoded.width == 160 && decoded.height == 120)
        #expect(psnr(decoded.samples, TestImages.rgbSamples(thumbnail), peak: 255) >= 35)
        #expect(verdict == "OK")
    }

    @Test(
        "a thumbnail too large for the 64 KB APP1 segment is re-encoded and halved until it fits; the file validates",
        .needs("exiftool", "djpeg"))
    func oversizedThumbnail() throws {
        // Noise compresses badly: 1200 × 900 of it is far beyond 64 KB at any quality.
        var noise = PixelBuffer(width: 1200, height: 900, format: .rgba8, colorSpace: .sRGB)
        var random = SplitMix(seed: 12_345)
        noise.withUnsafeMutablePlane { plane in
            for y in 0..<900 {
                let row = plane.row(y, as: UInt8.self)
                for i in 0..<(4 * 1200) {
                    row[i] = i % 4 == 3 ? 255 : UInt8(truncatingIfNeeded: random.next() >> 56)
                }
            }
        }
        let bytes = try JPEG.encode(
            Self.gradient(width: 640, height: 480), metadata: ImageMetadata(exif: Self.exif), thumbnail: noise)
        // The first segment after SOI is the Exif APP1; its length field (which counts itself) is at most 65535.
        #expect(bytes[2] == 0xFF && bytes[3] == 0xE1)
        #expect(Int(bytes[4]) << 8 | Int(bytes[5]) <= 65535)
        let (extracted, verdict) = try Self.extractedThumbnail(bytes)
        let decoded = try #require(extracted)
        #expect(decoded.width < 1200 && decoded.width * 3 == decoded.height * 4, "\(decoded.width)×\(decoded.height)")
        #expect(verdict == "OK")
    }

    @Test(
        "embedsThumbnail reduces a 160 × 120 thumbnail from the bands that matches djpeg's 1/4-scale decode; off by default",
        .needs("exiftool", "djpeg"))
    func reducedThumbnail() throws {
        let picture = Self.gradient(width: 640, height: 480)
        let bytes = try JPEG.encode(
            picture, metadata: ImageMetadata(exif: Self.exif), options: EncodingOptions(embedsThumbnail: true))
        let (extracted, verdict) = try Self.extractedThumbnail(bytes)
        let decoded = try #require(extracted)
        #expect(decoded.width == 160 && decoded.height == 120)
        #expect(verdict == "OK")
        let dir = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data(bytes).write(to: URL(fileURLWithPath: dir + "/photo.jpg"))
        let quarter = try NetpbmImage(
            ExternalTool.capture("djpeg", ["-pnm", "-scale", "1/4", dir + "/photo.jpg"]).stdout)
        #expect(psnr(decoded.samples, quarter.samples, peak: 255) >= 35)

        let plain = try JPEG.encode(picture, metadata: ImageMetadata(exif: Self.exif))
        #expect(try Self.extractedThumbnail(plain).thumbnail == nil)
    }
}
