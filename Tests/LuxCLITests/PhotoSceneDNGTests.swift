import Foundation
import LuxTestSupport
import Testing

/// Raw captures of the photographic scenes, judged by exiftool and LibRaw's dcraw_emu.
@Suite struct PhotoSceneDNGTests {
    @Test(
        "A DNG captured from a photographic scene passes exiftool -validate and dcraw_emu develops it at the sensor's 320 × 240",
        .needsLux, .needs("exiftool", "dcraw_emu"), arguments: ["photo-portrait", "photo-low-light"])
    func dngFromPhotoScene(scene: String) throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try ExternalTool.temporaryFolder("lux-photo-dng")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try LuxExecutable.run(
            lux, ["capture", "--raw", "--scene", scene, "--sensor", "320x240", "-o", dir.path])
        try #require(r.status == 0, "\(r.errorText)")
        let dng = try #require(try CLIFixtures.files(in: dir).first { $0.hasSuffix(".dng") })
        let path = dir.appendingPathComponent(dng).path
        let validation = try ExternalTool.capture("exiftool", ["-s3", "-validate", "-warning", "-a", path])
        #expect(validation.text.split(separator: "\n") == ["OK"], "\(validation.text)")
        let developed = try ExternalTool.capture("dcraw_emu", ["-w", "-T", path])
        #expect(developed.status == 0, "\(developed.errorText)")
        let size = try ExternalTool.capture("exiftool", ["-s3", "-ImageWidth", "-ImageHeight", path + ".tiff"])
        #expect(size.text.split(separator: "\n") == ["320", "240"], "\(size.text)")
    }
}
