import Foundation
import Lux

/// The demo's capture session, configured like the seeds' AVCam: the back camera and a microphone feeding a photo
/// output, the photo preset, wide colour chosen by the session (Display P3), quality prioritisation up to quality.
struct DemoSession {
    let session: CaptureSession
    let camera: SimulatedCamera
    let photoOutput: PhotoOutput

    /// Configures and starts the session on `scene`.
    static func start(scene: Scene, sensor: SensorModel) async throws -> DemoSession {
        let camera = SimulatedCamera(scene: scene, configuration: .init(sensor: sensor))
        let microphone = SimulatedMicrophone(source: scene.sound, sampleRate: 44_100)
        let session = CaptureSession()
        let photoOutput = PhotoOutput()
        session.beginConfiguration()
        try session.setSessionPreset(.photo)
        try session.addInput(DeviceInput(camera: camera))
        try session.addInput(DeviceInput(microphone: microphone))
        try session.addOutput(photoOutput)
        // AVCam's default: the session picks Display P3 for photo formats that support it.
        session.automaticallyConfiguresCaptureDeviceForWideColor = true
        photoOutput.maxPhotoQualityPrioritization = .quality
        try session.commitConfiguration()
        try await session.startRunning()
        return DemoSession(session: session, camera: camera, photoOutput: photoOutput)
    }

    /// Waits until auto exposure, auto white balance and continuous autofocus have had time to follow a scene change:
    /// until none is adjusting after at least 3 stream frames, or 12 frames (a light the loops cannot follow; 64 while
    /// focus searches, which starts once exposure has settled), at most `timeout`.
    ///
    /// Frames come from the session's scene monitoring, which must be on.
    func settle(timeout: Duration = .seconds(10)) async throws {
        let start = camera.status.frameCount
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let status = camera.status
            let frames = status.frameCount - start
            let adjusting = status.isAdjustingExposure || status.isAdjustingWhiteBalance || status.isAdjustingFocus
            if (frames >= 3 && !adjusting) || frames >= (status.isAdjustingFocus ? 64 : 12) { return }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
