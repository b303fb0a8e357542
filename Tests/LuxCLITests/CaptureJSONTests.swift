import Foundation
import LuxTestSupport
import Testing

/// `lux capture --json`, decoded as documented, against the files it wrote (read by exiftool).
@Suite struct CaptureJSONTests {
    struct Report: Decodable {
        struct Request: Decodable {
            struct Event: Decodable {
                var name: String
                var milliseconds: Double
            }
            struct Photo: Decodable {
                var file: String
                var bytes: Int
                var isRaw: Bool
                var photoCount: Int
            }
            var uniqueID: Int64
            var photoWidth: Int
            var photoHeight: Int
            var rawPhotoWidth: Int
            var rawPhotoHeight: Int
            var expectedPhotoCount: Int
            var qualityPrioritization: String
            var events: [Event]
            var photos: [Photo]
        }
        var camera: String
        var colorSpace: String
        var requests: [Request]
    }

    @Test(
        "RAW + JPEG requests: sizes, files and the event order match what exiftool reads from the files", .needsLux,
        .needs("exiftool"))
    func rawPlusJPEG() throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try ExternalTool.temporaryFolder("lux-capture-json")
        defer { try? FileManager.default.removeItem(at: dir) }
        let arguments = [
            "capture", "--raw-plus", "jpeg", "--sensor", "256x192", "--count", "2", "--color-space", "p3",
            "--prioritization", "speed", "-o", dir.path, "--json",
        ]
        let r = try LuxExecutable.run(lux, arguments)
        #expect(r.status == 0, "\(r.errorText)")
        let report = try CLIFixtures.decode(Report.self, r)
        #expect(report.colorSpace == "P3_D65" || report.colorSpace.lowercased().contains("p3"), "\(report.colorSpace)")
        #expect(report.requests.count == 2)
        #expect(Set(report.requests.map(\.uniqueID)).count == 2)
        for request in report.requests {
            #expect(request.qualityPrioritization == "speed")
            #expect(request.events.first?.name == "willBeginCapture" && request.events.last?.name == "didFinishCapture")
            #expect(zip(request.events, request.events.dropFirst()).allSatisfy { $0.milliseconds <= $1.milliseconds })
            #expect(request.photos.count == 2 && request.photos.filter(\.isRaw).count == 1)
            #expect(request.events.filter { $0.name == "didFinishProcessingPhoto" }.count == request.photos.count)
            for photo in request.photos {
                #expect(try Data(contentsOf: URL(fileURLWithPath: photo.file)).count == photo.bytes)
                let tags = try ExternalTool.capture(
                    "exiftool",
                    ["-json", "-n", "-FileType", "-ImageWidth", "-ImageHeight", "-DefaultCropSize", photo.file])
                let object = try #require(
                    (try JSONSerialization.jsonObject(with: tags.stdout) as? [[String: Any]])?.first)
                if photo.isRaw {
                    #expect(object["FileType"] as? String == "DNG")
                } else {
                    #expect(object["FileType"] as? String == "JPEG")
                    #expect(
                        object["ImageWidth"] as? Int == request.photoWidth
                            && object["ImageHeight"] as? Int == request.photoHeight)
                }
            }
        }
        // A second run into the same folder would replace those files: refused without --overwrite.
        let again = try LuxExecutable.run(lux, arguments)
        #expect(again.status == 1 && again.errorText.contains("--overwrite"), "\(again.errorText)")
    }
}
