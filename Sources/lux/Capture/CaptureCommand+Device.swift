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

    /// `lux capture --device PATH`: photos from a V4L2 camera through a ``PhotoOutput``, with the manual controls
    /// applied.
    ///
    /// The camera runs its largest format: the largest Bayer format for RAW, else the largest of its active pixel
    /// format.
    func runOnDevice(_ path: String) async throws {
        let camera: V4L2Camera
        do { camera = try V4L2Camera(path: path) } catch { throw CLIError("\(path): \(error)") }
        let folder = URL(fileURLWithPath: out)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let wantsRAW = raw || rawPlus != nil
        let active = camera.activeFormat
        let candidates =
            wantsRAW
            ? camera.formats.filter(\.supportsRAW) : camera.formats.filter { $0.mediaSubType == active.mediaSubType }
        guard let largest = candidates.max(by: { $0.width * $0.height < $1.width * $1.height }) else {
            throw CLIError("\(path): \(camera.localizedName) has no RAW (Bayer) format")
        }
        let session = CaptureSession()
        let output = PhotoOutput()
        output.isHighResolutionCaptureEnabled = highResolution
        output.maxPhotoQualityPrioritization = .quality
        do {
            try camera.setActiveFormat(largest)
            try session.setSessionPreset(.inputPriority)  // keep that format
            try session.addInput(DeviceInput(camera: camera))
            try session.addOutput(output)
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
                for try await event in try output.capturePhoto(try makeSettings(output)) {
                    guard case .didFinishProcessingPhoto(let photo) = event else { continue }
                    let bytes = try photo.fileDataRepresentation()
                    let url = folder.appendingPathComponent("IMG_\(node)_\(n).\(photo.fileExtension)")
                    try overwriteOptions.check(url.path)
                    try Data(bytes).write(to: url, options: .atomic)
                    let pixels = photo.isRawPhoto ? photo.rawBuffer : photo.pixelBuffer
                    report.photos.append(
                        .init(
                            file: url.path, bytes: bytes.count, isRaw: photo.isRawPhoto, width: pixels?.width ?? 0,
                            height: pixels?.height ?? 0, seconds: photo.timestamp.seconds))
                    say("photo \(n): \(photo) at \(photo.timestamp) → \(url.path) (\(bytes.count / 1024) KB)")
                }
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
