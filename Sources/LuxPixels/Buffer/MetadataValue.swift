/// A value in a pixel buffer's metadata dictionary (EXIF-like attachments that travel with pixels).
public enum MetadataValue: Hashable, Sendable, Codable, CustomStringConvertible {
    case int(Int)
    case double(Double)
    case string(String)
    case bool(Bool)
    /// A rational number (EXIF RATIONAL/SRATIONAL).
    case rational(Int64, Int64)
    case bytes([UInt8])
    case array([MetadataValue])
    case dictionary([String: MetadataValue])

    /// The value as a `Double` when it is numeric.
    public var doubleValue: Double? {
        switch self {
        case .int(let v): Double(v)
        case .double(let v): v
        case .rational(let n, let d): d == 0 ? nil : Double(n) / Double(d)
        case .bool(let b): b ? 1 : 0
        default: nil
        }
    }

    /// The value as a `String` when it is text.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    public var description: String {
        switch self {
        case .int(let v): String(v)
        case .double(let v): String(v)
        case .string(let s): s
        case .bool(let b): String(b)
        case .rational(let n, let d): "\(n)/\(d)"
        case .bytes(let b): "<\(b.count) bytes>"
        case .array(let a): "[" + a.map(\.description).joined(separator: ", ") + "]"
        case .dictionary(let d):
            "{" + d.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
        }
    }
}
