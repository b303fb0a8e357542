import LuxPixels
import LuxScene
import Testing

@testable import LuxCapture

@Suite struct SessionGraphTests {
    @Test("Changes inside begin/commitConfiguration apply only at the outermost commit")
    func deferredCommit() async throws {
        let camera = SimulatedCamera(scene: .grayCard(), configuration: .init(sensor: .small()))
        let session = CaptureSession()
        try session.addInput(DeviceInput(camera: camera))
        let before = camera.activeFormat
        let commits = session.committedConfigurationCount
        session.beginConfiguration()
        session.beginConfiguration()
        try session.setSessionPreset(.hd1280x720)
        try session.addOutput(PhotoOutput())
        try session.commitConfiguration()
        // Inner commit: nothing applied yet.
        #expect(camera.activeFormat == before)
        #expect(session.committedConfigurationCount == commits)
        try session.commitConfiguration()
        #expect(camera.activeFormat.width == 1280 && camera.activeFormat.height == 720)
        #expect(!camera.activeFormat.isPhotoFormat)
        #expect(session.committedConfigurationCount == commits + 1)
        // Outside a block every change commits at once.
        try session.setSessionPreset(.photo)
        #expect(camera.activeFormat.isPhotoFormat)
    }

    @Test(
        "Presets select the device format of their size (photo: the photo format)",
        arguments: [
            (SessionPreset.photo, 320, 240), (.hd1280x720, 1280, 720), (.hd1920x1080, 1920, 1080), (.high, 1920, 1080),
            (.hd4K3840x2160, 3840, 2160),
        ])
    func presets(preset: SessionPreset, width: Int, height: Int) throws {
        let camera = SimulatedCamera(scene: .grayCard(), configuration: .init(sensor: .small()))
        let session = CaptureSession()
        try session.addInput(DeviceInput(camera: camera))
        try session.setSessionPreset(preset)
        #expect(camera.activeFormat.width == width && camera.activeFormat.height == height)
        #expect(camera.activeFormat.isPhotoFormat == (preset == .photo))
    }

    @Test("inputPriority leaves the device's own format alone")
    func inputPriority() throws {
        let camera = SimulatedCamera(scene: .grayCard(), configuration: .init(sensor: .small()))
        let session = CaptureSession()
        try session.addInput(DeviceInput(camera: camera))
        let chosen = try #require(camera.formats.first { $0.width == 1920 && $0.height == 1440 })
        try session.setSessionPreset(.inputPriority)
        try camera.setActiveFormat(chosen)
        try session.addOutput(VideoDataOutput())
        #expect(camera.activeFormat == chosen)
    }

    @Test("Inputs and outputs: one of each kind; outputs are connected to the ports they accept")
    func graph() throws {
        let camera = SimulatedCamera(scene: .stillLife(), configuration: .init(sensor: .small()))
        let mic = SimulatedMicrophone(source: camera.scene.sound)
        let session = CaptureSession()
        let cameraInput = DeviceInput(camera: camera)
        try session.addInput(cameraInput)
        #expect(!session.canAddInput(DeviceInput(camera: camera)))
        #expect(throws: CaptureError.self) { try session.addInput(DeviceInput(camera: camera)) }
        try session.addInput(DeviceInput(microphone: mic))
        let photo = PhotoOutput()
        let video = VideoDataOutput()
        let movie = MovieFileOutput()
        try session.addOutput(photo)
        try session.addOutput(video)
        try session.addOutput(movie)
        #expect(!session.canAddOutput(PhotoOutput()))
        #expect(photo.connections.map(\.mediaType) == [.video])
        #expect(video.connections.map(\.mediaType) == [.video])
        #expect(Set(movie.connections.map(\.mediaType)) == [.video, .audio])
        #expect(session.connections.count == 4)
        session.removeInput(cameraInput)
        #expect(photo.connections.isEmpty && movie.connections.map(\.mediaType) == [.audio])
        session.removeOutput(movie)
        #expect(session.outputs.count == 2 && session.connections.count == 0)
    }

    @Test("Connections are active only while enabled and the session runs uninterrupted")
    func connectionActivity() async throws {
        let rig = try await CaptureRig.make(scene: .grayCard(), start: false)
        let c = try #require(rig.photo.connection(for: .video))
        #expect(!c.isActive)
        try await rig.session.startRunning()
        #expect(c.isActive)
        c.isEnabled = false
        #expect(!c.isActive)
        #expect(throws: CaptureError.self) { _ = try rig.photo.capturePhoto(PhotoSettings()) }
        c.isEnabled = true
        rig.session.interrupt(reason: .videoDeviceInUseByAnotherClient)
        #expect(!c.isActive && rig.session.isRunning)
        rig.session.endInterruption()
        #expect(c.isActive)
        await rig.session.stopRunning()
        #expect(!c.isActive)
    }

    @Test("Start, stop, interruptions and runtime errors arrive as session events, in order")
    func events() async throws {
        let rig = try await CaptureRig.make(scene: .grayCard(), start: false)
        let events = rig.session.events
        try await rig.session.startRunning()
        rig.session.interrupt(reason: .videoDeviceNotAvailableInBackground)
        #expect(throws: CaptureError.self) { _ = try rig.photo.capturePhoto(PhotoSettings()) }
        rig.session.endInterruption()
        await rig.session.reportRuntimeError(.deviceUnavailable("unplugged"))
        #expect(!rig.session.isRunning)
        var seen: [SessionEvent] = []
        for await e in events {
            seen.append(e)
            if seen.count == 5 { break }
        }
        #expect(
            seen == [
                .didStartRunning, .wasInterrupted(.videoDeviceNotAvailableInBackground), .interruptionEnded,
                .runtimeError(.deviceUnavailable("unplugged")), .didStopRunning,
            ])
    }

    @Test("A camera that cannot stream makes startRunning throw and sends a runtime error")
    func startFailure() async throws {
        let session = CaptureSession()
        let node = FailingDevice()
        try session.addInput(DeviceInput(camera: node))
        let events = session.events
        await #expect(throws: CaptureError.deviceUnavailable("busy")) { try await session.startRunning() }
        #expect(!session.isRunning)
        for await e in events {
            #expect(e == .runtimeError(.deviceUnavailable("busy")))
            break
        }
    }
}

/// A device whose stream never starts.
final class FailingDevice: CaptureDevice {
    let uniqueID = "failing"
    let localizedName = "Failing Camera"
    let formats = DeviceFormat.simulatedCameraFormats(sensor: .small())
    var activeFormat: DeviceFormat { formats[0] }
    func setActiveFormat(_ format: DeviceFormat) throws(CaptureError) {}
    var activeColorSpace: CaptureColorSpace { .sRGB }
    func setActiveColorSpace(_ colorSpace: CaptureColorSpace) throws(CaptureError) {}
    var status: DeviceStatus { SimulatedCamera(scene: .grayCard(), configuration: .init(sensor: .small())).status }
    func values<Value: Sendable & Equatable>(of property: DeviceProperty<Value>) -> AsyncStream<Value> {
        AsyncStream { $0.finish() }
    }
    func startStreaming() async throws(CaptureError) { throw .deviceUnavailable("busy") }
    func stopStreaming() async {}
    func nextFrame(_ configuration: StreamConfiguration) async throws(CaptureError) -> CaptureFrame {
        throw .deviceUnavailable("busy")
    }
    func captureStill(_ request: StillRequest) async throws(CaptureError) -> StillCapture {
        throw .deviceUnavailable("busy")
    }
}
