import Foundation
import LuxTestSupport
import Testing

/// Raw captures of the photographic scenes, judged by exiftool, LibRaw's dcraw_emu and the Adobe DNG SDK.
@Suite struct PhotoSceneDNGTests {
    /// Captures one raw photo of `scene` on a 320 × 240 sensor into `dir`; returns the DNG's path.
    static func capture(_ scene: String, into dir: URL) throws -> String {
        let lux = try #require(LuxExecutable.path)
        let r = try LuxExecutable.run(
            lux, ["capture", "--raw", "--scene", scene, "--sensor", "320x240", "-o", dir.path])
        try #require(r.status == 0, "\(r.errorText)")
        let dng = try #require(try CLIFixtures.files(in: dir).first { $0.hasSuffix(".dng") })
        return dir.appendingPathComponent(dng).path
    }

    @Test(
        "A DNG captured from a photographic scene passes exiftool -validate; it records 336 × 256 photosites with the 320 × 240 picture as its default crop, and dcraw_emu (LibRaw 0.20 ignores the crop) develops them all",
        .needsLux, .needs("exiftool", "dcraw_emu"), arguments: ["photo-portrait", "photo-low-light"])
    func dngFromPhotoScene(scene: String) throws {
        let dir = try ExternalTool.temporaryFolder("lux-photo-dng")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try Self.capture(scene, into: dir)
        let validation = try ExternalTool.capture("exiftool", ["-s3", "-validate", "-warning", "-a", path])
        #expect(validation.text.split(separator: "\n") == ["OK"], "\(validation.text)")
        let crop = try ExternalTool.capture("exiftool", ["-s3", "-DefaultCropOrigin", "-DefaultCropSize", path])
        #expect(crop.text.split(separator: "\n") == ["8 8", "320 240"], "\(crop.text)")
        let developed = try ExternalTool.capture("dcraw_emu", ["-w", "-T", path])
        #expect(developed.status == 0, "\(developed.errorText)")
        let size = try ExternalTool.capture("exiftool", ["-s3", "-ImageWidth", "-ImageHeight", path + ".tiff"])
        #expect(size.text.split(separator: "\n") == ["336", "256"], "\(size.text)")
    }

    @Test(
        "The Adobe DNG SDK reads a captured DNG without warnings (no 'too little padding'), at the crop Lux wrote: 320 × 240 of 336 × 256, the size lux develop gives",
        .needsLux, .needsDNGSDK, .needs("exiftool"))
    func sdkReadsCapturedDNG() throws {
        let dir = try ExternalTool.temporaryFolder("lux-photo-dng-sdk")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try Self.capture("photo-portrait", into: dir)
        let reading = try AdobeDNGSDK.read(URL(fileURLWithPath: path))
        #expect(reading.complaints.isEmpty, "\(reading.complaints)")
        #expect(reading.bayerPattern == "RGGB")
        #expect([reading.rawWidth, reading.rawHeight, reading.width, reading.height] == [Int]([336, 256, 320, 240]))
        let lux = try #require(LuxExecutable.path)
        let out = dir.appendingPathComponent("developed.tiff").path
        let r = try LuxExecutable.run(lux, ["develop", path, "-o", out])
        try #require(r.status == 0, "\(r.errorText)")
        let size = try ExternalTool.capture("exiftool", ["-s3", "-ImageWidth", "-ImageHeight", out])
        #expect(size.text.split(separator: "\n") == ["320", "240"], "\(size.text)")
    }
}
