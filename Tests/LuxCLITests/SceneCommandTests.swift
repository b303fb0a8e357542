import Foundation
import LuxTestSupport
import Testing

/// `lux scene` and `--scene photo:FILE` on photographs.
@Suite struct SceneCommandTests {
    @Test(
        "scene render photo:FILE gives a vips-made grey print back as its ground truth (sRGB 128 ± 2); bad files are named",
        .needsLux, .needs("vips"))
    func renderPhotograph() throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(try ExternalTool.run("vips", ["black", dir + "/black.png", "64", "48", "--bands", "3"]).status == 0)
        #expect(
            try ExternalTool.run("vips", ["linear", dir + "/black.png", dir + "/grey.png", "1", "128", "--uchar"])
                .status == 0)
        let out = dir + "/truth.png"
        let r = try LuxExecutable.run(
            lux, ["scene", "render", "photo:" + dir + "/grey.png", "-o", out, "--width", "64"])
        #expect(r.status == 0, "\(r.errorText)")
        let point = try ExternalTool.run("vips", ["getpoint", out, "32", "24"])
        let values = String(decoding: point.output, as: UTF8.self).split(separator: " ").compactMap {
            Double($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        #expect(values.count >= 3)
        // A PNG is written with 16 bits per sample: 128 is 128 × 257.
        for v in values.prefix(3) { #expect(abs(v / 257 - 128) <= 2, "\(values)") }

        let missing = try LuxExecutable.run(
            lux, ["scene", "render", "photo:" + dir + "/none.jpg", "-o", dir + "/x.png"])
        #expect(missing.status != 0 && missing.errorText.contains(dir + "/none.jpg"), "\(missing.errorText)")
        let malformed = try LuxExecutable.run(
            lux, ["scene", "render", "photo:" + dir + "/grey.png,deep=x", "-o", dir + "/y.png"])
        #expect(malformed.status != 0 && malformed.errorText.contains("depth=FILE"), "\(malformed.errorText)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/x.png"))
    }

    @Test(
        "photo:FILE,size=N reduces a 4032 × 3024 sRGB JPEG to N pixels with the colours of vips thumbnail (per-channel means within 1 %)",
        .needsLux, .needs("vips"))
    func reducedPhotographColours() throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try ExternalTool.temporaryFolder("lux-photo-size")
        defer { try? FileManager.default.removeItem(at: dir) }
        let photo = try TestData.path("livephoto/iphone6s_livephoto_train.jpg")
        let rendered = dir.appendingPathComponent("lux.png").path
        let r = try LuxExecutable.run(
            lux, ["scene", "render", "photo:" + photo + ",size=256", "-o", rendered, "--width", "256"])
        try #require(r.status == 0, "\(r.errorText)")
        let thumbnail = dir.appendingPathComponent("vips.png").path
        try ExternalTool.capture("vips", ["thumbnail", photo, thumbnail, "256"]).succeeded()
        func pixels(_ png: String) throws -> NetpbmImage {
            let ppm = png + ".ppm"
            try ExternalTool.capture("vips", ["copy", png, ppm]).succeeded()
            return try NetpbmImage(Data(contentsOf: URL(fileURLWithPath: ppm)))
        }
        let a = try pixels(rendered)
        let b = try pixels(thumbnail)
        try #require(a.width == 256 && a.height == 192 && b.width == 256 && b.height == 192, "\(a.width)×\(a.height)")
        // Per-channel means over the pixels neither clips (the scene makes a photograph's near-white parts shine
        // above its white).
        var sums = (SIMD3<Double>.zero, SIMD3<Double>.zero)
        var n = 0.0
        for i in 0..<(256 * 192) {
            var p = SIMD3<Double>.zero
            var q = SIMD3<Double>.zero
            for c in 0..<3 {
                p[c] = Double(a.samples[3 * i + c]) / Double(a.maxValue)
                q[c] = Double(b.samples[3 * i + c]) / Double(b.maxValue)
            }
            guard p.max() < 0.9, q.max() < 0.9 else { continue }
            sums.0 += p
            sums.1 += q
            n += 1
        }
        #expect(n > 256 * 192 / 2)
        let difference = (sums.0 - sums.1) / n
        #expect(
            max(abs(difference.x), abs(difference.y), abs(difference.z)) < 0.01,
            "per-channel mean difference \(difference) over \(Int(n)) pixels")

        let malformed = try LuxExecutable.run(
            lux, ["scene", "render", "photo:" + photo + ",size=big", "-o", dir.appendingPathComponent("x.png").path])
        #expect(malformed.status != 0 && malformed.errorText.contains("size=big"), "\(malformed.errorText)")
    }

    @Test("capture --parallax photographs a photographic scene with a sliding hand-held camera", .needsLux)
    func captureWithParallax() throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try ExternalTool.temporaryFolder("lux-parallax")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try LuxExecutable.run(
            lux, ["capture", "--scene", "photo-portrait", "--parallax", "--sensor", "320x240", "-o", dir.path])
        #expect(r.status == 0, "\(r.errorText)")
        #expect(try CLIFixtures.files(in: dir).contains { $0.hasSuffix(".jpg") || $0.hasSuffix(".heic") })
    }

    @Test(
        "lux codes detect reads the QR and Aztec codes of photo-codes back from a hand-held capture", .needsLux)
    func codesFromCapture() throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try ExternalTool.temporaryFolder("lux-photo-codes")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try LuxExecutable.run(
            lux, ["capture", "--scene", "photo-codes", "--handheld", "--sensor", "640x480", "-o", dir.path])
        try #require(r.status == 0, "\(r.errorText)")
        let photo = try #require(try CLIFixtures.files(in: dir).first { $0.hasSuffix(".jpg") })
        let d = try LuxExecutable.run(lux, ["codes", "detect", dir.appendingPathComponent(photo).path])
        #expect(d.status == 0, "\(d.errorText)")
        let lines = d.text.split(separator: "\n")
        #expect(lines.contains { $0.contains(" qr ") && $0.hasSuffix(" https://lux.example/photo-codes") }, "\(d.text)")
        #expect(lines.contains { $0.contains(" aztec ") && $0.hasSuffix(" LUX AZTEC 30") }, "\(d.text)")
    }

    @Test("scene list names the photographic scenes beside the procedural ones", .needsLux)
    func list() throws {
        let lux = try #require(LuxExecutable.path)
        let r = try LuxExecutable.run(lux, ["scene", "list"])
        #expect(r.status == 0, "\(r.errorText)")
        for name in [
            "chart", "hdr-window", "photo-daylight", "photo-indoor", "photo-low-light", "photo-portrait", "photo-codes",
        ] {
            #expect(r.text.contains(name + " "), "\(name) missing from:\n\(r.text)")
        }
    }
}
