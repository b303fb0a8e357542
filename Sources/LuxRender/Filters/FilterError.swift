public import LuxPixels

/// Why a filter could not be found, configured or parsed.
///
/// Every case says what is accepted.
public enum FilterError: Error, Sendable, CustomStringConvertible {
    /// No filter has this name.
    case unknownFilter(String, available: [String])
    /// The filter has no parameter of this name.
    case unknownParameter(filter: String, parameter: String, accepted: [String])
    /// A value of the wrong type.
    case wrongType(filter: String, parameter: String, expected: String, got: String)
    /// A required parameter was not given.
    case missingParameter(filter: String, parameter: String)
    /// A number outside the allowed range.
    case outOfRange(filter: String, parameter: String, value: Double, allowed: ClosedRange<Double>)
    /// A filter chain could not be parsed.
    case syntax(String, chain: String)
    /// An image named in a chain could not be loaded.
    case imageLoad(path: String, reason: String)
    /// Core Image coordinates were given for an image whose extent has no bottom edge (infinite or empty).
    case noCoreImageOrigin(extent: Rect)

    public var description: String {
        switch self {
        case .unknownFilter(let name, let available):
            let close = available.filter {
                $0.lowercased().contains(name.lowercased()) || name.lowercased().contains($0.lowercased())
            }
            return "unknown filter '\(name)'"
                + (close.isEmpty ? "" : " (did you mean \(close.prefix(5).joined(separator: ", "))?)")
                + "; available: \(available.joined(separator: ", "))"
        case .unknownParameter(let f, let p, let accepted):
            return "\(f) has no parameter '\(p)'; it accepts \(accepted.joined(separator: ", "))"
        case .wrongType(let f, let p, let expected, let got):
            return "\(f).\(p) expects \(expected), got \(got)"
        case .missingParameter(let f, let p):
            return "\(f) needs a value for '\(p)'"
        case .outOfRange(let f, let p, let v, let r):
            return "\(f).\(p) = \(shortNumber(v)) is outside \(shortNumber(r.lowerBound))…\(shortNumber(r.upperBound))"
        case .syntax(let message, let chain):
            return "cannot parse filter chain '\(chain)': \(message)"
        case .imageLoad(let path, let reason):
            return "cannot load image '\(path)': \(reason)"
        case .noCoreImageOrigin(let extent):
            return "Core Image coordinates need a finite, non-empty extent to measure y from, not \(extent)"
        }
    }
}
