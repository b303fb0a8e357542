import Foundation
import LuxTestSupport
import Testing

/// `lux devices` and the device and manual-control options of `lux capture`.
@Suite struct DevicesCommandTests {
    struct Report: Decodable {
        struct Camera: Decodable {
            var id: String
            var name: String
            var path: String?
            var formats: [String]
            var controls: String
        }
        struct Microphone: Decodable {
            var id: String
            var name: String
            var path: String?
            var capture: Bool
        }
        var cameras: [Camera]
        var microphones: [Microphone]
    }

    @Test("lux devices lists the simulated camera with its formats and controls, and the microphones", .needsLux)
    func devices() throws {
        let lux = try #require(LuxExecutable.path)
        let r = try LuxExecutable.run(lux, ["devices", "--json"])
        #expect(r.status == 0, "\(r.errorText)")
        let report = try CLIFixtures.decode(Report.self, r)
        let simulated = try #require(report.cameras.first { $0.id == "lux.simulated.back-wide" })
        #expect(simulated.path == nil && !simulated.formats.isEmpty && simulated.controls.contains("lens position"))
        #expect(report.microphones.contains { $0.name == "Simulated Microphone" && $0.path == nil && $0.capture })
        // ALSA capture devices are listed by node and not recorded from.
        #expect(report.microphones.filter { $0.id.hasPrefix("alsa:") }.allSatisfy { !$0.capture && $0.path != nil })
        let videoNodes = (0..<64).map { "/dev/video\($0)" }.filter { FileManager.default.fileExists(atPath: $0) }
        #expect(report.cameras.compactMap(\.path).allSatisfy(videoNodes.contains))
        let text = try LuxExecutable.run(lux, ["devices"])
        #expect(text.status == 0 && text.text.contains("camera: Simulated Back Camera"))
        #expect(text.text.contains("microphone: Simulated Microphone [lux.simulated.microphone]"))
    }

    @Test("lux capture --device on a missing node fails naming it and writes nothing", .needsLux)
    func missingDevice() throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try ExternalTool.temporaryFolder("lux-capture-device")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out")
        let r = try LuxExecutable.run(lux, ["capture", "--device", "/dev/video-lux-missing", "-o", out.path])
        #expect(r.status != 0)
        #expect(
            r.errorText.contains("/dev/video-lux-missing") && r.errorText.contains("does not exist"), "\(r.errorText)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test(
        "Manual flags set the exposure the photo was taken with, as exiftool reads it; a negative --bias parses",
        .needsLux, .needs("exiftool"))
    func manualFlags() throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try ExternalTool.temporaryFolder("lux-capture-manual")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try LuxExecutable.run(
            lux,
            [
                "capture", "--sensor", "256x192", "--prioritization", "speed", "--iso", "400", "--duration", "1/100",
                "--bias", "-1", "--lens-position", "0.7", "-o", dir.path,
            ])
        #expect(r.status == 0, "\(r.errorText)")
        let jpeg = try #require(
            try FileManager.default.contentsOfDirectory(atPath: dir.path).first { $0.hasSuffix(".jpg") })
        let tags = try ExternalTool.capture(
            "exiftool", ["-s3", "-n", "-ISO", "-ExposureTime", dir.appendingPathComponent(jpeg).path])
        #expect(tags.text.split(separator: "\n").map(String.init) == ["400", "0.01"], "\(tags.text)")
        let bad = try LuxExecutable.run(lux, ["capture", "--sensor", "256x192", "--iso", "99999", "-o", dir.path])
        #expect(bad.status != 0 && bad.errorText.contains("ISO"), "\(bad.errorText)")
    }
}

/// `lux capture --device` on the camera attached to this machine, with ffprobe reading the photo it wrote.
@Suite(.tags(.hardware), .cameraAttached) struct DeviceCaptureHardwareTests {
    struct Report: Decodable {
        struct Photo: Decodable {
            var file: String
            var width: Int
            var height: Int
        }
        var path: String
        var photos: [Photo]
    }

    @Test("lux capture --device /dev/video0 --json writes a JPEG of the size it reports", .needsLux, .needs("ffprobe"))
    func captureFromCamera() throws {
        let lux = try #require(LuxExecutable.path)
        let dir = try ExternalTool.temporaryFolder("lux-capture-hardware")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try LuxExecutable.run(lux, ["capture", "--device", "/dev/video0", "-o", dir.path, "--json"])
        #expect(r.status == 0, "\(r.errorText)")
        let report = try CLIFixtures.decode(Report.self, r)
        let photo = try #require(report.photos.first)
        let probe = try ExternalTool.capture(
            "ffprobe",
            [
                "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height", "-of", "csv=p=0",
                photo.file,
            ])
        #expect(probe.text.trimmingCharacters(in: .whitespacesAndNewlines) == "\(photo.width),\(photo.height)")
    }
}
