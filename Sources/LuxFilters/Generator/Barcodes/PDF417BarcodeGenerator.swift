public import LuxCodecs
public import LuxRender
import RealModule

extension Filters {
    /// A PDF417 symbol of the message: one pixel per module, black on white, with a one-module quiet zone.
    ///
    /// ``CodeWriter`` (zxing-cpp) encodes the symbol, each row 4 modules tall. `dataColumns` and `rows` fix the
    /// layout (0 lets the encoder choose): a symbol of `c` data columns is `17·c + 69` modules wide, or `17·c + 35` in
    /// the compact style (no right row indicator, a one-module stop pattern). `compactionMode` takes Core Image's
    /// numbers: 0 automatic, 1 numeric, 2 text, 3 byte.
    ///
    /// The shape, as Core Image's `inputPreferredAspectRatio`, `inputMinWidth`, `inputMaxWidth`, `inputMinHeight` and
    /// `inputMaxHeight` set it: the sizes bound the image's width and height in pixels, quiet zone included (0: no
    /// bound), and the symbol is the layout of 1…30 data columns (or of `dataColumns`, when given) within the bounds
    /// whose width ÷ height is nearest `preferredAspectRatio` (the smallest ratio of the two; with no preferred
    /// ratio, the layout of the fewest pixels). zxing-cpp 1.4 has no aspect control of its own, so each column count
    /// is encoded in turn. `alwaysSpecifyCompaction` makes the symbol state its compaction mode in its first data
    /// codeword: zxing-cpp writes a latch before numeric and byte compaction but never before text, the mode a
    /// reader assumes, so with it automatic compaction becomes byte compaction (latch 901 or 924) and text
    /// compaction cannot be asked for. A message that does not fit, or no layout within the bounds, gives an empty
    /// image; ``LuxRender/Image/pdf417Code(message:correctionLevel:layout:shape:)`` throws instead.
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
                "compactStyle", \.compactStyle, summary: "Whether to write compact PDF417 (no right row indicator)."),
            .parameter(
                "preferredAspectRatio", \.preferredAspectRatio, slider: 0...10, allowed: 0...1e4,
                summary: "The width ÷ height to come nearest to; 0 takes the smallest symbol within the bounds."),
            .parameter(
                "minWidth", \.minWidth, slider: 0...600, allowed: 0...1e5, unit: .pixels,
                summary: "The least width of the image; 0 for none."),
            .parameter(
                "maxWidth", \.maxWidth, slider: 0...600, allowed: 0...1e5, unit: .pixels,
                summary: "The greatest width of the image; 0 for none."),
            .parameter(
                "minHeight", \.minHeight, slider: 0...300, allowed: 0...1e5, unit: .pixels,
                summary: "The least height of the image; 0 for none."),
            .parameter(
                "maxHeight", \.maxHeight, slider: 0...300, allowed: 0...1e5, unit: .pixels,
                summary: "The greatest height of the image; 0 for none."),
            .parameter(
                "alwaysSpecifyCompaction", \.alwaysSpecifyCompaction,
                summary: "Whether the symbol states its compaction mode (automatic becomes byte compaction)."))

        public var message: [UInt8] = []
        public var correctionLevel: Int = 2
        public var dataColumns: Int = 0
        public var rows: Int = 0
        public var compactionMode: Int = 0
        public var compactStyle: Bool = false
        public var preferredAspectRatio: Double = 0
        public var minWidth: Double = 0
        public var maxWidth: Double = 0
        public var minHeight: Double = 0
        public var maxHeight: Double = 0
        public var alwaysSpecifyCompaction: Bool = false

        public init() {}

        public var outputImage: Image { (try? symbol()) ?? .empty }

        /// The symbol's image, or why the message cannot be encoded in the layout and shape asked for.
        func symbol() throws(CodeError) -> Image {
            let shape = Shape(
                preferredAspectRatio: preferredAspectRatio, minWidth: minWidth, maxWidth: maxWidth,
                minHeight: minHeight, maxHeight: maxHeight)
            guard shape != Shape() else { return try draw(columns: dataColumns) }
            var best: (image: Image, score: Double)? = nil
            for columns in dataColumns > 0 ? [dataColumns] : Array(1...30) {
                let image: Image
                do {
                    image = try draw(columns: columns)
                } catch .messageNotEncodable {
                    continue
                }
                let (w, h) = (image.extent.width, image.extent.height)
                guard shape.admits(width: w, height: h) else { continue }
                let score =
                    preferredAspectRatio > 0 ? abs(Double.log(w / h / preferredAspectRatio)) : w * h
                if best.map({ score < $0.score }) ?? true { best = (image, score) }
            }
            guard let best else {
                throw .messageNotEncodable(
                    symbology: .pdf417,
                    reason: "no layout of \(dataColumns > 0 ? "\(dataColumns)" : "1…30") data "
                        + "columns fits \(shape)")
            }
            return best.image
        }

        /// The symbol of `columns` data columns (0: the encoder's choice), drawn with its quiet zone.
        private func draw(columns: Int) throws(CodeError) -> Image {
            var compaction = CodeWriter.PDF417Layout.Compaction(rawValue: compactionMode) ?? .automatic
            if alwaysSpecifyCompaction {
                guard compaction != .text else {
                    throw .invalidParameter(
                        "text compaction cannot be stated in the symbol (zxing-cpp writes no latch before it)")
                }
                if compaction == .automatic { compaction = .byte }
            }
            return try BarcodeImage.make(
                CodeWriter(
                    symbology: .pdf417, errorCorrection: .pdf417(correctionLevel),
                    pdf417Layout: CodeWriter.PDF417Layout(
                        columns: columns, rows: rows, compaction: compaction, isCompact: compactStyle)),
                message: message, quietZone: (1, 1))
        }

        /// Bounds on a PDF417 image's size and the aspect it should come nearest to (Core Image's
        /// `inputPreferredAspectRatio`, `inputMinWidth`…); a zero sets none.
        public struct Shape: Sendable, Hashable, CustomStringConvertible {
            /// The width ÷ height to come nearest to; 0 takes the smallest symbol within the bounds.
            public var preferredAspectRatio: Double
            /// The least width in pixels, quiet zone included.
            public var minWidth: Double
            /// The greatest width in pixels.
            public var maxWidth: Double
            /// The least height in pixels.
            public var minHeight: Double
            /// The greatest height in pixels.
            public var maxHeight: Double

            /// A shape; the default leaves the layout to the encoder.
            public init(
                preferredAspectRatio: Double = 0, minWidth: Double = 0, maxWidth: Double = 0, minHeight: Double = 0,
                maxHeight: Double = 0
            ) {
                self.preferredAspectRatio = preferredAspectRatio
                self.minWidth = minWidth
                self.maxWidth = maxWidth
                self.minHeight = minHeight
                self.maxHeight = maxHeight
            }

            /// Whether an image of this size is within the bounds.
            func admits(width: Double, height: Double) -> Bool {
                width >= minWidth && (maxWidth <= 0 || width <= maxWidth) && height >= minHeight
                    && (maxHeight <= 0 || height <= maxHeight)
            }

            public var description: String {
                let w = "width \(minWidth)…\(maxWidth > 0 ? "\(maxWidth)" : "∞")"
                return w + ", height \(minHeight)…\(maxHeight > 0 ? "\(maxHeight)" : "∞")"
            }
        }
    }
}

