internal import CLuxZXing

/// A kind of machine-readable code (the `AVMetadataObject.ObjectType` role for codes).
///
/// ``CodeReader`` reads all of them; ``CodeWriter`` writes all but ``itf14`` (write ``interleaved2of5`` with 14
/// digits) and ``upce``.
public enum Symbology: String, CaseIterable, Sendable, Codable, CustomStringConvertible {
    /// QR Code (ISO/IEC 18004).
    case qr
    /// Aztec Code (ISO/IEC 24778).
    case aztec
    /// PDF417 (ISO/IEC 15438).
    case pdf417
    /// Code 128 (ISO/IEC 15417).
    case code128
    /// Data Matrix ECC 200 (ISO/IEC 16022).
    case dataMatrix
    /// Interleaved 2 of 5 (ANSI/AIM BC2), any even number of digits.
    case interleaved2of5
    /// ITF-14: Interleaved 2 of 5 carrying a GTIN-14 (14 digits, the last a GS1 check digit).
    case itf14
    /// EAN-13 (UPC-A reads as EAN-13 with a leading 0).
    case ean13
    /// EAN-8.
    case ean8
    /// UPC-E.
    case upce
    /// Code 39.
    case code39
    /// Code 93.
    case code93
    /// Codabar.
    case codabar

    /// Whether the code is a matrix of modules in two dimensions (or, for PDF417, stacked rows).
    public var isTwoDimensional: Bool { [.qr, .aztec, .pdf417, .dataMatrix].contains(self) }

    public var description: String { rawValue }

    /// zxing-cpp's format flag.
    var zxingFormat: Int32 {
        switch self {
        case .qr: Int32(LUX_ZX_QR)
        case .aztec: Int32(LUX_ZX_AZTEC)
        case .pdf417: Int32(LUX_ZX_PDF417)
        case .code128: Int32(LUX_ZX_CODE128)
        case .dataMatrix: Int32(LUX_ZX_DATA_MATRIX)
        case .interleaved2of5, .itf14: Int32(LUX_ZX_ITF)
        case .ean13: Int32(LUX_ZX_EAN13 | LUX_ZX_UPCA)
        case .ean8: Int32(LUX_ZX_EAN8)
        case .upce: Int32(LUX_ZX_UPCE)
        case .code39: Int32(LUX_ZX_CODE39)
        case .code93: Int32(LUX_ZX_CODE93)
        case .codabar: Int32(LUX_ZX_CODABAR)
        }
    }

    /// The symbology of a code zxing-cpp read as `format` with `payload` (ITF carrying 14 digits with a valid GS1
    /// check digit is ITF-14).
    init?(zxingFormat format: Int32, payload: [UInt8]) {
        switch format {
        case Int32(LUX_ZX_QR): self = .qr
        case Int32(LUX_ZX_AZTEC): self = .aztec
        case Int32(LUX_ZX_PDF417): self = .pdf417
        case Int32(LUX_ZX_CODE128): self = .code128
        case Int32(LUX_ZX_DATA_MATRIX): self = .dataMatrix
        case Int32(LUX_ZX_ITF): self = Self.isGTIN14(payload) ? .itf14 : .interleaved2of5
        case Int32(LUX_ZX_EAN13), Int32(LUX_ZX_UPCA): self = .ean13
        case Int32(LUX_ZX_EAN8): self = .ean8
        case Int32(LUX_ZX_UPCE): self = .upce
        case Int32(LUX_ZX_CODE39): self = .code39
        case Int32(LUX_ZX_CODE93): self = .code93
        case Int32(LUX_ZX_CODABAR): self = .codabar
        default: return nil
        }
    }

    /// Whether `digits` are 14 ASCII digits whose last is the GS1 mod-10 check digit of the others.
    static func isGTIN14(_ digits: [UInt8]) -> Bool {
        guard digits.count == 14, digits.allSatisfy({ (48...57).contains($0) }) else { return false }
        let d = digits.map { Int($0) - 48 }
        // Weights 3, 1, 3, … from the left for 13 data digits.
        let sum = (0..<13).reduce(0) { $0 + d[$1] * ($1 % 2 == 0 ? 3 : 1) }
        return (10 - sum % 10) % 10 == d[13]
    }
}
