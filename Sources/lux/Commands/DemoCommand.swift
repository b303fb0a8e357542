import ArgumentParser
import Foundation
import Lux

/// The README's main job: simulated scenes rendered colour-managed into real files, a streamed filter chain,
/// and RAW + JPEG photos from a capture session on the simulated camera.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run the whole Lux story and write the results to a folder.",
        discussion: "Every file it writes opens in exiftool, vips or a browser; their paths are printed at the end.")

    @Option(name: .shortAndLong, help: "Where to write the results.")
    var out: String = "lux-demo"

    func run() async throws {
        let folder = URL(fileURLWithPath: out, isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw CLIError("cannot create \(out): \(error.localizedDescription)")
        }
        let start = Date()
        func note(_ name: String, _ what: String) {
            print("  \(name.padding(toLength: 26, withPad: " ", startingAt: 0)) \(what)")
        }
        do {
            print("Rendering simulated scenes (ground truth, colour-managed):")
            let chart = try Scene.named("chart").groundTruth(width: 1200, colorSpace: .sRGB)
            try ImageFile.write(chart, to: folder.appendingPathComponent("chart-srgb.jpg"), options: EncodingOptions(quality: 0.92))
            note("chart-srgb.jpg", "ColorChecker chart, sRGB JPEG with its ICC profile")
            let window = try Scene.named("hdr-window").groundTruth(width: 1200, colorSpace: .displayP3)
            try ImageFile.write(
                window, to: folder.appendingPathComponent("hdr-window-p3.png"),
                options: EncodingOptions(sampleType: .uint16))
            note("hdr-window-p3.png", "HDR window scene, 16-bit Display P3 PNG")

            print("Editing through the render engine (lazy graph, tiled, streamed to disk):")
            let stillLife = try Scene.named("still-life").groundTruth(width: 2000, colorSpace: .displayP3)
            let source = folder.appendingPathComponent("still-life-p3.tif")
            try ImageFile.write(stillLife, to: source, options: EncodingOptions(sampleType: .uint16))
            note("still-life-p3.tif", "still life, 16-bit Display P3 TIFF")
            let image = try Image(contentsOf: source)
            let edited = try FilterChain(parsing: "SepiaTone intensity=0.6 | GaussianBlur radius=3")
                .apply(to: image, registry: .builtIn) { path in throw FilterError.imageLoad(path: path, reason: "the demo chain reads no other images") }
                .cropped(to: image.extent)
            try RenderContext().write(
                edited, to: folder.appendingPathComponent("still-life-edited.tif"), pixelFormat: .rgba16,
                colorSpace: .displayP3)
            note("still-life-edited.tif", "SepiaTone | GaussianBlur, rendered strip by strip into a TIFF")

            print("Capturing through a session (camera → photo output, Display P3 chosen automatically):")
            let camera = SimulatedCamera(scene: try Scene.named("still-life"))
            let session = CaptureSession()
            let photoOutput = PhotoOutput()
            session.beginConfiguration()
            try session.setSessionPreset(.photo)
            try session.addInput(DeviceInput(camera: camera))
            try session.addOutput(photoOutput)
            try session.commitConfiguration()
            try await session.startRunning()
            var settings = PhotoSettings(
                rawPixelFormat: photoOutput.availableRawPhotoPixelFormatTypes[0], processedFormat: .jpeg)
            settings.previewFormat = PreviewFormat(width: 512, height: 512)
            for try await event in try photoOutput.capturePhoto(settings) {
                guard case .didFinishProcessingPhoto(let photo) = event else { continue }
                let name = "camera-photo.\(photo.fileExtension)"
                try Data(try photo.fileDataRepresentation()).write(to: folder.appendingPathComponent(name))
                let size =
                    photo.isRawPhoto
                    ? photo.resolvedSettings.rawPhotoDimensions : photo.resolvedSettings.photoDimensions
                note(
                    name,
                    photo.isRawPhoto
                        ? "\(size) RAW, DNG with colour matrices and a preview" : "\(size) photo, Display P3 JPEG")
            }
            await session.stopRunning()
        } catch let error as CodecError {
            throw CLIError("\(error)")
        } catch let error as CaptureError {
            throw CLIError("the simulated camera failed: \(error)")
        }
        print(String(format: "Done in %.1f s. Results in %@ (open them in any viewer; `lux info FILE` describes each).",
                     Date().timeIntervalSince(start), folder.path))
    }
}
