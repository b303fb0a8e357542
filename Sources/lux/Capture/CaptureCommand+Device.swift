import Foundation
import Lux

extension CaptureCommand {
    /// The `--json` report of `lux capture --device`.
    struct DeviceReport: Encodable {
        struct Photo: Encodable {
            var file: String
            var bytes: Int
            var isRaw: Bool
            var width: Int
            var height: Int
            var seconds: Double
        }
        var camera: String
        var path: String
        var format: String
        var controls: String
        var settings: [String]
        var photos: [Photo]
    }

    /// `lux capture --device PATH`: stills from a V4L2 camera, with the manual controls applied.
    func runOnDevice(_ path: String) async throws {
        let camera: V4L2Camera
        do { camera = try V4L2Camera(path: path) } catch { throw CLIError("\(path): \(error)") }
        let folder = URL(fileURLWithPath: out)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        if raw {
            // RAW needs a Bayer format: the largest the camera has.
            guard
                let bayer = camera.formats.filter(\.supportsRAW).max(by: { $0.width * $0.height < $1.width * $1.height }
                )
            else { throw CLIError("\(path): \(camera.localizedName) has no RAW (Bayer) format") }
            try camera.setActiveFormat(bayer)
        }
        let session = CaptureSession()
        do {
            if raw { try session.setSessionPreset(.inputPriority) }  // keep the Bayer format
            try session.addInput(DeviceInput(camera: camera))
            try await session.startRunning()
        } catch {
            throw CLIError("\(path): cannot start the capture session: \(error)")
        }
        do {
            say("camera: \(camera.localizedName) at \(path), \(camera.activeFormat)")
            say("controls: \(camera.controlCapabilities)")
            let settings = try await manual.apply(to: camera)
            for line in settings { say(line) }
            var report = DeviceReport(
                camera: camera.localizedName, path: path, format: "\(camera.activeFormat)",
                controls: "\(camera.controlCapabilities)", settings: settings, photos: [])
            let node = URL(fileURLWithPath: path).lastPathComponent
            for n in 1...count {
                let still = try await camera.captureStill(StillRequest())
                let file = try still.fileDataRepresentation(raw: raw, cameraModel: camera.localizedName)
                let url = folder.appendingPathComponent("IMG_\(node)_\(n).\(file.fileExtension)")
                try overwriteOptions.check(url.path)
                try Data(file.bytes).write(to: url, options: .atomic)
                let pixels = raw ? still.raw : (still.image ?? still.raw)
                report.photos.append(
                    .init(
                        file: url.path, bytes: file.bytes.count, isRaw: raw, width: pixels.width, height: pixels.height,
                        seconds: still.presentationTime.seconds))
                say(
                    "still \(n): \(still.raw.width)x\(still.raw.height) at \(still.presentationTime) → \(url.path) "
                        + "(\(file.bytes.count / 1024) KB)")
            }
            if json { try JSONOutput.print(report) }
        } catch {
            await session.stopRunning()
            if let error = error as? CLIError { throw error }
            throw CLIError("\(path): \(error)")
        }
        await session.stopRunning()
    }
}
