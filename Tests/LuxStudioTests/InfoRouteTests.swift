import Foundation
import Hummingbird
import HummingbirdTesting
import LuxStudio
import LuxTestSupport
import Testing

/// `/api/info/<name>`: the `lux info` report of a gallery file, checked field by field against exiftool's reading of
/// the same committed files.
@Suite struct InfoRouteTests {
    /// A studio whose gallery folders are the committed Live Photo (1), raw (2) and reference-script (3) folders.
    func makeStudio() throws -> (studio: Studio, base: URL) {
        let base = try ExternalTool.temporaryFolder("lux-studio-info")
        let folders = ["livephoto", "raw", "reference"].map { URL(fileURLWithPath: TestData.root + "/" + $0) }
        return (try Studio(configuration: StudioConfiguration(captureFolder: base, folders: folders)), base)
    }

    /// exiftool's numeric (`-n`) reading of `tags` in `file`.
    static func exiftool(_ file: String, _ tags: [String]) throws -> [String: Any] {
        let run = try ExternalTool.run("exiftool", ["-j", "-n"] + tags.map { "-" + $0 } + [file])
        let objects = try JSONSerialization.jsonObject(with: run.output) as? [[String: Any]]
        return try #require(objects?.first)
    }

    /// The JSON object a studio answers a GET of `uri` with (the response is read off the router; the oracle's
    /// values are compared outside the test client).
    static func report(_ studio: Studio, _ uri: String) async throws -> [String: Any] {
        let body = try await studio.application().test(.router) { client in
            try await client.execute(uri: uri, method: .get) { response in
                #expect(response.status == .ok)
                return Data(response.body.readableBytesView)
            }
        }
        return try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
    }

    @Test(
        "a Live Photo still's report has exiftool's camera, exposure and size, and names its partner in the gallery",
        .needs("exiftool"))
    func livePhotoStill() async throws {
        let (studio, base) = try makeStudio()
        defer { try? FileManager.default.removeItem(at: base) }
        let file = TestData.root + "/livephoto/iphone6s_livephoto_train.jpg"
        let tags = ["Make", "Model", "ExposureTime", "FNumber", "ISO", "FocalLength", "ImageWidth", "ImageHeight"]
        let oracle = try Self.exiftool(file, tags + ["MediaGroupUUID"])
        let report = try await Self.report(studio, "/api/info/1/iphone6s_livephoto_train.jpg")
        #expect(report["file"] as? String == "1/iphone6s_livephoto_train.jpg")
        #expect(report["format"] as? String == "jpeg")
        #expect(report["width"] as? Int == oracle["ImageWidth"] as? Int)
        #expect(report["height"] as? Int == oracle["ImageHeight"] as? Int)
        let exif = try #require(report["exif"] as? [String: Any])
        #expect(exif["make"] as? String == oracle["Make"] as? String)
        #expect(exif["model"] as? String == oracle["Model"] as? String)
        #expect(exif["iso"] as? Int == oracle["ISO"] as? Int)
        for (key, tag) in [
            ("exposureTime", "ExposureTime"), ("fNumber", "FNumber"), ("focalLength", "FocalLength"),
        ] {
            let expected = try #require(oracle[tag] as? Double)
            let value = try #require(exif[key] as? Double)
            #expect(abs(value - expected) <= 1e-9 * expected, "\(key)")
        }
        let live = try #require(report["livePhoto"] as? [String: Any])
        #expect(live["contentIdentifier"] as? String == oracle["MediaGroupUUID"] as? String)
        #expect(live["partner"] as? String == "1/iphone6s_livephoto_train.mov")
        #expect(live["paired"] as? Bool == true)
    }

    @Test("a DNG's report has exiftool's camera, size, levels and as-shot neutral", .needs("exiftool"))
    func dng() async throws {
        let (studio, base) = try makeStudio()
        defer { try? FileManager.default.removeItem(at: base) }
        let file = TestData.root + "/raw/canon_eos550d_magiclantern_14bit.dng"
        let oracle = try Self.exiftool(
            file,
            [
                "Make", "Model", "ImageWidth", "ImageHeight", "UniqueCameraModel", "BlackLevel", "WhiteLevel",
                "AsShotNeutral",
            ])
        let report = try await Self.report(studio, "/api/info/2/canon_eos550d_magiclantern_14bit.dng")
        #expect(report["format"] as? String == "dng")
        #expect(report["width"] as? Int == oracle["ImageWidth"] as? Int)
        #expect(report["height"] as? Int == oracle["ImageHeight"] as? Int)
        let exif = try #require(report["exif"] as? [String: Any])
        #expect(exif["make"] as? String == oracle["Make"] as? String)
        #expect(exif["model"] as? String == oracle["Model"] as? String)
        let raw = try #require(report["raw"] as? [String: Any])
        #expect(raw["uniqueCameraModel"] as? String == oracle["UniqueCameraModel"] as? String)
        #expect((raw["blackLevel"] as? [Double])?.first == (oracle["BlackLevel"] as? NSNumber)?.doubleValue)
        #expect((raw["whiteLevel"] as? [Double])?.first == (oracle["WhiteLevel"] as? NSNumber)?.doubleValue)
        let neutral = try #require(oracle["AsShotNeutral"] as? String).split(separator: " ").compactMap {
            Double($0)
        }
        let reported = try #require(raw["asShotNeutral"] as? [Double])
        #expect(reported.count == 3 && zip(reported, neutral).allSatisfy { abs($0 - $1) < 1e-3 })
    }

    @Test("a file that is no image is answered 422 with the reason, naming the file")
    func notAnImage() async throws {
        let (studio, base) = try makeStudio()
        defer { try? FileManager.default.removeItem(at: base) }
        try await studio.application().test(.router) { client in
            try await client.execute(uri: "/api/info/3/demosaic_psnr.py", method: .get) { response in
                #expect(response.status == .unprocessableContent)
                #expect(String(decoding: response.body.readableBytesView, as: UTF8.self).contains("demosaic_psnr.py"))
            }
        }
    }
}
