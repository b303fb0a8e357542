/// What a session configures its camera for (AVCaptureSession.Preset).
///
/// ``photo`` selects the device's photo format (full-resolution stills, RAW, Live Photos, preview-sized
/// stream frames); the video presets select a video format of that size. ``inputPriority`` leaves the
/// camera's active format alone, for apps that choose a ``DeviceFormat`` themselves.
public enum SessionPreset: String, Hashable, Sendable, Codable, CaseIterable, CustomStringConvertible {
    /// The photo format (``DeviceFormat/isPhotoFormat``).
    case photo
    /// The best video format for recording: 1920×1080 at 30 fps.
    case high
    /// 1280×720 video.
    case hd1280x720
    /// 1920×1080 video.
    case hd1920x1080
    /// 3840×2160 video.
    case hd4K3840x2160
    /// The active format is set on the device, not by the session.
    case inputPriority

    /// The video size the preset asks for (`nil` for ``photo`` and ``inputPriority``).
    public var videoDimensions: PixelDimensions? {
        switch self {
        case .photo, .inputPriority: nil
        case .high, .hd1920x1080: PixelDimensions(width: 1920, height: 1080)
        case .hd1280x720: PixelDimensions(width: 1280, height: 720)
        case .hd4K3840x2160: PixelDimensions(width: 3840, height: 2160)
        }
    }

    /// The device format the preset selects among `formats`, or `nil` when the device has none.
    ///
    /// Full-range '420f' formats are preferred (they can deliver Display P3), then BGRA, then '420v'; video
    /// presets take the 30 fps format of their size.
    public func format(among formats: [DeviceFormat]) -> DeviceFormat? {
        func rank(_ f: DeviceFormat) -> Int {
            switch f.pixelFormat {
            case .yCbCr420FullRange: 0
            case .bgra8: 1
            case .yCbCr420VideoRange: 2
            default: 3
            }
        }
        let candidates: [DeviceFormat]
        switch self {
        case .inputPriority: return nil
        case .photo: candidates = formats.filter(\.isPhotoFormat)
        default:
            guard let d = videoDimensions else { return nil }
            candidates = formats.filter { !$0.isPhotoFormat && $0.width == d.width && $0.height == d.height }
        }
        return candidates.min { a, b in
            let ka = (rank(a), abs(a.frameRateRange.upperBound - 30))
            let kb = (rank(b), abs(b.frameRateRange.upperBound - 30))
            return ka < kb
        }
    }

    public var description: String { rawValue }
}
