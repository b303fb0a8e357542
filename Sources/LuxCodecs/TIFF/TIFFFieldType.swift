/// The data type of a TIFF field (TIFF 6.0 §2, TIFF Tech Note 1, BigTIFF).
public enum TIFFFieldType: UInt16, Hashable, Sendable, Codable {
    case byte = 1
    case ascii = 2
    case short = 3
    case long = 4
    case rational = 5
    case sbyte = 6
    case undefined = 7
    case sshort = 8
    case
        slong = 9
    case srational = 10
    case float = 11
    case double = 12
    case ifd = 13
    case long8 = 16
    case slong8 = 17
    case ifd8 = 18

    /// Bytes per value.
    public var size: Int {
        switch self {
        case .byte, .ascii, .sbyte, .undefined: 1
        case .short, .sshort: 2
        case .long, .slong, .float, .ifd: 4
        case .rational, .srational, .double, .long8, .slong8, .ifd8: 8
        }
    }
}
