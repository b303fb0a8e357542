import Foundation
import Lux
import Testing

/// The snippets of Sources/Lux/Documentation.docc/CapturingPhotos.md, in order, on one small simulated camera.
@Suite struct CapturingPhotosSnippets {
    @Test func theWholeArticle() async throws {
        let folder = try temporaryFolder()

        var sensor = SensorModel.phone12MP  // 4032 × 3024, the default
        sensor.pixelPitch = sensor.sensorWidth / 320  // same field of view, larger photosites
        sensor.width = 320
        sensor.height = 240
        let camera = SimulatedCamera(scene: .stillLife(), configuration: .init(sensor: sensor))

        #expect(camera.activeFormat.width == 320)

        let session = CaptureSession()
        let photoOutput = PhotoOutput()
        photoOutput.maxPhotoQualityPrioritization = .quality  // the default maximum is .balanced
        session.beginConfiguration()
        try session.setSessionPreset(.photo)  // RAW, Live Photos and full-resolution stills
        try session.addInput(DeviceInput(camera: camera))
        try session.addOutput(photoOutput)
        try session.commitConfiguration()  // photo format + Display P3 are applied here
        try await session.startRunning()
        try await photoOutput.prepare([PhotoSettings(), PhotoSettings(rawPixelFormat: .bayer14(.rggb))])

        #expect(session.isRunning)
        #expect(photoOutput.preparedPhotoSettings.count == 2)

        var settings = PhotoSettings()  // JPEG, balanced, flash off, stabilisation on
        settings.flashMode = .auto
        settings.qualityPrioritization = .quality
        settings.previewFormat = PreviewFormat(width: 160, height: 160)
        for try await event in try photoOutput.capturePhoto(settings) {
            switch event {
            case .willBeginCapture(let resolved): print(resolved.processing, resolved.photoProcessingTimeRange)
            case .didFinishProcessingPhoto(let photo):
                try Data(photo.fileDataRepresentation()).write(
                    to: folder.appending(path: "IMG_0001.\(photo.fileExtension)"))
            default: break
            }
        }
        do {
            _ = try photoOutput.capturePhoto(settings)  // the same uniqueID again
        } catch {
            if case .settingsReused(let id) = error { print("settings \(id) were already used") }
        }
        let next = PhotoSettings(from: settings)  // same choices, new uniqueID

        #expect(FileManager.default.fileExists(atPath: folder.appending(path: "IMG_0001.jpg").path))
        #expect(next.uniqueID != settings.uniqueID && next.flashMode == .auto)
        // Without high resolution a photo format delivers 3/4 of the sensor's size (8 MP on the 12 MP sensor).
        #expect(try ImageFile.info(url: folder.appending(path: "IMG_0001.jpg")).width == 240)

        let request = PhotoSettings()
        var names: [String] = []
        for try await event in try photoOutput.capturePhoto(request) {
            assert(event.resolvedSettings.uniqueID == request.uniqueID)
            names.append(event.name)
        }
        // ["willBeginCapture", "willCapturePhoto", "didCapturePhoto", "didFinishProcessingPhoto", "didFinishCapture"]

        #expect(
            names == [
                "willBeginCapture", "willCapturePhoto", "didCapturePhoto", "didFinishProcessingPhoto",
                "didFinishCapture",
            ])

        let rawFormat = photoOutput.availableRawPhotoPixelFormatTypes[0]
        let rawPlusJPEG = PhotoSettings(rawPixelFormat: rawFormat, processedFormat: .jpeg)
        for try await event in try photoOutput.capturePhoto(rawPlusJPEG) {
            guard case .didFinishProcessingPhoto(let photo) = event else { continue }
            let name = photo.isRawPhoto ? "IMG_0002.dng" : "IMG_0002.jpg"
            try Data(photo.fileDataRepresentation()).write(to: folder.appending(path: name))
        }
        var developer = try RAWDeveloper(url: folder.appending(path: "IMG_0002.dng"))
        developer.exposure = 0.5

        let dng = try ImageFile.info(url: folder.appending(path: "IMG_0002.dng"))
        #expect(dng.format == .dng && dng.raw != nil)
        #expect(try developer.outputImage.extent.width == 320)
        #expect(FileManager.default.fileExists(atPath: folder.appending(path: "IMG_0002.jpg").path))

        let bracket = PhotoSettings(bracket: [.auto(bias: -2), .auto(bias: 0), .auto(bias: 2)])
        var exposures: [Image] = []
        for try await event in try photoOutput.capturePhoto(bracket) {
            if case .didFinishProcessingPhoto(let photo) = event, let pixels = photo.pixelBuffer {
                exposures.append(Image(buffer: pixels))
            }
        }
        let merged = try ExposureFusion().fuse(exposures)  // a lazy Image: render or write it

        #expect(exposures.count == 3)
        let fusedPixels = try await RenderContext().createBuffer(merged, format: .rgba8)
        #expect(fusedPixels.width == 240)

        let live = CaptureSession()
        let output = PhotoOutput()
        live.beginConfiguration()
        try live.setSessionPreset(.photo)
        try live.addInput(DeviceInput(camera: camera))
        try live.addInput(DeviceInput(microphone: SimulatedMicrophone(source: camera.scene.sound, sampleRate: 44_100)))
        try live.addOutput(output)
        try live.commitConfiguration()
        try output.setLivePhotoCaptureEnabled(true)
        try await live.startRunning()

        var liveSettings = PhotoSettings()
        liveSettings.livePhotoMovieURL = folder.appending(path: "IMG_0003.MOV")
        liveSettings.livePhotoMovieMetadata = [
            LivePhotoMetadataItem(key: LivePhotoMetadataItem.author, value: "Brad Ford")
        ]
        for try await event in try output.capturePhoto(liveSettings) {
            switch event {
            case .didFinishProcessingPhoto(let photo):
                try Data(photo.fileDataRepresentation()).write(to: folder.appending(path: "IMG_0003.JPG"))
            case .didFinishProcessingLivePhotoMovie(_, let url, let duration, let photoTime):
                print(url, duration, photoTime)
            default: break
            }
        }

        let pair = try LivePhoto(pairing: folder.appending(path: "IMG_0003.JPG"))
        #expect(pair.photoTime.seconds > 1 && pair.duration.seconds > 2.5)

        camera.activeColorSpace  // .displayP3 after the photo session's commit
        for try await event in try photoOutput.capturePhoto(PhotoSettings()) {
            if case .didFinishProcessingPhoto(let photo) = event {
                print(photo.resolvedSettings.colorSpace, photo.colorSpace?.name ?? "-")  // displayP3 Display P3
            }
        }

        #expect(camera.activeColorSpace == .displayP3)
    }
}
