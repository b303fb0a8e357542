import Foundation
import LuxColor
import LuxPixels
import LuxTestSupport
import Testing

@testable import LuxCodecs

/// AVIF reading and writing against libheif's tools (heif-enc, heif-info, heif-convert) and ffprobe.
@Suite struct AVIFTests {
    @Test(
        "An AVIF heif-enc writes decodes within 1.5 levels of heif-convert's decode", .needs("heif-enc", "heif-convert")
    )
    func readsHeifEncFiles() throws {
        let dir = try ExternalTool.temporaryDirectory()
        let source = TestImages.gradient(width: 96, height: 64)
        try ImageFile.write(source, to: URL(fileURLWithPath: dir + "/in.png"))
        let made = try ExternalTool.capture("heif-enc", ["-A", "-q", "80", dir + "/in.png", "-o", dir + "/a.avif"])
        try #require(made.status == 0, "heif-enc: \(made.errorText)")
        let back = try ExternalTool.capture("heif-convert", [dir + "/a.avif", dir + "/ref.png"])
        try #require(back.status == 0, "heif-convert: \(back.errorText)")
        let file = try ImageFile.read(url: URL(fileURLWithPath: dir + "/a.avif"))
        #expect(file.format == .avif)
        #expect(try ImageFile.info(url: URL(fileURLWithPath: dir + "/a.avif")).storage.hasPrefix("AV1"))
        let reference = try ImageFile.read(url: URL(fileURLWithPath: dir + "/ref.png")).pixels
        let d = WebPTests.meanDifference(file.pixels, reference)
        #expect(d <= 1.5, "mean |d| \(d)")
    }

    @Test(
        "Lux's AVIF files pass heif-info and ffprobe and decode close to the source",
        .needs("heif-info", "heif-convert", "ffprobe"))
    func writesValidFiles() throws {
        let dir = try ExternalTool.temporaryDirectory()
        let source = TestImages.gradient(width: 96, height: 64)
        var metadata = ImageMetadata()
        metadata.exif.model = "Lux AVIF Test"
        let path = dir + "/lux.avif"
        try ImageFile.write(source, metadata: metadata, to: URL(fileURLWithPath: path))
        let info = try ExternalTool.capture("heif-info", [path])
        #expect(
            info.status == 0 && info.text.contains("96x64") && !info.text.contains("alpha channel: yes"), "\(info.text)"
        )
        let probe = try ExternalTool.capture("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name", path])
        #expect(probe.text.contains("av1"), "\(probe.text)")
        let back = try ExternalTool.capture("heif-convert", [path, dir + "/ref.png"])
        try #require(back.status == 0, "heif-convert: \(back.errorText)")
        let decoded = try ImageFile.read(url: URL(fileURLWithPath: dir + "/ref.png")).pixels
        let d = WebPTests.meanDifference(decoded, source)
        #expect(d < 3, "mean |d| \(d)")
        #expect(try ImageFile.read(url: URL(fileURLWithPath: path)).metadata.exif.model == "Lux AVIF Test")
    }

    @Test("A truncated AVIF gives a typed error")
    func badInput() throws {
        let good = try AVIF.encode(TestImages.gradient(width: 64, height: 48))
        for cut in [good.count / 2, good.count - 20, 40] {
            #expect(throws: CodecError.self) { try ImageFile.read(data: Array(good.prefix(cut))) }
        }
    }
}
