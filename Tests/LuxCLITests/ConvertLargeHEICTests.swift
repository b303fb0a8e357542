import Foundation
import LuxTestSupport
import Testing

/// The ~200-megapixel HEIC → JPEG case of `lux convert`, whose peak memory must stay under 1 GB (libheif decodes to
/// planes; colour conversion and JPEG encoding go strip by strip).
@Suite struct ConvertLargeHEICTests {
    /// Grid cells across and down: 25 × 30 cells of 512 × 512 make 12800 × 15360 (197 MP, under the default
    /// `DecodingLimits` of 200 MP).
    static let columns = 25
    static let rows = 30

    @Test(
        "a 197 MP grid HEIC (one heif-enc tile referenced 25 × 30 times) converts to JPEG with peak RSS < 1 GB; tiles match heif-convert",
        .tags(.long), .longRunning, .needsLux, .needs("heif-enc", "heif-convert", "heif-info", "vips", "vipsheader"),
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/time"), "needs /usr/bin/time"))
    func twoHundredMegapixels() throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try ExternalTool.temporaryFolder("lux-convert-large")
        defer { try? FileManager.default.removeItem(at: dir) }
        let tilePNG = dir.appendingPathComponent("tile.png").path
        let tileHEIC = dir.appendingPathComponent("tile.heic").path
        let reference = dir.appendingPathComponent("reference.png").path
        let heic = dir.appendingPathComponent("big.heic").path
        let out = dir.appendingPathComponent("big.jpg").path
        let sample = try TestData.path("heic/iphone13pro_portrait_depth.heic")
        try ExternalTool.capture("vips", ["crop", sample, tilePNG + "[strip]", "1200", "1600", "512", "512"])
            .succeeded()
        try ExternalTool.capture("heif-enc", ["-q", "80", tilePNG, "-o", tileHEIC]).succeeded()
        let grid = try HEIFGridFile(tile: try Data(contentsOf: URL(fileURLWithPath: tileHEIC)))
        try grid.file(columns: Self.columns, rows: Self.rows).write(to: URL(fileURLWithPath: heic))
        let width = Self.columns * grid.tileWidth
        let height = Self.rows * grid.tileHeight
        let info = try ExternalTool.capture("heif-info", [heic]).succeeded().text
        try #require(info.contains("image: \(width)x\(height)"), "heif-info: \(info)")

        let timing = dir.appendingPathComponent("time.txt").path
        let r = try ExternalTool.capture(
            "/usr/bin/time", ["-f", "%M %e", "-o", timing, lux, "convert", heic, "-o", out])
        try #require(r.status == 0, "\(r.errorText)")
        let measured = try String(contentsOfFile: timing, encoding: .utf8).split(whereSeparator: \.isWhitespace)
        let kilobytes = try #require(measured.first.flatMap { Int($0) })
        #expect(kilobytes * 1024 < 1 << 30, "peak RSS \(kilobytes / 1024) MB")
        let size =
            try ExternalTool.capture("vipsheader", ["-f", "width", out]).text
            + "x" + ExternalTool.capture("vipsheader", ["-f", "height", out]).text
        #expect(size.replacingOccurrences(of: "\n", with: "") == "\(width)x\(height)")

        // Every cell is the same coded tile, so each cell of the output must match heif-convert's decode of it.
        try ExternalTool.capture("heif-convert", ["--quiet", tileHEIC, reference]).succeeded()
        for (column, row) in [(0, 0), (Self.columns / 2, Self.rows / 2 + 1), (Self.columns - 1, Self.rows - 1)] {
            let cell = dir.appendingPathComponent("cell-\(column)-\(row).png").path
            try ExternalTool.capture(
                "vips",
                [
                    "extract_area", out, cell, "\(column * grid.tileWidth)", "\(row * grid.tileHeight)",
                    "\(grid.tileWidth)", "\(grid.tileHeight)",
                ]
            ).succeeded()
            let mean = try ConvertCommandTests.difference(cell, reference, in: dir).mean
            #expect(mean <= 2, "cell (\(column), \(row)): mean difference \(mean) levels")
        }
    }
}
