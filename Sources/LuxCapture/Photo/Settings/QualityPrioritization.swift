/// How a photo capture trades quality against speed (AVCapturePhotoOutput.QualityPrioritization).
///
/// It is a hint: the output picks the processing for the level, the format (photo or video, with or without
/// ``DeviceFormat/supportsHighPhotoQuality``) and the scene (low light or well lit), and reports its choice in
/// ``ResolvedPhotoSettings/processing``.
public enum QualityPrioritization: Int, Hashable, Sendable, Codable, CaseIterable, Comparable, CustomStringConvertible {
    /// Fastest delivery: one frame, lightly noise-reduced — the photo looks like the video frame.
    case speed = 1
    /// A fast multi-frame merge (the default).
    case balanced = 2
    /// The best quality the scene allows: a full burst alignment and merge, with exposure fusion when the scene's
    /// dynamic range needs it.
    case quality = 3

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    public var description: String {
        switch self {
        case .speed: "speed"
        case .balanced: "balanced"
        case .quality: "quality"
        }
    }
}
