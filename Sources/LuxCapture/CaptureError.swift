public import LuxPixels

/// Errors thrown by LuxCapture. Each case says what was wrong and what is allowed.
public enum CaptureError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A control value lies outside the range the active format (or device) allows.
    case outOfRange(name: String, value: Double, range: ClosedRange<Double>)
    /// A white-balance gain lies outside 1…maxWhiteBalanceGain.
    case whiteBalanceGainsOutOfRange(red: Double, green: Double, blue: Double, maximum: Double)
    /// The device does not offer this format.
    case formatNotSupported(String)
    /// The mode, colour space or feature is not supported by the device or its active format.
    case unsupported(String)
    /// A buffer pool ran out of buffers (the consumer holds on to too many frames).
    case bufferPoolExhausted(String)
    /// The device cannot deliver frames (not streaming, disconnected, or an OS error).
    case deviceUnavailable(String)
    /// A device I/O call failed (V4L2 ioctl, open, mmap) with an errno.
    case systemCall(name: String, errno: Int32)
    /// The scene could not be rendered.
    case rendering(String)
    /// The session graph cannot be configured this way (an input or output that cannot be added, a preset the
    /// devices cannot deliver).
    case sessionConfiguration(String)
    /// The request needs a running session with an active, enabled connection.
    case notRunning(String)
    /// These photo settings were already used for a capture (each ``PhotoSettings/uniqueID`` captures once).
    case settingsReused(uniqueID: Int64)
    /// The photo settings ask for something the output does not offer, or for a combination that is not supported.
    case invalidPhotoSettings(String)
    /// A bracket holds more photos than the output's ``PhotoOutput/maxBracketedCapturePhotoCount``.
    case bracketTooLarge(count: Int, maximum: Int)
    /// The settings' quality prioritisation is above the output's ``PhotoOutput/maxPhotoQualityPrioritization``.
    case qualityPrioritizationAboveMaximum(requested: QualityPrioritization, maximum: QualityPrioritization)
    /// The app supplies no usage description for the media type (the Info.plist key of seed 001).
    case missingUsageDescription(mediaType: MediaType, key: String)
    /// The process may not use the device.
    case accessDenied(mediaType: MediaType, reason: String)
    /// The operation was cancelled (a newer ``PhotoOutput/prepare(_:)`` call, the session stopping).
    case cancelled(String)
    /// Processing a photo failed (fusion, development or encoding).
    case processing(String)

    public var description: String {
        switch self {
        case let .outOfRange(name, value, range):
            "\(name) \(value) is outside the supported range \(range.lowerBound)…\(range.upperBound)"
        case let .whiteBalanceGainsOutOfRange(r, g, b, maximum):
            "white-balance gains (\(r), \(g), \(b)) must each be within 1…\(maximum) (maxWhiteBalanceGain)"
        case let .formatNotSupported(what): "format not supported: \(what)"
        case let .unsupported(what): "not supported: \(what)"
        case let .bufferPoolExhausted(what): "buffer pool exhausted: \(what); release frames sooner or enlarge the pool"
        case let .deviceUnavailable(why): "device unavailable: \(why)"
        case let .systemCall(name, errno): "\(name) failed with errno \(errno)"
        case let .rendering(why): "cannot render the scene: \(why)"
        case let .sessionConfiguration(why): "session configuration: \(why)"
        case let .notRunning(why): "cannot capture: \(why)"
        case let .settingsReused(id):
            "photo settings \(id) were already used; make new settings (PhotoSettings(from:) copies them with a fresh uniqueID)"
        case let .invalidPhotoSettings(why): "invalid photo settings: \(why)"
        case let .bracketTooLarge(count, maximum): "bracket of \(count) exceeds maxBracketedCapturePhotoCount \(maximum)"
        case let .qualityPrioritizationAboveMaximum(requested, maximum):
            "quality prioritization \(requested) exceeds the output's maxPhotoQualityPrioritization \(maximum); raise the maximum first"
        case let .missingUsageDescription(mediaType, key):
            "no usage description for \(mediaType) capture: add \(key) to the app's usage descriptions (as in Info.plist)"
        case let .accessDenied(mediaType, reason): "access to \(mediaType) capture denied: \(reason)"
        case let .cancelled(why): "cancelled: \(why)"
        case let .processing(why): "photo processing failed: \(why)"
        }
    }

    init(_ error: PixelError) {
        switch error {
        case .poolExhausted: self = .bufferPoolExhausted(error.description)
        default: self = .rendering(error.description)
        }
    }
}
