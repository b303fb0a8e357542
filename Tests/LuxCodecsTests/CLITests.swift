import Foundation
import LuxTestSupport
import Testing

@testable import LuxCodecs

/// `lux info` and `lux extract`, run as the built executable (skipped when it has not been built).
@Suite struct CLITests {
    func run(_ lux: String, _ args: [String]) throws -> ExternalTool.Capture {
        try ExternalTool.capture(lux, args)
    }

    @Test("lux info prints the DNG's raw description and valid JSON", .needsLux)
    func info() throws {
        let lux = try #require(LuxExecutable.path)
        let path = try Fixtures.url(Fixtures.genuineDNGs[0]).path
        let text = try run(lux, ["info", path])
        #expect(text.status == 0)
        #expect(text.text.contains("RGGB") && text.text.contains("2056") && text.text.contains("15000"))
        let json = try run(lux, ["info", "--json", path])
        let object = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        let raw = try #require(object["raw"] as? [String: Any])
        #expect(raw["cfaPattern"] as? String == "RGGB")
        #expect(raw["whiteLevel"] as? [Double] == [15000])
        #expect(raw["activeArea"] as? [Int] == [26, 152, 1182, 1886])
        let live = try run(lux, ["info", "--json", Fixtures.url(JPEGTests.livePhoto).path])
        let liveObject = try #require(try JSONSerialization.jsonObject(with: live.stdout) as? [String: Any])
        let livePhoto = try #require(liveObject["livePhoto"] as? [String: Any])
        #expect(livePhoto["contentIdentifier"] as? String == "E905E6C6-C747-4805-942F-9904A0281F02")
    }

    @Test(
        "lux extract --raw writes what dcraw -D -4 writes; errors name the file without a stack trace", .needsLux,
        .needs("dcraw"))
    func extract() throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = try Fixtures.url(Fixtures.genuineDNGs[0]).path
        let out = dir.appendingPathComponent("sensor.tiff")
        #expect(try run(lux, ["extract", source, "--raw", "-o", out.path]).status == 0)
        let ours = try ImageFile.read(url: out).pixels.components(as: UInt16.self)
        let dcraw = try NetpbmImage(ExternalTool.capture("dcraw", ["-D", "-4", "-c", source]).stdout)
        #expect(ours == dcraw.samples)
        let missing = try run(lux, ["extract", Fixtures.url(Fixtures.metadataOnly[1]).path, "--raw", "-o", out.path])
        #expect(missing.status != 0)
        #expect(missing.errorText.contains("leica_m10_TRUNCATED.dng") && missing.errorText.contains("no pixel data"))
        #expect(!missing.errorText.contains("Fatal error"))
    }
}
