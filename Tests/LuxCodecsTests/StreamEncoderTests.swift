import Foundation
import LuxColor
import LuxPixels
import LuxTestSupport
import Testing

@testable import LuxCodecs

/// Band-by-band encoding gives the same file as encoding the whole picture.
@Suite struct StreamEncoderTests {
    static func bands(of image: PixelBuffer, heights: [Int]) throws -> [PixelBuffer] {
        var out: [PixelBuffer] = []
        var y = 0
        var k = 0
        while y < image.height {
            let h = min(heights[k % heights.count], image.height - y)
            out.append(try image.view(x: 0, y: y, width: image.width, height: h))
            y += h
            k += 1
        }
        return out
    }

    @Test("streamed JPEG and PNG files are byte-identical to one-shot encodes", arguments: [ImageFormat.jpeg, .png])
    func identical(_ format: ImageFormat) throws {
        var image = TestImages.gradient(width: 77, height: 61, format: .rgbaHalf, alpha: true)
        image.colorSpace = .extendedLinearDisplayP3
        var metadata = ImageMetadata()
        metadata.exif.make = "Lux"
        let options = EncodingOptions(quality: 0.8)
        let whole = try ImageFile(pixels: image, metadata: metadata, format: format).encoded(options: options)
        let encoder = try ImageStreamEncoder(
            format: format, width: image.width, height: image.height, pixelFormat: image.format,
            colorSpace: image.colorSpace, metadata: metadata, options: options)
        for band in try Self.bands(of: image, heights: [7, 16, 1, 5]) {
            var b = band
            b.colorSpace = nil  // the stream's colour space applies
            try encoder.append(b)
        }
        #expect(encoder.rowsWritten == image.height)
        let streamed = try encoder.finish()
        #expect(streamed == whole)
        #expect(try ImageFile.read(data: streamed).pixels.colorSpace?.isColorimetricallyEqual(to: .displayP3) == true)
    }

    /// A 77 × 61 gradient, opaque in its top 30 rows and translucent below (alpha varying along each row).
    static func partlyTransparent() -> PixelBuffer {
        var image = TestImages.gradient(width: 77, height: 61, format: .rgba8, alpha: false)
        image.withUnsafeMutablePlane { plane in
            for y in 30..<plane.height {
                let row = plane.row(y, as: UInt8.self)
                for x in 0..<plane.width { row[4 * x + 3] = UInt8(40 + 2 * x) }
            }
        }
        return image
    }

