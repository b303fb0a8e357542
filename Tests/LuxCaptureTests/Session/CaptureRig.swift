import LuxPixels
import LuxScene
@testable import LuxCapture

extension SensorModel {
    /// The default phone sensor with fewer, larger photosites (same field of view, same per-pixel SNR): fast
    /// enough for debug-build tests.
    static func small(width: Int = 320, height: Int = 240) -> SensorModel {
        var s = SensorModel.phone12MP
        s.pixelPitch = s.sensorWidth / Double(width)
        s.width = width
        s.height = height
        return s
    }
}

/// A camera → photo output session on a small simulated sensor.
struct CaptureRig {
    let camera: SimulatedCamera
    let session: CaptureSession
    let photo: PhotoOutput

    static func make(
        scene: Scene = .stillLife(), sensor: SensorModel = .small(), preset: SessionPreset = .photo,
        extraOutputs: [any CaptureOutput] = [], start: Bool = true, seed: UInt64 = 1
    ) async throws -> CaptureRig {
        let camera = SimulatedCamera(scene: scene, configuration: .init(sensor: sensor, seed: seed))
        camera.setFocusMode(.locked)
        let session = CaptureSession()
        let photo = PhotoOutput()
        session.beginConfiguration()
        try session.setSessionPreset(preset)
        try session.addInput(DeviceInput(camera: camera))
        try session.addOutput(photo)
        for o in extraOutputs { try session.addOutput(o) }
        try session.commitConfiguration()
        if start { try await session.startRunning() }
        return CaptureRig(camera: camera, session: session, photo: photo)
    }
}

/// Every event of a capture stream.
func collect(_ stream: AsyncThrowingStream<PhotoCaptureEvent, any Error>) async throws -> [PhotoCaptureEvent] {
    var out: [PhotoCaptureEvent] = []
    for try await e in stream { out.append(e) }
    return out
}

extension Array where Element == PhotoCaptureEvent {
    var names: [String] { map(\.name) }
    var photos: [CapturedPhoto] {
        compactMap { if case .didFinishProcessingPhoto(let p) = $0 { return p } else { return nil } }
    }
}

/// The documented order: begin, shutter, captured, one processed event per photo, finish.
func isDocumentedOrder(_ names: [String], photos: Int) -> Bool {
    names == ["willBeginCapture", "willCapturePhoto", "didCapturePhoto"]
        + Array(repeating: "didFinishProcessingPhoto", count: photos) + ["didFinishCapture"]
}
