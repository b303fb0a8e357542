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
        case .unsupportedConversion(let from, let to, let reason):
            "cannot convert from \(from) to \(to): \(reason)"
        case .malformedProfile(let reason, let offset):
            "malformed ICC profile at byte \(offset): \(reason)"
        case .unsupportedProfile(let description, let reason):
            "ICC profile “\(description)” cannot be used for conversion: \(reason)"
        case .outOfRange(let name, let value, let allowed):
            "\(name) \(value) is outside the allowed range \(allowed.lowerBound)…\(allowed.upperBound)"
        case .didNotConverge(let what):
            "\(what) did not converge"
        }
    }
}
