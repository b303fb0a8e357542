public import LuxCodecs
public import LuxRender

extension Filters {
    /// A QR Code of the message: one pixel per module, black on white, with Core Image's quiet zone of one module
    /// on each side (scale it up with a nearest-neighbour transform to print it).
    ///
    /// The message is bytes (text is its UTF-8), written in byte mode as Core Image does; ``CodeWriter`` (zxing-cpp)
    /// encodes the symbol. A message too long for the largest symbol at the level gives an empty image; use
    /// ``LuxRender/Image/qrCode(message:correctionLevel:)`` for a typed error.
    public struct QRCodeGenerator: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "QRCodeGenerator", displayName: "QR Code Generator", categories: [.generator, .stillImage],
            summary: "Generates a QR Code.",
            .parameter("message", \.message, summary: "The data to encode (text as UTF-8)."),
            .parameter("correctionLevel", \.correctionLevel, summary: "The error-correction level: L, M, Q or H."))

        public var message: [UInt8] = []
        public var correctionLevel: CodeWriter.QRCorrectionLevel = .medium

        public init() {}

        public var outputImage: Image { (try? symbol()) ?? .empty }

        /// The symbol's image, or why the message cannot be encoded.
        func symbol() throws(CodeError) -> Image {
            try BarcodeImage.make(
                CodeWriter(symbology: .qr, errorCorrection: .qr(correctionLevel)), message: message,
                quietZone: (1, 1))
        }
    }
}

extension Image {
    /// A QR Code of `message` (see ``Filters/QRCodeGenerator``).
    ///
    /// - Throws: ``LuxCodecs/CodeError/messageNotEncodable(symbology:reason:)`` when the message does not fit.
    public static func qrCode(
        message: [UInt8], correctionLevel: CodeWriter.QRCorrectionLevel = .medium
    ) throws(CodeError) -> Image {
        try Filters.QRCodeGenerator {
            $0.message = message
            $0.correctionLevel = correctionLevel
        }.symbol()
    }

    /// A QR Code of `text` in UTF-8 (see ``Filters/QRCodeGenerator``).
    public static func qrCode(
        text: String, correctionLevel: CodeWriter.QRCorrectionLevel = .medium
    ) throws(CodeError) -> Image {
        try qrCode(message: Array(text.utf8), correctionLevel: correctionLevel)
    }
}

// The levels are a choice of Core Image's names, L, M, Q and H.
extension CodeWriter.QRCorrectionLevel: FilterParameterValue {}
