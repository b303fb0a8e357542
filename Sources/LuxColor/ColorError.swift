/// Errors thrown by LuxColor.
public enum ColorError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The two spaces cannot be converted (for example a space without a usable matrix).
    case unsupportedConversion(from: String, to: String, reason: String)
    /// An ICC profile is malformed; `offset` is where reading failed.
    case malformedProfile(reason: String, offset: Int)
    /// An ICC profile was read and identified but cannot be used for conversion.
    case unsupportedProfile(description: String, reason: String)
    /// A value is outside the range a function accepts.
    case outOfRange(name: String, value: Double, allowed: ClosedRange<Double>)
    /// An iteration failed to converge.
    case didNotConverge(String)

    public var description: String {
        switch self {
        case let .unsupportedConversion(from, to, reason):
            "cannot convert from \(from) to \(to): \(reason)"
        case let .malformedProfile(reason, offset):
            "malformed ICC profile at byte \(offset): \(reason)"
        case let .unsupportedProfile(description, reason):
            "ICC profile “\(description)” cannot be used for conversion: \(reason)"
        case let .outOfRange(name, value, allowed):
            "\(name) \(value) is outside the allowed range \(allowed.lowerBound)…\(allowed.upperBound)"
        case let .didNotConverge(what):
            "\(what) did not converge"
        }
    }
}
