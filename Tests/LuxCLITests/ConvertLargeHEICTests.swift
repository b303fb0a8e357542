import Foundation
import LuxTestSupport
import Testing

/// The ~200-megapixel HEIC → JPEG case of `lux convert`, whose peak memory must stay under 1 GB (libheif decodes to
/// planes; colour conversion and JPEG encoding go strip by strip).
@Suite struct ConvertLargeHEICTests {
    @Test(
        "a 195 MP grid HEIC (4 × 4 iPhone photos, written by lux: heif-enc 1.15 writes no grids) converts to JPEG with peak RSS < 1 GB (/usr/bin/time)",
        .tags(.long), .longRunning, .needsLux, .needs("vips", "vipsheader"),
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/time"), "needs /usr/bin/time"))
    func twoHundredMegapixels() throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try ExternalTool.temporaryFolder("lux-convert-large")
        defer { try? FileManager.default.removeItem(at: dir) }
        let photo = dir.appendingPathComponent("photo.jpg").path
        let big = dir.appendingPathComponent("big.tif").path
        let heic = dir.appendingPathComponent("big.heic").path
        let out = dir.appendingPathComponent("big.jpg").path
        let sample = try TestData.path("heic/iphone13pro_portrait_depth.heic")
        try #require(try ExternalTool.capture("vips", ["copy", sample, photo + "[Q=95]"]).status == 0)
        let tiles = Array(repeating: photo, count: 16).joined(separator: " ")
        let joined = try ExternalTool.capture("vips", ["arrayjoin", tiles, big, "--across", "4"])
        try #require(joined.status == 0, "vips: \(joined.errorText)")
        let encoded = try LuxExecutable.run(lux, ["convert", big, "-o", heic, "--quality", "80"])
        try #require(encoded.status == 0, "\(encoded.errorText)")
        try FileManager.default.removeItem(atPath: big)

        let timing = dir.appendingPathComponent("time.txt").path
        let r = try ExternalTool.capture(
            "/usr/bin/time", ["-f", "%M", "-o", timing, lux, "convert", heic, "-o", out, "--quality", "90"])
        try #require(r.status == 0, "\(r.errorText)")
        let kilobytes = try #require(
            Int(try String(contentsOfFile: timing, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(kilobytes * 1024 < 1 << 30, "peak RSS \(kilobytes / 1024) MB")
        let size =
            try ExternalTool.capture("vipsheader", ["-f", "width", out]).text
            + "x" + ExternalTool.capture("vipsheader", ["-f", "height", out]).text
        #expect(size.replacingOccurrences(of: "\n", with: "") == "16128x12096")
    }
}
