import LuxPixels
import LuxScene
import Testing

@testable import LuxCapture

/// Seed 000, "Automatic Color Space Selection in AVCaptureSession", as a table.
@Suite struct WideColorTests {
    func session(preset: SessionPreset, outputs: [any CaptureOutput]) throws -> SimulatedCamera {
        let camera = SimulatedCamera(scene: .grayCard(), configuration: .init(sensor: .small()))
        let session = CaptureSession()
        session.beginConfiguration()
        try session.setSessionPreset(preset)
        try session.addInput(DeviceInput(camera: camera))
        for o in outputs { try session.addOutput(o) }
        try session.commitConfiguration()
        return camera
    }

    @Test("Photo output (with a preview) → Display P3")
    func photoOutput() throws {
        #expect(try session(preset: .photo, outputs: [PhotoOutput()]).activeColorSpace == .displayP3)
    }

    @Test("Photo output + movie file output → sRGB")
    func movie() throws {
        #expect(try session(preset: .photo, outputs: [PhotoOutput(), MovieFileOutput()]).activeColorSpace == .sRGB)
    }

    @Test("Photo output + video data output → Display P3 only with the photo preset")
    func videoData() throws {
        #expect(
            try session(preset: .photo, outputs: [PhotoOutput(), VideoDataOutput()]).activeColorSpace == .displayP3)
        #expect(
            try session(preset: .hd1920x1080, outputs: [PhotoOutput(), VideoDataOutput()]).activeColorSpace == .sRGB)
    }

    @Test("Without a photo output → sRGB")
    func noPhotoOutput() throws {
        #expect(try session(preset: .photo, outputs: [VideoDataOutput()]).activeColorSpace == .sRGB)
    }

    @Test("A '420v' format supports sRGB only, so the automatic choice stays sRGB")
    func videoRangeFormat() throws {
        let camera = SimulatedCamera(scene: .grayCard(), configuration: .init(sensor: .small()))
        let session = CaptureSession()
        try session.setSessionPreset(.inputPriority)
        try session.addInput(DeviceInput(camera: camera))
        try camera.setActiveFormat(
            try #require(camera.formats.first { $0.isPhotoFormat && $0.pixelFormat == .yCbCr420VideoRange }))
        try session.addOutput(PhotoOutput())
        #expect(camera.activeColorSpace == .sRGB)
    }

    @Test("Forcing P3: automatic off, a wide-colour format, P3 set on the device — the session leaves it")
    func forcing() throws {
        let camera = SimulatedCamera(scene: .grayCard(), configuration: .init(sensor: .small()))
        let session = CaptureSession()
        session.automaticallyConfiguresCaptureDeviceForWideColor = false
        try session.setSessionPreset(.hd1920x1080)
        try session.addInput(DeviceInput(camera: camera))
        #expect(camera.activeFormat.supports(.displayP3))
        try camera.setActiveColorSpace(.displayP3)
        try session.addOutput(VideoDataOutput())
        try session.addOutput(MovieFileOutput())
        #expect(camera.activeColorSpace == .displayP3)
        // Automatic again: the table applies (movie output → sRGB).
        session.automaticallyConfiguresCaptureDeviceForWideColor = true
        #expect(camera.activeColorSpace == .sRGB)
    }
}
