import Foundation
import LuxCodecs
import LuxIO
import LuxRAW
import LuxRender
import LuxTestSupport
import Testing

/// ``RAWDeveloper/outputMetadata(for:detail:)`` and ``RAWDeveloper/renderOptions(threadCount:)``: a developed JPEG
/// read back by exiftool carries the raw's Exif as exiftool reads it from the DNG, upright, with its own size.
@Suite struct OutputMetadataTests {
    static func tags(_ file: String) throws -> [String: String] {
        let r = try ExternalTool.capture(
            "exiftool",
            [
                "-s", "-n", "-Make", "-Model", "-ExposureTime", "-ISO", "-Orientation", "-Software", "-ExifImageWidth",
                "-ExifImageHeight", "-ImageWidth", "-ImageHeight", file,
            ])
        var out: [String: String] = [:]
        for line in r.text.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2 {
                out[parts[0].trimmingCharacters(in: .whitespaces)] = parts[1].trimmingCharacters(in: .whitespaces)
            }
        }
        return out
    }

    @Test(
        "a developed file keeps the raw's camera and exposure tags, is upright, has its own size and names Lux",
        .enabled(if: ExternalTool.isAvailable("exiftool"), "needs exiftool"))
    func developedFile() throws {
        let folder = try ExternalTool.temporaryFolder("lux-output-metadata")
        defer { try? FileManager.default.removeItem(at: folder) }
        var developer = try RAWDeveloper(url: URL(fileURLWithPath: TestFiles.canon550D))
        developer.scaleFactor = 0.5  // half size: the developed size differs from every size in the DNG
        let image = try developer.outputImage
        let url = folder.appendingPathComponent("developed.jpg")
        try RenderContext(options: RAWDeveloper.renderOptions(threadCount: 2)).write(
            image, to: url, metadata: developer.outputMetadata(for: image, detail: "a test"),
            rowsPerStrip: RAWDeveloper.renderTileSize)

        let raw = try Self.tags(TestFiles.canon550D)
        let developed = try Self.tags(url.path)
        for tag in ["Make", "Model", "ExposureTime", "ISO"] {
            #expect(developed[tag] != nil && developed[tag] == raw[tag], "\(tag): \(developed) vs \(raw)")
        }
        #expect(developed["Orientation"] == "1")
        #expect(developed["Software"] == "Lux (a test, LuxRAW \(developer.version))")
        #expect(developed["ExifImageWidth"] == developed["ImageWidth"] && developed["ImageWidth"] != nil)
        #expect(developed["ExifImageHeight"] == developed["ImageHeight"] && developed["ImageHeight"] != nil)
        #expect(developed["ImageWidth"] != raw["ImageWidth"], "the developed size is not the raw's stored size")
    }
}
