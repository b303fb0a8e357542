import LuxPixels
import LuxScene
import LuxTestSupport

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

extension DeviceFormat {
    /// The photo format of the small sensor plus two small 4:3 video formats (120 × 90 at 30 fps, with and without
    /// high photo quality), so video-format tests run fast in debug builds.
    static func smallTestFormats(sensor: SensorModel = .small()) -> [DeviceFormat] {
        let all = DeviceFormat.simulatedCameraFormats(sensor: sensor)
        let photo = all.filter(\.isPhotoFormat)
        var video = photo.first { $0.pixelFormat == .yCbCr420FullRange }!
        video.width = 120
        video.height = 90
        video.streamWidth = 120
        video.streamHeight = 90
        video.isPhotoFormat = false
        video.supportsHighPhotoQuality = true
        video.supportsRAW = false
        video.supportsLivePhoto = false
        video.maxBracketedCapturePhotoCount = 3
        var plain = video
        plain.supportsHighPhotoQuality = false
        plain.pixelFormat = .bgra8
        return photo + [video, plain]
    }
}

/// A camera → photo output session on a small simulated sensor (on the system's clock, or a test's clock).
struct CaptureRig {
    let camera: SimulatedCamera
    let session: CaptureSession
    let photo: PhotoOutput

    static func make(
        scene: Scene = .stillLife(), sensor: SensorModel = .small(), preset: SessionPreset = .photo,
        extraOutputs: [any CaptureOutput] = [], start: Bool = true, seed: UInt64 = 1, format: DeviceFormat? = nil,
        clock: ManualClock? = nil
    ) async throws -> CaptureRig {
        let camera = Self.camera(scene: scene, sensor: sensor, seed: seed)
        let (session, photo) = try await session(
            camera: camera, preset: preset, extraOutputs: extraOutputs, start: start, format: format, clock: clock)
        return CaptureRig(camera: camera, session: session, photo: photo)
    }

    /// A simulated camera with the small test formats of `sensor`, focus locked.
    static func camera(scene: Scene = .stillLife(), sensor: SensorModel = .small(), seed: UInt64 = 1)
        -> SimulatedCamera
    {
        var configuration = SimulatedCamera.Configuration(sensor: sensor, seed: seed)
        configuration.formats = DeviceFormat.smallTestFormats(sensor: sensor)
        let camera = SimulatedCamera(scene: scene, configuration: configuration)
        camera.setFocusMode(.locked)
        return camera
    }

    /// A session of `camera` → a photo output (and `extraOutputs`) on `preset`, or on `format` with the input
    /// priority preset; on the system's clock or `clock`; running when `start` is set.
    static func session(
        camera: any CaptureDevice, preset: SessionPreset = .photo, extraOutputs: [any CaptureOutput] = [],
        start: Bool = true, format: DeviceFormat? = nil, clock: ManualClock? = nil
    ) async throws -> (CaptureSession, PhotoOutput) {
        let session = clock.map { CaptureSession(clock: $0) } ?? CaptureSession()
        let photo = PhotoOutput()
        session.beginConfiguration()
        try session.addInput(DeviceInput(camera: camera))
        if let format {
            try session.setSessionPreset(.inputPriority)
            try camera.setActiveFormat(format)
        } else {
            try session.setSessionPreset(preset)
        }
        try session.addOutput(photo)
        for o in extraOutputs { try session.addOutput(o) }
        try session.commitConfiguration()
        if start { try await session.startRunning() }
        return (session, photo)
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

extension CaptureRig {
    /// The small video format with (or without) high photo quality.
    static func videoFormat(highQuality: Bool) -> DeviceFormat {
        DeviceFormat.smallTestFormats().first { !$0.isPhotoFormat && $0.supportsHighPhotoQuality == highQuality }!
    }
}
