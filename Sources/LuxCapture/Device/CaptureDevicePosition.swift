/// Where a camera faces (AVCaptureDevice.Position).
public enum CaptureDevicePosition: String, Hashable, Sendable, Codable, CaseIterable {
    /// The back (rear) camera: RAW capture is offered only here.
    case back
    /// The front (selfie) camera.
    case front
    /// Not known (external cameras).
    case unspecified
}