    @Test(
        "streamed WebP (lossy/lossless, opaque/translucent, odd bands) equals one-shot encodes; dwebp agrees",
        .needs("dwebp"),
        arguments: [false, true], [false, true])
    func identicalWebP(lossless: Bool, transparent: Bool) throws {
        var image =
            transparent
            ? Self.partlyTransparent() : TestImages.gradient(width: 77, height: 61, format: .rgba8, alpha: false)
        image.colorSpace = .sRGB
        var options = EncodingOptions(quality: 0.8)
        options.isLossless = lossless
        let whole = try ImageFile(pixels: image, format: .webp).encoded(options: options)
        let encoder = try ImageStreamEncoder(
            format: .webp, width: image.width, height: image.height, pixelFormat: image.format,
            colorSpace: image.colorSpace, options: options)
        for band in try Self.bands(of: image, heights: [7, 16, 1, 5]) { try encoder.append(band) }
        let streamed = try encoder.finish()
        #expect(streamed == whole)
        if lossless {
            let dir = try ExternalTool.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: dir) }
            let file = dir.appendingPathComponent("s.webp")
            try Data(streamed).write(to: file)
            let pam = dir.appendingPathComponent("s.pam").path
            let run = try ExternalTool.capture("dwebp", [file.path, "-pam", "-o", pam])
            try #require(run.status == 0, "dwebp: \(run.errorText)")
            let decoded = try Data(contentsOf: URL(fileURLWithPath: pam))
            // PAM: a text header ending in "ENDHDR\n", then RGBA rows.
            let header = try #require(decoded.range(of: Data("ENDHDR\n".utf8)))
            let samples = [UInt8](decoded[header.upperBound...])
            #expect(samples == image.components(as: UInt8.self), "dwebp's RGBA equals the source")
        }
    }

    @Test("misuse is refused: wrong width, too many or too few rows, appending after finishing, DNG, tiled TIFF")
    func misuse() throws {
        let image = TestImages.gradient(width: 16, height: 8)
        let encoder = try ImageStreamEncoder(
            format: .jpeg, width: 16, height: 8, pixelFormat: .rgba8, colorSpace: .sRGB)
        #expect(throws: CodecError.self) { try encoder.append(TestImages.gradient(width: 15, height: 8)) }
        try encoder.append(try image.view(x: 0, y: 0, width: 16, height: 4))
        #expect(throws: CodecError.self) { _ = try encoder.finish() }
        let again = try ImageStreamEncoder(format: .png, width: 16, height: 8, pixelFormat: .rgba8, colorSpace: .sRGB)
        #expect(throws: CodecError.self) { try again.append(TestImages.gradient(width: 16, height: 9)) }
        try again.append(image)
        _ = try again.finish()
        #expect(throws: CodecError.self) { try again.append(image) }
        #expect(throws: CodecError.self) {
            _ = try ImageStreamEncoder(format: .dng, width: 16, height: 8, pixelFormat: .rgba8, colorSpace: .sRGB)
        }
        #expect(throws: CodecError.self) {
            _ = try ImageStreamEncoder(
                format: .tiff, width: 16, height: 8, pixelFormat: .rgba8, colorSpace: .sRGB,
                options: EncodingOptions(tiffTileSize: 16))
        }
    }

    /// Streams `image` to `url` in odd bands; nothing may appear under the destination name until the file is complete.
    static func stream(
        _ image: PixelBuffer, to url: URL, metadata: ImageMetadata = ImageMetadata(),
        options: EncodingOptions = .default
    ) throws {
        let encoder = try ImageStreamEncoder(
            writingTo: url, width: image.width, height: image.height, pixelFormat: image.format,
            colorSpace: image.colorSpace, metadata: metadata, options: options)
        for band in try bands(of: image, heights: [7, 64, 1, 23]) {
            try encoder.append(band)
            #expect(!FileManager.default.fileExists(atPath: url.path))
        }
        try encoder.finish()
    }

    static let tiffCases: [(String, PixelFormat, EncodingOptions)] = [
        ("8-bit RGB", .rgba8, EncodingOptions(alpha: .discard)),
        ("16-bit RGBA deflate", .rgba16, EncodingOptions(tiffCompression: .deflate)),
        ("half RGBA", .rgbaHalf, EncodingOptions()),
        ("float RGB deflate", .rgbaFloat, EncodingOptions(alpha: .discard, tiffCompression: .deflate)),
        ("8-bit gray", .gray8, EncodingOptions()),
    ]

    @Test(
        "a TIFF streamed to a file in odd bands has the pixels of a one-shot encode (tiffcmp, tiffinfo)",
        .needs("tiffcmp"), arguments: tiffCases.map(\.0))
    func streamedTIFF(_ name: String) throws {
        let (_, format, options) = Self.tiffCases.first { $0.0 == name }!
        var image = TestImages.gradient(width: 301, height: 97, format: format, alpha: format.hasAlpha)
        image.colorSpace = format.isFloatingPoint ? .extendedLinearDisplayP3 : .displayP3
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let whole = dir.appendingPathComponent("whole.tif")
        let streamed = dir.appendingPathComponent("streamed.tif")
        try ImageFile.write(image, to: whole, format: .tiff, options: options)
        try Self.stream(image, to: streamed, options: options)
        let back = try ImageFile.read(url: streamed)
        let reference = try ImageFile.read(url: whole)
        #expect(back.pixels.format == reference.pixels.format)
        let same = back.pixels.components(as: UInt8.self) == reference.pixels.components(as: UInt8.self)
        #expect(same)
        #expect(back.pixels.colorSpace?.isColorimetricallyEqual(to: image.colorSpace!) == true)
        // Only the destination is left in the folder.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["streamed.tif", "whole.tif"])
        let compare = try ExternalTool.capture("tiffcmp", [whole.path, streamed.path])
        #expect(compare.status == 0, "\(compare.text)")
        let info = try ExternalTool.capture("tiffinfo", ["-D", streamed.path])
        #expect(info.status == 0 && !info.errorText.contains("Error"), "\(info.errorText)")
    }

    @Test(
        "a PNG streamed to a file in odd bands holds the pixels and chunks it was given (pngcheck; decoded back)",
        .needs("pngcheck"), arguments: [PixelFormat.rgba8, .rgba16])
    func streamedPNG(_ format: PixelFormat) throws {
        var image = TestImages.gradient(width: 301, height: 97, format: format, alpha: false)
        image.colorSpace = .displayP3
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let streamed = dir.appendingPathComponent("streamed.png")
        var metadata = ImageMetadata()
        metadata.exif.make = "Lux"
        try Self.stream(image, to: streamed, metadata: metadata)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["streamed.png"])
        let check = try ExternalTool.capture("pngcheck", ["-v", streamed.path])
        #expect(check.status == 0 && check.text.contains("No errors"), "\(check.text)")
        #expect(check.text.contains("IDAT") && check.text.contains("IEND") && check.text.contains("eXIf"))
        let back = try ImageFile.read(url: streamed)
        #expect(back.pixels.format == format)
        #expect(back.pixels.components(as: UInt8.self) == image.components(as: UInt8.self))
        #expect(back.metadata.exif.make == "Lux")
    }

    @Test(
        "an abandoned or failing streamed TIFF or PNG leaves the original file untouched and no temporary file",
        arguments: ["tif", "png"])
    func abandoned(_ suffix: String) throws {
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("keep." + suffix)
        try Data("original".utf8).write(to: url)
        let image = TestImages.gradient(width: 40, height: 30)
        do {
            let encoder = try ImageStreamEncoder(
                writingTo: url, width: 40, height: 30, pixelFormat: .rgba8, colorSpace: .sRGB)
            try encoder.append(try image.view(x: 0, y: 0, width: 40, height: 10))
            #expect(throws: CodecError.self) { try encoder.finish() }  // rows missing
        }
        #expect(try Data(contentsOf: url) == Data("original".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["keep." + suffix])
        #expect(throws: CodecError.self) {
            _ = try ImageStreamEncoder(
                writingTo: dir.appendingPathComponent("missing/x." + suffix), width: 4, height: 4, pixelFormat: .rgba8,
                colorSpace: .sRGB)
        }
    }
}
