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

    @Test("misuse is refused: wrong width, too many or too few rows, appending after finishing, TIFF")
    func misuse() throws {
        let image = TestImages.gradient(width: 16, height: 8)
        let encoder = try ImageStreamEncoder(format: .jpeg, width: 16, height: 8, pixelFormat: .rgba8, colorSpace: .sRGB)
        #expect(throws: CodecError.self) { try encoder.append(TestImages.gradient(width: 15, height: 8)) }
        try encoder.append(try image.view(x: 0, y: 0, width: 16, height: 4))
        #expect(throws: CodecError.self) { _ = try encoder.finish() }
        let again = try ImageStreamEncoder(format: .png, width: 16, height: 8, pixelFormat: .rgba8, colorSpace: .sRGB)
        #expect(throws: CodecError.self) { try again.append(TestImages.gradient(width: 16, height: 9)) }
        try again.append(image)
        _ = try again.finish()
        #expect(throws: CodecError.self) { try again.append(image) }
        #expect(throws: CodecError.self) {
            _ = try ImageStreamEncoder(format: .tiff, width: 16, height: 8, pixelFormat: .rgba8, colorSpace: .sRGB)
        }
    }
}
