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

    /// The form of an Aztec symbol (ISO/IEC 24778): compact symbols have 1…4 layers around a small finder, full ones
    /// 1…32 around a larger one with a reference grid.
    public struct AztecLayout: Sendable, Hashable {
        /// Which form to write.
        public enum Form: Sendable, Hashable {
            /// The smaller symbol that holds the message, compact or full (with `layers` given: full).
            case automatic
            /// A compact symbol (1…4 layers; 11 + 4·layers modules square).
            case compact
            /// A full-range symbol (1…32 layers).
            case full
        }

        /// The form.
        public var form: Form
        /// The number of layers; 0 takes the fewest that hold the message and the correction.
        public var layers: Int

        /// A layout; the default lets the encoder choose.
        public init(form: Form = .automatic, layers: Int = 0) {
            self.form = form
            self.layers = layers
        }
    }

    /// The layout of a PDF417 symbol (ISO/IEC 15438).
    public struct PDF417Layout: Sendable, Hashable {
        /// How the message is packed into codewords.
        public enum Compaction: Int, Sendable, Hashable, CaseIterable {
            /// The encoder's choice per segment.
            case automatic = 0
            /// Numeric compaction (digits only).
            case numeric = 1
            /// Text compaction (printable ASCII).
            case text = 2
            /// Byte compaction (any bytes).
            case byte = 3
        }

        /// The number of data columns (1…30); 0 lets the encoder choose.
        public var columns: Int
        /// The number of rows (3…90); 0 lets the encoder choose.
        public var rows: Int
        /// The compaction mode.
        public var compaction: Compaction
        /// Whether to write compact (truncated) PDF417: no right row indicator and a one-module stop pattern.
        public var isCompact: Bool

        /// A layout; the default lets the encoder choose.
        public init(columns: Int = 0, rows: Int = 0, compaction: Compaction = .automatic, isCompact: Bool = false) {
            self.columns = columns
            self.rows = rows
            self.compaction = compaction
            self.isCompact = isCompact
        }
    }

    /// The symbologies the writer makes.
    public static let writableSymbologies: [Symbology] = Symbology.writable

    /// The kind of code written.
    public var symbology: Symbology
    /// The error correction of 2-D codes (ignored by linear ones).
    public var errorCorrection: ErrorCorrection
    /// The form of Aztec symbols (ignored by other symbologies).
    public var aztecLayout: AztecLayout
    /// The layout of PDF417 symbols (ignored by other symbologies).
    public var pdf417Layout: PDF417Layout

    /// A writer of `symbology` codes.
    public init(
        symbology: Symbology, errorCorrection: ErrorCorrection = .automatic, aztecLayout: AztecLayout = AztecLayout(),
        pdf417Layout: PDF417Layout = PDF417Layout()
    ) {
        self.symbology = symbology
        self.errorCorrection = errorCorrection
        self.aztecLayout = aztecLayout
        self.pdf417Layout = pdf417Layout
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
        if symbology == .aztec, aztecLayout != AztecLayout() { return try aztecMatrix(for: message, level: level) }
        if symbology == .pdf417, pdf417Layout != PDF417Layout() { return try pdf417Matrix(for: message, level: level) }
        return try call { modules, width, height, error, capacity in
            message.withUnsafeBufferPointer { m in
                lux_zx_write(
                    symbology.zxingWriterFormat, m.baseAddress, m.count, level, modules, width, height, error, capacity)
            }
        }
    }

    /// The Aztec symbol in ``aztecLayout``: with no layer count, the fewest layers of the form that hold the message.
    private func aztecMatrix(for message: [UInt8], level: Int32) throws(CodeError) -> CodeMatrix {
        let layout = aztecLayout
        let most = layout.form == .compact ? 4 : 32
        guard (0...most).contains(layout.layers) else {
            throw .invalidParameter("a \(layout.form) Aztec symbol has 1…\(most) layers, not \(layout.layers)")
        }
        // zxing-cpp takes the percentage its multi-format writer derives from the 0…8 level.
        let percent = Int32(level) * 100 / 8
        let candidates: [Int32] =
            switch (layout.form, layout.layers) {
            case (.automatic, 0): [0]
            case (.compact, 0): (1...4).map { -Int32($0) }
            case (.compact, let n): [-Int32(n)]
            case (_, 0): (1...32).map { Int32($0) }
            case (_, let n): [Int32(n)]
            }
        var failure: CodeError = .messageNotEncodable(symbology: .aztec, reason: "no layer count fits")
        for layers in candidates {
            do {
                return try call { modules, width, height, error, capacity in
                    var compact: Int32 = 0
                    return message.withUnsafeBufferPointer { m in
                        lux_zx_write_aztec(
                            m.baseAddress, m.count, percent, layers, modules, width, height, &compact, error, capacity)
                    }
                }
            } catch {
                failure = error
            }
        }
        throw failure
    }

    /// The PDF417 symbol in ``pdf417Layout``.
    private func pdf417Matrix(for message: [UInt8], level: Int32) throws(CodeError) -> CodeMatrix {
        let layout = pdf417Layout
        guard layout.columns == 0 || (1...30).contains(layout.columns) else {
            throw .invalidParameter("PDF417 has 1…30 data columns, not \(layout.columns)")
        }
        guard layout.rows == 0 || (3...90).contains(layout.rows) else {
            throw .invalidParameter("PDF417 has 3…90 rows, not \(layout.rows)")
        }
        // zxing-cpp numbers its compaction modes automatic, text, byte, numeric.
        let compaction: Int32 =
            switch layout.compaction {
            case .automatic: 0
            case .text: 1
            case .byte: 2
            case .numeric: 3
            }
        return try call { modules, width, height, error, capacity in
            message.withUnsafeBufferPointer { m in
                lux_zx_write_pdf417(
                    m.baseAddress, m.count, level, Int32(layout.columns), Int32(layout.rows), compaction,
                    layout.isCompact ? 1 : 0, modules, width, height, error, capacity)
            }
        }
    }

    /// The matrix a shim writer returns through `write`, or its message as an error.
    private func call(
        _ write: (
            UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, UnsafeMutablePointer<Int32>,
            UnsafeMutablePointer<Int32>,
            UnsafeMutablePointer<CChar>, Int
        ) -> Int32
    ) throws(CodeError) -> CodeMatrix {
        var modules: UnsafeMutablePointer<UInt8>? = nil
        var width: Int32 = 0
        var height: Int32 = 0
        var error = [CChar](repeating: 0, count: 256)
        let status = error.withUnsafeMutableBufferPointer { e in
            write(&modules, &width, &height, e.baseAddress!, e.count)
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
