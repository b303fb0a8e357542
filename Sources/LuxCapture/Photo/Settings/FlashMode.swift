/// Whether the flash fires for a photo (AVCaptureDevice.FlashMode).
public enum FlashMode: String, Hashable, Sendable, Codable, CaseIterable, CustomStringConvertible {
    /// Never.
    case off
    /// Always.
    case on
    /// When the metered scene is dark enough to warrant it (``PhotoOutput/isFlashScene``).
    case auto

    public var description: String { rawValue }
}
