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
        }
    }

    init(_ error: PixelError) {
        switch error {
        case .poolExhausted: self = .bufferPoolExhausted(error.description)
        default: self = .rendering(error.description)
        }
    }
}
