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

    @Test("scene list names the photographic scenes beside the procedural ones", .needsLux)
    func list() throws {
        let lux = try #require(LuxExecutable.path)
        let r = try LuxExecutable.run(lux, ["scene", "list"])
        #expect(r.status == 0, "\(r.errorText)")
        for name in ["chart", "hdr-window", "photo-daylight", "photo-indoor", "photo-low-light", "photo-portrait"] {
            #expect(r.text.contains(name + " "), "\(name) missing from:\n\(r.text)")
        }
    }
}
