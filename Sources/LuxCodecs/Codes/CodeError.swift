/// Why a code could not be read or written.
public enum CodeError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The writer does not make codes of this symbology.
    case unsupportedSymbology(Symbology)
    /// The message cannot be encoded (too long for the largest symbol, or characters the symbology lacks).
    case messageNotEncodable(symbology: Symbology, reason: String)
    /// A parameter is outside what the symbology allows.
    case invalidParameter(String)
    /// zxing-cpp failed for a reason of its own.
    case library(String)

    public var description: String {
        switch self {
        case .unsupportedSymbology(let s):
            "cannot write \(s) codes; CodeWriter writes \(Symbology.writable.map(\.rawValue).joined(separator: ", "))"
        case .messageNotEncodable(let s, let reason): "cannot encode the message as \(s): \(reason)"
        case .invalidParameter(let message): message
        case .library(let message): "zxing-cpp: \(message)"
        }
    }
}
