import Foundation
import Lux
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
        .needsLux, .needs("exiftool", "dcraw_emu"), arguments: Scene.photographicCatalogNames)
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

extension PhotoSceneDNGTests {
    /// The mean of each cell of a `columns` × `rows` grid over an image's (R + G + B) / 3, row by row.
    static func cellMeans(_ image: NetpbmImage, columns: Int = 8, rows: Int = 6) -> [Double] {
        var out: [Double] = []
        for cy in 0..<rows {
            for cx in 0..<columns {
                var sum = 0.0
                var n = 0.0
                for y in (cy * image.height / rows)..<((cy + 1) * image.height / rows) {
                    for x in (cx * image.width / columns)..<((cx + 1) * image.width / columns) {
                        let i = (y * image.width + x) * image.channels
                        for c in 0..<min(3, image.channels) { sum += Double(image.samples[i + c]) }
                        n += Double(min(3, image.channels))
                    }
                }
                out.append(sum / n)
            }
        }
        return out
    }

    /// Pearson's correlation coefficient.
    static func correlation(_ a: [Double], _ b: [Double]) -> Double {
        let ma = a.reduce(0, +) / Double(a.count)
        let mb = b.reduce(0, +) / Double(b.count)
        var ab = 0.0
        var aa = 0.0
        var bb = 0.0
        for (x, y) in zip(a, b) {
            ab += (x - ma) * (y - mb)
            aa += (x - ma) * (x - ma)
            bb += (y - mb) * (y - mb)
        }
        return ab / (aa * bb).squareRoot()
    }

    @Test(
        "darktable-cli develops a DNG captured from every photographic scene (one run over a folder of them) at the sensor's 320 × 240, and each picture follows its scene's ground truth",
        .needsLux, .needs("darktable-cli", "vips"), .timeLimit(.minutes(3)))
    func darktableDevelops() throws {
        let lux = try #require(LuxExecutable.path)
        let root = try ExternalTool.temporaryFolder("lux-photo-darktable")
        defer { try? FileManager.default.removeItem(at: root) }
        let inputs = root.appendingPathComponent("dng")
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        for scene in Scene.photographicCatalogNames {
            let dir = root.appendingPathComponent(scene)
            let dng = try Self.capture(scene, into: dir)
            try FileManager.default.moveItem(
                atPath: dng, toPath: inputs.appendingPathComponent(scene + ".dng").path)
        }
        // darktable starts once (its start-up, not the development, is most of its time) and exports the folder.
        let outputs = root.appendingPathComponent("developed")
        let run = try ExternalTool.capture(
            "darktable-cli",
            [
                inputs.path, outputs.appendingPathComponent("$(FILE_NAME)").path, "--out-ext", "ppm", "--core",
                "--configdir", root.appendingPathComponent("dtconf").path, "--library", ":memory:", "--disable-opencl",
            ])
        for scene in Scene.photographicCatalogNames {
            let developed = outputs.appendingPathComponent(scene + ".ppm")
            try #require(
                FileManager.default.fileExists(atPath: developed.path), "\(scene): darktable-cli: \(run.errorText)")
            let picture = try NetpbmImage(Data(contentsOf: developed))
            #expect(picture.width == 320 && picture.height == 240, "\(scene): \(picture.width) × \(picture.height)")
            // The ground truth, rendered by lux and converted by vips, against darktable's picture: cell by cell, the
            // brightness (whatever the two tone curves) rises and falls together.
            let dir = root.appendingPathComponent(scene)
            let truthPNG = dir.appendingPathComponent("truth.png").path
            let t = try LuxExecutable.run(lux, ["scene", "render", scene, "-o", truthPNG, "--width", "320"])
            try #require(t.status == 0, "\(t.errorText)")
            let truthPPM = dir.appendingPathComponent("truth.ppm").path
            try ExternalTool.capture("vips", ["copy", truthPNG, truthPPM]).succeeded()
            let truth = try NetpbmImage(Data(contentsOf: URL(fileURLWithPath: truthPPM)))
            let rho = Self.correlation(Self.cellMeans(picture), Self.cellMeans(truth))
            #expect(rho > 0.9, "\(scene): correlation of 8 × 6 cell means with the ground truth: \(rho)")
        }
    }
}