extension Image {
    /// A PDF417 symbol of `message` (see ``Filters/PDF417BarcodeGenerator``).
    ///
    /// - Parameters:
    ///   - layout: The columns, rows, compaction and style; a column count of 0 lets `shape` (or the encoder) choose.
    ///   - shape: Bounds on the image's size and a preferred width ÷ height.
    ///   - alwaysSpecifyCompaction: Whether the symbol states its compaction mode (automatic becomes byte).
    /// - Throws: ``LuxCodecs/CodeError`` when the message does not fit the layout or the shape, or the layout is out of
    ///   range.
    public static func pdf417Code(
        message: [UInt8], correctionLevel: Int = 2, layout: CodeWriter.PDF417Layout = CodeWriter.PDF417Layout(),
        shape: Filters.PDF417BarcodeGenerator.Shape = .init(), alwaysSpecifyCompaction: Bool = false
    ) throws(CodeError) -> Image {
        try Filters.PDF417BarcodeGenerator {
            $0.message = message
            $0.correctionLevel = correctionLevel
            $0.dataColumns = layout.columns
            $0.rows = layout.rows
            $0.compactionMode = layout.compaction.rawValue
            $0.compactStyle = layout.isCompact
            $0.preferredAspectRatio = shape.preferredAspectRatio
            $0.minWidth = shape.minWidth
            $0.maxWidth = shape.maxWidth
            $0.minHeight = shape.minHeight
            $0.maxHeight = shape.maxHeight
            $0.alwaysSpecifyCompaction = alwaysSpecifyCompaction
        }.symbol()
    }
}
