import Glibc
import LuxPixels

/// Errors thrown by LuxCapture.
///
/// Each case says what was wrong and what is allowed.
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
    /// Another process is using the device (EBUSY): it streams from it, or holds its buffers.
    case deviceBusy(String)
    /// The device went away (ENODEV: unplugged) while it was in use.
    case deviceDisconnected(String)
    /// The device stopped delivering frames: none arrived within the time allowed.
    case timedOut(String)
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
        case .outOfRange(let name, let value, let range):
            "\(name) \(value) is outside the supported range \(range.lowerBound)…\(range.upperBound)"
        case .whiteBalanceGainsOutOfRange(let r, let g, let b, let maximum):
            "white-balance gains (\(r), \(g), \(b)) must each be within 1…\(maximum) (maxWhiteBalanceGain)"
        case .formatNotSupported(let what): "format not supported: \(what)"
        case .unsupported(let what): "not supported: \(what)"
        case .bufferPoolExhausted(let what): "buffer pool exhausted: \(what); release frames sooner or enlarge the pool"
        case .deviceUnavailable(let why): "device unavailable: \(why)"
        case .systemCall(let name, let code): "\(name) failed: \(String(cString: strerror(code))) (errno \(code))"
        case .deviceBusy(let what): "device busy: \(what); another process is using it"
        case .deviceDisconnected(let what): "device disconnected: \(what)"
        case .timedOut(let what): "timed out: \(what)"
        case .rendering(let why): "cannot render the scene: \(why)"
        case .sessionConfiguration(let why): "session configuration: \(why)"
        case .notRunning(let why): "cannot capture: \(why)"
        case .settingsReused(let id):
            "photo settings \(id) were already used; make new settings (PhotoSettings(from:) copies them with a fresh uniqueID)"
        case .invalidPhotoSettings(let why): "invalid photo settings: \(why)"
        case .bracketTooLarge(let count, let maximum):
            "bracket of \(count) exceeds maxBracketedCapturePhotoCount \(maximum)"
        case .qualityPrioritizationAboveMaximum(let requested, let maximum):
            "quality prioritization \(requested) exceeds the output's maxPhotoQualityPrioritization \(maximum); raise the maximum first"
        case .missingUsageDescription(let mediaType, let key):
            "no usage description for \(mediaType) capture: add \(key) to the app's usage descriptions (as in Info.plist)"
        case .accessDenied(let mediaType, let reason): "access to \(mediaType) capture denied: \(reason)"
        case .cancelled(let why): "cancelled: \(why)"
        case .processing(let why): "photo processing failed: \(why)"
        }
    }

    init(_ error: PixelError) {
        switch error {
        case .poolExhausted: self = .bufferPoolExhausted(error.description)
        default: self = .rendering(error.description)
        }
    }
}
