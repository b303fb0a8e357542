import Foundation
import LuxCodecs
import LuxPixels
import LuxTestSupport
import Testing

/// `lux hdr` on a −2/0/+2 EV raw bracket of the simulated camera's "hdr-window" scene: a room lit by 150 lx of
/// tungsten light with a window onto a street in 20 000 lx of daylight.
///
/// The oracle is the scene's physics: a diffuse surface of reflectance ρ under illuminance E has luminance ρE/π, so
/// the grey façade outside (ρ = 0.3, 20 000 lx) is (0.3 · 20 000)/(0.05 · 150) = 800 times as bright as the dark
/// skirting inside (ρ = 0.05, 150 lx), whatever the light's colour.
@Suite struct HDRCommandTests {
    /// Patches in frame fractions (x0, y0, x1, y1), inside each surface's outline in LuxScene's hdr-window (scene
    /// y × 4/3 on the 4:3 sensor): the façade below the window's transom and above the tree, the skirting's middle.
    static let facade = (0.31, 0.465, 0.46, 0.52)
    static let skirting = (0.32, 0.86, 0.70, 0.97)
    static let expectedRatio = 800.0

    /// Mean and standard deviation of the luminance (BT.709/sRGB primaries) in a patch of linear RGB.
    static func luminance(_ image: PixelBuffer, _ patch: (Double, Double, Double, Double)) -> (
        mean: Double, deviation: Double
    ) {
        let x0 = Int(patch.0 * Double(image.width))
        let x1 = Int(patch.2 * Double(image.width))
        let y0 = Int(patch.1 * Double(image.height))
        let y1 = Int(patch.3 * Double(image.height))
        let rgba = image.converted(to: .rgbaFloat)
        var values: [Double] = []
        rgba.withUnsafePlane { plane in
            for y in y0..<y1 {
                let r = plane.row(y, as: Float.self)
                for x in x0..<x1 {
                    values.append(
                        0.2126 * Double(r[4 * x]) + 0.7152 * Double(r[4 * x + 1]) + 0.0722 * Double(r[4 * x + 2]))
                }
            }
        }
        let mean = values.reduce(0, +) / Double(values.count)
        let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count - 1)
        return (mean, variance.squareRoot())
    }

    @Test(
        "a −2/0/+2 EV raw bracket merges into float radiance with the scene's 800:1 ratio, cleaner shadows than any bracket, and files exiftool and tiffinfo accept",
        .needsLux, .needs("exiftool", "tiffinfo"))
    func windowScene() throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try ExternalTool.temporaryFolder("lux-hdr")
        defer { try? FileManager.default.removeItem(at: dir) }
        let shot = try LuxExecutable.run(
            lux,
            ["capture", "--raw", "--scene", "hdr-window", "--bracket", "-2,0,2", "--sensor", "512x384", "-o", dir.path])
        try #require(shot.status == 0, "lux capture failed: \(shot.errorText)")
        let raws = try CLIFixtures.files(in: dir).filter { $0.hasSuffix(".dng") }.map {
            dir.appendingPathComponent($0).path
        }
        try #require(raws.count == 3, "\(raws)")
        // Exposures from the files' EXIF (time × ISO), darkest first.
        let times = try raws.map { path -> (seconds: Double, iso: Double) in
            let exif = try #require(try ImageFile.read(url: URL(fileURLWithPath: path)).rawImage).properties.exif
            return (try #require(exif.exposureTime).doubleValue, Double(exif.isoSpeed ?? 100))
        }
        let exposures = times.map { $0.seconds * $0.iso }
        let order = exposures.indices.sorted { exposures[$0] < exposures[$1] }
        #expect(abs(log2(exposures[order[2]] / exposures[order[0]]) - 4) < 0.2, "brackets 4 EV apart: \(exposures)")

        let merged = dir.appendingPathComponent("radiance.tif")
        // No noise reduction here or for the single brackets below: the comparison is of the merge alone.
        let r = try LuxExecutable.run(lux, ["hdr"] + raws + ["-o", merged.path, "--nr-luma", "0", "--nr-color", "0"])
        try #require(r.status == 0, "\(r.errorText)")
        let hdr = try ImageFile.read(url: merged).pixels
        let facade = Self.luminance(hdr, Self.facade)
        let skirting = Self.luminance(hdr, Self.skirting)
        let ratio = facade.mean / skirting.mean
        #expect(abs(ratio / Self.expectedRatio - 1) < 0.15, "façade/skirting radiance ratio \(ratio), scene 800")

        // Each bracket developed alone the same way (linear, no highlight recovery, tone curve, sharpening or noise
        // reduction): each clips the window or is noisier in the shadows.
        var singles: [(ratio: Double, shadowNoise: Double)] = []
        for k in order {
            let out = dir.appendingPathComponent("single-\(k).tif")
            let d = try LuxExecutable.run(
                lux,
                [
                    "develop", raws[k], "-o", out.path, "--depth", "float", "--color-space", "linear", "--boost", "0",
                    "--sharpen", "0", "--no-highlight-recovery", "--nr-luma", "0", "--nr-color", "0",
                ])
            try #require(d.status == 0, "\(d.errorText)")
            let image = try ImageFile.read(url: out).pixels
            let f = Self.luminance(image, Self.facade)
            let s = Self.luminance(image, Self.skirting)
            singles.append((f.mean / s.mean, s.deviation / s.mean))
        }
        let mergedNoise = skirting.deviation / skirting.mean
        for (i, single) in singles.enumerated() {
            let rightHighlights = abs(single.ratio / Self.expectedRatio - 1) < 0.15
            #expect(
                !rightHighlights || single.shadowNoise > mergedNoise,
                "bracket \(i): ratio \(single.ratio), shadow noise \(single.shadowNoise); merged \(ratio), \(mergedNoise)"
            )
        }
        // The brightest bracket clips the window (the façade reads far too dark against the skirting); the merge's
        // shadows are cleaner than even the longest exposure's (inverse-variance weights: about √(4/5.25) of its
        // noise), and much cleaner than the darkest's.
        #expect(abs(singles[2].ratio / Self.expectedRatio - 1) > 0.3, "+2 EV ratio \(singles[2].ratio)")
        #expect(
            mergedNoise < singles[2].shadowNoise, "merged shadow noise \(mergedNoise), +2 EV \(singles[2].shadowNoise)")
        #expect(
            mergedNoise < singles[0].shadowNoise / 4,
            "merged shadow noise \(mergedNoise), −2 EV \(singles[0].shadowNoise)")

        // Third-party readers: a 32-bit IEEE float RGB TIFF with the reference's Exif.
        let info = try ExternalTool.capture("tiffinfo", [merged.path])
        #expect(
            info.status == 0 && info.text.contains("Bits/Sample: 32") && info.text.contains("IEEE floating point"),
            "\(info.text)")
        let tags = try ExternalTool.capture(
            "exiftool", ["-json", "-n", "-ExposureTime", "-ImageWidth", merged.path])
        let object = try #require((try JSONSerialization.jsonObject(with: tags.stdout) as? [[String: Any]])?.first)
        #expect(object["ImageWidth"] as? Int == hdr.width)
        let reference = try #require(object["ExposureTime"] as? Double)
        #expect(abs(reference / times[order[1]].seconds - 1) < 0.01, "the middle exposure's Exif: \(object)")
    }

    @Test(
        "bad inputs: a JPEG bracket, brackets of different sizes and a wrong --exposures count are clear errors with no output",
        .needsLux)
    func badInputs() throws {
        let lux = try #require(LuxExecutable.path)
        let small = try CLIFixtures.raws(lux, count: 1, sensor: "128x96")
        let large = try CLIFixtures.raws(lux, count: 1, sensor: "160x120")
        let dir = try ExternalTool.temporaryFolder("lux-hdr-bad")
        defer {
            for d in [small, large, dir] { try? FileManager.default.removeItem(at: d) }
        }
        let a = small.appendingPathComponent(try CLIFixtures.files(in: small)[0]).path
        let b = large.appendingPathComponent(try CLIFixtures.files(in: large)[0]).path
        let jpeg = dir.appendingPathComponent("a.jpg").path
        let d = try LuxExecutable.run(lux, ["develop", a, "-o", jpeg])
        try #require(d.status == 0, "\(d.errorText)")
        let out = dir.appendingPathComponent("out.tif").path

        let notRaw = try LuxExecutable.run(lux, ["hdr", a, jpeg, "-o", out])
        #expect(
            notRaw.status != 0 && notRaw.errorText.contains("a.jpg") && notRaw.errorText.contains("not a raw file"),
            "\(notRaw.errorText)")
        // The 128 × 96 and 160 × 120 captures record 8 photosites more on each side (their DNGs' active areas).
        let sizes = try LuxExecutable.run(lux, ["hdr", a, b, "-o", out])
        #expect(
            sizes.status != 0 && sizes.errorText.contains("144×112") && sizes.errorText.contains("176×136"),
            "\(sizes.errorText)")
        let count = try LuxExecutable.run(lux, ["hdr", a, a, "-o", out, "--exposures", "1,2,4"])
        #expect(count.status != 0 && count.errorText.contains("--exposures"), "\(count.errorText)")
        for r in [notRaw, sizes, count] { #expect(!r.errorText.contains("Fatal error")) }
        #expect(try CLIFixtures.allFiles(in: dir) == ["a.jpg"])
    }
}
