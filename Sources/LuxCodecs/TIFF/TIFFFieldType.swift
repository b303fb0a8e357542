/// The data type of a TIFF field (TIFF 6.0 §2, TIFF Tech Note 1, BigTIFF).
public enum TIFFFieldType: UInt16, Hashable, Sendable, Codable {
    case byte = 1, ascii = 2, short = 3, long = 4, rational = 5, sbyte = 6, undefined = 7, sshort = 8,
        slong = 9, srational = 10, float = 11, double = 12, ifd = 13, long8 = 16, slong8 = 17, ifd8 = 18

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
