/// The typed contents of a TIFF or Exif field.
///
/// Used for tags LuxCodecs has no dedicated property for, so they survive a read–write round trip.
public enum TIFFValue: Hashable, Sendable, Codable {
    case bytes([UInt8])
    case ascii(String)
    case shorts([UInt16])
    case longs([UInt32])
    case rationals([Rational])
    case signedBytes([Int8])
    case undefined([UInt8])
    case signedShorts([Int16])
    case signedLongs([Int32])
    case signedRationals([Rational])
    case floats([Float])
    case doubles([Double])

    /// The TIFF field type this value is written with.
    public var fieldType: TIFFFieldType {
        switch self {
        case .bytes: .byte
        case .ascii: .ascii
        case .shorts: .short
        case .longs: .long
        case .rationals: .rational
        case .signedBytes: .sbyte
        case .undefined: .undefined
        case .signedShorts: .sshort
        case .signedLongs: .slong
        case .signedRationals: .srational
        case .floats: .float
        case .doubles: .double
        }
    }

    /// The number of values (for ASCII: bytes including the terminating NUL).
    public var count: Int {
        switch self {
        case .bytes(let v), .undefined(let v): v.count
        case .ascii(let s): s.utf8.count + 1
        case .shorts(let v): v.count
        case .longs(let v): v.count
        case .rationals(let v), .signedRationals(let v): v.count
        case .signedBytes(let v): v.count
        case .signedShorts(let v): v.count
        case .signedLongs(let v): v.count
        case .floats(let v): v.count
        case .doubles(let v): v.count
        }
    }

    /// Integer values (for integer types), `nil` otherwise.
    public var integers: [Int]? {
        switch self {
        case .bytes(let v), .undefined(let v): v.map { Int($0) }
        case .shorts(let v): v.map { Int($0) }
        case .longs(let v): v.map { Int($0) }
        case .signedBytes(let v): v.map { Int($0) }
        case .signedShorts(let v): v.map { Int($0) }
        case .signedLongs(let v): v.map { Int($0) }
        default: nil
        }
    }

    /// Numeric values as `Double` (any numeric type), `nil` for text and opaque bytes.
    public var doubles: [Double]? {
        switch self {
        case .rationals(let v), .signedRationals(let v): v.map(\.doubleValue)
        case .floats(let v): v.map { Double($0) }
        case .doubles(let v): v
        case .undefined, .ascii: nil
        default: integers?.map { Double($0) }
        }
    }

    /// The text of an ASCII value.
    public var string: String? {
        if case .ascii(let s) = self { return s }
        return nil
    }

    /// The raw bytes of a BYTE or UNDEFINED value.
    public var rawBytes: [UInt8]? {
        switch self {
        case .bytes(let v), .undefined(let v): v
        default: nil
        }
    }

    /// Encodes the values in the given byte order (ASCII gets its NUL).
    func encoded(bigEndian: Bool) -> [UInt8] {
        var w = ByteWriter(bigEndian: bigEndian)
        switch self {
        case .bytes(let v), .undefined(let v): w.append(v)
        case .ascii(let s):
            w.append(s.utf8)
            w.u8(0)
        case .shorts(let v): for x in v { w.u16(x) }
        case .longs(let v): for x in v { w.u32(x) }
        case .rationals(let v):
            for x in v {
                w.u32(UInt32(truncatingIfNeeded: x.numerator))
                w.u32(UInt32(truncatingIfNeeded: x.denominator))
            }
        case .signedBytes(let v): for x in v { w.u8(UInt8(bitPattern: x)) }
        case .signedShorts(let v): for x in v { w.u16(UInt16(bitPattern: x)) }
        case .signedLongs(let v): for x in v { w.u32(UInt32(bitPattern: x)) }
        case .signedRationals(let v):
            for x in v {
                w.u32(UInt32(bitPattern: Int32(truncatingIfNeeded: x.numerator)))
                w.u32(UInt32(bitPattern: Int32(truncatingIfNeeded: x.denominator)))
            }
        case .floats(let v): for x in v { w.f32(x) }
        case .doubles(let v): for x in v { w.f64(x) }
        }
        return w.bytes
    }
}
