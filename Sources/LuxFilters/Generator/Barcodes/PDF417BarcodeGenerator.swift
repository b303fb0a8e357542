public import LuxCodecs
public import LuxRender

extension Filters {
    /// A PDF417 symbol of the message: one pixel per module, black on white, with a one-module quiet zone.
    ///
    /// ``CodeWriter`` (zxing-cpp) encodes the symbol, each row 4 modules tall. `dataColumns` and `rows` fix the
    /// layout (0 lets the encoder choose): a symbol of `c` data columns is `17·c + 69` modules wide, or `17·c + 35` in
    /// the compact style (no right row indicator, a one-module stop pattern). `compactionMode` takes Core Image's
    /// numbers: 0 automatic, 1 numeric, 2 text, 3 byte. Core Image's `inputPreferredAspectRatio`, minimum and maximum
    /// sizes and `inputAlwaysSpecifyCompaction` are not offered. A message that does not fit gives an empty image;
    /// ``LuxRender/Image/pdf417Code(message:correctionLevel:layout:)`` throws instead.
    public struct PDF417BarcodeGenerator: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "PDF417BarcodeGenerator", displayName: "PDF417 Generator", categories: [.generator, .stillImage],
            summary: "Generates a PDF417 symbol.",
            .parameter("message", \.message, summary: "The data to encode (text as UTF-8)."),
            .parameter(
                "correctionLevel", \.correctionLevel, slider: 0...8, allowed: 0...8,
                summary: "The error-correction level (2^(level + 1) correction codewords)."),
            .parameter(
                "dataColumns", \.dataColumns, slider: 0...30, allowed: 0...30,
                summary: "The number of data columns; 0 lets the encoder choose."),
            .parameter(
                "rows", \.rows, slider: 0...90, allowed: 0...90,
                summary: "The number of rows; 0 lets the encoder choose."),
            .parameter(
                "compactionMode", \.compactionMode, slider: 0...3, allowed: 0...3,
                summary: "How the message is packed: 0 automatic, 1 numeric, 2 text, 3 byte."),
            .parameter(
                "compactStyle", \.compactStyle, summary: "Whether to write compact PDF417 (no right row indicator)."))

        public var message: [UInt8] = []
        public var correctionLevel: Int = 2
        public var dataColumns: Int = 0
        public var rows: Int = 0
        public var compactionMode: Int = 0
        public var compactStyle: Bool = false

        public init() {}

        public var outputImage: Image { (try? symbol()) ?? .empty }

        /// The symbol's image, or why the message cannot be encoded.
        func symbol() throws(CodeError) -> Image {
            try BarcodeImage.make(
                CodeWriter(
                    symbology: .pdf417, errorCorrection: .pdf417(correctionLevel),
                    pdf417Layout: CodeWriter.PDF417Layout(
                        columns: dataColumns, rows: rows, compaction: .init(rawValue: compactionMode) ?? .automatic,
                        isCompact: compactStyle)),
                message: message, quietZone: (1, 1))
        }
    }
}

extension Image {
    /// A PDF417 symbol of `message` (see ``Filters/PDF417BarcodeGenerator``).
    ///
    /// - Throws: ``LuxCodecs/CodeError`` when the message does not fit the layout, or the layout is out of range.
    public static func pdf417Code(
        message: [UInt8], correctionLevel: Int = 2, layout: CodeWriter.PDF417Layout = CodeWriter.PDF417Layout()
    ) throws(CodeError) -> Image {
        try Filters.PDF417BarcodeGenerator {
            $0.message = message
            $0.correctionLevel = correctionLevel
            $0.dataColumns = layout.columns
            $0.rows = layout.rows
            $0.compactionMode = layout.compaction.rawValue
            $0.compactStyle = layout.isCompact
        }.symbol()
    }
}
