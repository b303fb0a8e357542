import Foundation
import LuxPixels
import LuxTestSupport
import Testing

@testable import LuxCodecs

/// Opaque, non-interlaced PNGs read by the region reader are decoded top to bottom as regions ask for rows; the
/// rows equal ImageMagick's decode.
@Suite struct PNGRowWindowTests {
    /// A PNG vips writes from the Live Photo still at a quarter size: 8-bit RGB, 16-bit gray, or interlaced RGB.
    static func makePNG(_ variant: String, in dir: URL) throws -> URL {
        let url = dir.appendingPathComponent("\(variant).png")
        let still = try TestData.path("livephoto/iphone6s_livephoto_train.jpg")
        let small = dir.appendingPathComponent("small.v")
        let resize = try ExternalTool.capture("vips", ["resize", still, small.path, "0.25"])
        #expect(resize.status == 0, "\(resize.errorText)")
        var source = small.path
        if variant == "gray16" {
            let gray = dir.appendingPathComponent("gray.v")
            _ = try ExternalTool.capture("vips", ["colourspace", small.path, gray.path, "grey16"])
            source = gray.path
        }
        let options = variant == "interlaced" ? ["--interlace"] : []
        let save = try ExternalTool.capture("vips", ["pngsave", source, url.path] + options)
        #expect(save.status == 0, "\(save.errorText)")
        return url
    }

    /// ImageMagick's decode as 16-bit big-endian samples, and the channel count.
    static func imageMagick(_ url: URL, gray: Bool) throws -> [UInt16] {
        let dump = try ExternalTool.capture(
            "convert", [url.path, "-endian", "MSB", "-depth", "16", gray ? "gray:-" : "rgb:-"]
        ).stdout
        return stride(from: 0, to: dump.count, by: 2).map { UInt16(dump[$0]) << 8 | UInt16(dump[$0 + 1]) }
    }

    @Test(
        "regions read in strip order, backwards and at random equal ImageMagick's decode", .needs("vips"),
        .needs("convert"), arguments: ["rgb8", "gray16", "interlaced"])
    func matchesImageMagick(_ variant: String) throws {
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = try Self.makePNG(variant, in: dir)
        let gray = variant == "gray16"
        let samples = try Self.imageMagick(url, gray: gray)
        let reader = try ImageRegionReader(url: url)
        let (width, height) = (reader.width, reader.height)
        let channels = gray ? 1 : 3
        #expect(samples.count == width * height * channels)
        #expect(reader.pixelFormat == (gray ? .gray16 : .rgba8))
        #expect(reader.isOpaque)
        try JPEGRowWindowTests.expectRegions(of: reader, equal: samples, channels: channels)
    }

    @Test(
        "a PNG cut short is refused when opened; one garbled late fails with a typed error at its rows", .needs("vips"))
    func damaged() throws {
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = try Self.makePNG("rgb8", in: dir)
        let bytes = [UInt8](try Data(contentsOf: url))
        let cut = dir.appendingPathComponent("cut.png")
        try Data(bytes[..<(bytes.count / 2)]).write(to: cut)
        #expect {
            _ = try ImageRegionReader(url: cut)
        } throws: { error in
            guard case CodecError.truncated = error else { return false }
            return true
        }
        var garbled = bytes
        for i in stride(from: garbled.count * 3 / 4, to: garbled.count * 3 / 4 + 4000, by: 7) { garbled[i] ^= 0x5A }
        let bad = dir.appendingPathComponent("bad.png")
        try Data(garbled).write(to: bad)
        let reader = try ImageRegionReader(url: bad)
        _ = try reader.read(x: 0, y: 0, width: reader.width, height: 8)
        #expect(throws: CodecError.self) {
            _ = try reader.read(x: 0, y: reader.height - 8, width: reader.width, height: 8)
        }
    }
}
