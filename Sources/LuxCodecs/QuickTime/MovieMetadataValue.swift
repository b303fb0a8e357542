/// The value of a QuickTime metadata item, typed as the file stores it (the "well-known types" of the
/// QuickTime File Format: UTF-8 text, big-endian integers and floats, or raw bytes).
public enum MovieMetadataValue: Hashable, Sendable, Codable, CustomStringConvertible {
    /// UTF-8 text (well-known type 1).
    case string(String)
    /// A signed 8-bit integer (type 65; the still-image-time marker's type).
    case int8(Int8)
    /// A big-endian signed 16-bit integer (type 66).
    case int16(Int16)
    /// A big-endian signed 32-bit integer (type 67).
    case int32(Int32)
    /// A big-endian signed 64-bit integer (type 74).
    case int64(Int64)
    /// An unsigned 8-bit integer (written as a one-byte big-endian unsigned integer, type 22, which every reader
    /// handles — ffmpeg skips type 75; type 75 reads back as this case too).
    case uint8(UInt8)
    /// A big-endian 32-bit float (type 23).
    case float32(Float)
    /// A big-endian 64-bit float (type 24).
    case float64(Double)
    /// Bytes of another type (`dataType` is the well-known type number, 0 for reserved/binary).
    case data([UInt8], dataType: UInt32)

    /// The well-known type number written for this value.
    public var dataType: UInt32 {
        switch self {
        case .string: 1
        case .int8: 65
        case .int16: 66
        case .int32: 67
        case .int64: 74
        case .uint8: 22
        case .float32: 23
        case .float64: 24
        case .data(_, let type): type
        }
    }

    /// The text, when the value is a string.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The value as an integer, when it is one.
    public var integerValue: Int64? {
        switch self {
        case .int8(let v): Int64(v)
        case .int16(let v): Int64(v)
        case .int32(let v): Int64(v)
        case .int64(let v): v
        case .uint8(let v): Int64(v)
        default: nil
        }
    }

    /// The value as a number, when it is numeric.
    public var doubleValue: Double? {
        switch self {
        case .float32(let v): Double(v)
        case .float64(let v): v
        default: integerValue.map(Double.init)
        }
    }

    public var description: String {
        switch self {
        case .string(let s): s
        case .float32(let v): String(v)
        case .float64(let v): String(v)
        case .data(let b, let t): "<\(b.count) bytes, type \(t)>"
        default: integerValue.map { String($0) } ?? ""
        }
    }

    /// The value's bytes as stored in a `data` atom or a timed-metadata sample.
    var encoded: [UInt8] {
        func be<T: FixedWidthInteger>(_ v: T) -> [UInt8] {
            withUnsafeBytes(of: v.bigEndian) { Array($0) }
        }
        switch self {
        case .string(let s): return Array(s.utf8)
        case .int8(let v): return [UInt8(bitPattern: v)]
        case .int16(let v): return be(v)
        case .int32(let v): return be(v)
        case .int64(let v): return be(v)
        case .uint8(let v): return [v]
        case .float32(let v): return be(v.bitPattern)
        case .float64(let v): return be(v.bitPattern)
        case .data(let b, _): return b
        }
    }

    /// Decodes `bytes` of well-known type `type` (unknown types and sizes that do not match stay raw bytes).
    init(bytes: [UInt8], dataType type: UInt32) {
        func int(_ b: [UInt8]) -> Int64 {
            // Big-endian, sign-extended from the first byte.
            var v: Int64 = b.first.map { Int64(Int8(bitPattern: $0)) } ?? 0
            for x in b.dropFirst() { v = v << 8 | Int64(x) }
            return v
        }
        func uint(_ b: [UInt8]) -> UInt64 { b.reduce(0) { $0 << 8 | UInt64($1) } }
        switch (type, bytes.count) {
        case (1, _): self = .string(String(decoding: bytes, as: UTF8.self))
        case (2, _):
            // UTF-16 big-endian.
            let units = stride(from: 0, to: bytes.count - 1, by: 2).map {
                UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1])
            }
            self = .string(String(decoding: units, as: UTF16.self))
        case (65, 1): self = .int8(Int8(bitPattern: bytes[0]))
        case (66, 2): self = .int16(Int16(int(bytes)))
        case (67, 4): self = .int32(Int32(int(bytes)))
        case (74, 8): self = .int64(int(bytes))
        case (75, 1): self = .uint8(bytes[0])
        case (76, 2), (77, 4): self = .int64(Int64(uint(bytes)))
        case (78, 8) where uint(bytes) <= UInt64(Int64.max): self = .int64(Int64(uint(bytes)))
        case (21, 1): self = .int8(Int8(int(bytes)))
        case (21, 2): self = .int16(Int16(int(bytes)))
        case (21, 3), (21, 4): self = .int32(Int32(int(bytes)))
        case (21, 8): self = .int64(int(bytes))
        case (22, 1): self = .uint8(bytes[0])
        case (22, 2), (22, 3), (22, 4): self = .int64(Int64(uint(bytes)))
        case (22, 8) where uint(bytes) <= UInt64(Int64.max): self = .int64(Int64(uint(bytes)))
        case (23, 4): self = .float32(Float(bitPattern: UInt32(uint(bytes))))
        case (24, 8): self = .float64(Double(bitPattern: uint(bytes)))
        default: self = .data(bytes, dataType: type)
        }
    }
}

extension MovieMetadataValue: ExpressibleByStringLiteral {
    /// A text value.
    public init(stringLiteral value: String) { self = .string(value) }
}
