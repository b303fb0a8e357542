internal import CLuxZXing

/// Encodes messages as code symbols with zxing-cpp (the encoding half of Core Image's barcode generators).
///
/// ```swift
/// let matrix = try CodeWriter(symbology: .qr, errorCorrection: .qr(.high)).matrix(for: Array("Lux".utf8))
/// ```
///
/// Messages are bytes, written as they are (byte mode, no character-set announcement), as Core Image does with its
/// `inputMessage` data; text is its UTF-8 bytes.
public struct CodeWriter: Sendable, Hashable {
    /// How much error correction a symbol carries.
    public enum ErrorCorrection: Sendable, Hashable {
        /// The symbology's default (QR: M, Aztec: 23 %, PDF417: level 2).
        case automatic
        /// A QR Code level.
        case qr(QRCorrectionLevel)
        /// An Aztec Code percentage of the symbol, 5…95, rounded to the nearest eighth (zxing-cpp's steps).
        case aztecPercent(Double)
        /// A PDF417 level, 0…8 (2^(level+1) correction codewords).
        case pdf417(Int)
    }

    /// QR Code error-correction levels, as Core Image names them.
    public enum QRCorrectionLevel: String, Sendable, Hashable, CaseIterable {
        /// About 7 % of the codewords can be restored.
        case low = "L"
        /// About 15 %.
        case medium = "M"
        /// About 25 %.
        case quartile = "Q"
        /// About 30 %.
        case high = "H"
    }

    /// The symbologies the writer makes.
    public static let writableSymbologies: [Symbology] = Symbology.writable

    /// The kind of code written.
    public var symbology: Symbology
    /// The error correction of 2-D codes (ignored by linear ones).
    public var errorCorrection: ErrorCorrection

    /// A writer of `symbology` codes.
    public init(symbology: Symbology, errorCorrection: ErrorCorrection = .automatic) {
        self.symbology = symbology
        self.errorCorrection = errorCorrection
    }

    /// The symbol for `message`, one entry per module, without a quiet zone.
    ///
    /// - Throws: ``CodeError/unsupportedSymbology(_:)`` for symbologies the writer does not make,
    ///   ``CodeError/invalidParameter(_:)`` for a correction that does not fit the symbology or is out of range, and
    ///   ``CodeError/messageNotEncodable(symbology:reason:)`` when the message does not fit (too long, or
    ///   characters the symbology cannot hold).
    public func matrix(for message: [UInt8]) throws(CodeError) -> CodeMatrix {
        guard Symbology.writable.contains(symbology) else { throw .unsupportedSymbology(symbology) }
        let level = try eccLevel()
        var modules: UnsafeMutablePointer<UInt8>? = nil
        var width: Int32 = 0
        var height: Int32 = 0
        var error = [CChar](repeating: 0, count: 256)
        let status = message.withUnsafeBufferPointer { m in
            lux_zx_write(
                symbology.zxingWriterFormat, m.baseAddress, m.count, level, &modules, &width, &height, &error,
                error.count)
        }
        guard status == 0, let modules else {
            let reason = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw .messageNotEncodable(symbology: symbology, reason: reason)
        }
        defer { lux_zx_free(modules) }
        let count = Int(width) * Int(height)
        let flags = (0..<count).map { modules[$0] != 0 }
        return CodeMatrix(width: Int(width), height: Int(height), modules: flags)
    }

    /// zxing-cpp's 0…8 scale for the requested correction (-1: its default).
    private func eccLevel() throws(CodeError) -> Int32 {
        switch (errorCorrection, symbology) {
        case (.automatic, .qr): return Self.zxingLevel(.medium)
        case (.automatic, .aztec): return try Self.zxingLevel(aztecPercent: 23)
        case (.automatic, .pdf417): return 2
        case (.automatic, _): return -1
        case (.qr(let l), .qr): return Self.zxingLevel(l)
        case (.aztecPercent(let p), .aztec): return try Self.zxingLevel(aztecPercent: p)
        case (.pdf417(let l), .pdf417):
            guard (0...8).contains(l) else { throw .invalidParameter("PDF417 error correction is 0…8, not \(l)") }
            return Int32(l)
        default:
            throw .invalidParameter("\(errorCorrection) does not apply to \(symbology) codes")
        }
    }

    /// zxing-cpp maps its level e to QR level (e − 1) / 2: L, M, Q, H are 1, 3, 5, 7.
    private static func zxingLevel(_ l: QRCorrectionLevel) -> Int32 {
        switch l {
        case .low: 1
        case .medium: 3
        case .quartile: 5
        case .high: 7
        }
    }

    /// zxing-cpp takes Aztec correction in eighths of the symbol.
    private static func zxingLevel(aztecPercent p: Double) throws(CodeError) -> Int32 {
        guard p.isFinite, (5...95).contains(p) else {
            throw .invalidParameter("Aztec error correction is 5…95 percent, not \(p)")
        }
        return Int32((p * 8 / 100).rounded())
    }
}

extension Symbology {
    /// zxing-cpp's format flag for writing: exactly one format (reading EAN-13 also accepts UPC-A).
    var zxingWriterFormat: Int32 { self == .ean13 ? Int32(LUX_ZX_EAN13) : zxingFormat }

    /// What ``CodeWriter`` makes.
    static let writable: [Symbology] = [
        .qr, .aztec, .pdf417, .code128, .dataMatrix, .interleaved2of5, .ean13, .ean8, .code39, .code93, .codabar,
    ]
}
