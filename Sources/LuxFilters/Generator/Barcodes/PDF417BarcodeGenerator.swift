public import LuxCodecs
public import LuxRender

extension Filters {
    /// A PDF417 symbol of the message: one pixel per module, black on white, with a one-module quiet zone.
    ///
    /// ``CodeWriter`` (zxing-cpp) encodes the symbol and chooses its columns and rows (each row several modules
    /// tall); of Core Image's layout parameters only the correction level is offered. A message that does not fit
    /// gives an empty image; ``LuxRender/Image/pdf417Code(message:correctionLevel:)`` throws instead.
    public struct PDF417BarcodeGenerator: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "PDF417BarcodeGenerator", displayName: "PDF417 Generator", categories: [.generator, .stillImage],
            summary: "Generates a PDF417 symbol.",
            .parameter("message", \.message, summary: "The data to encode (text as UTF-8)."),
            .parameter(
                "correctionLevel", \.correctionLevel, slider: 0...8, allowed: 0...8,
                summary: "The error-correction level (2^(level + 1) correction codewords)."))

        public var message: [UInt8] = []
        public var correctionLevel: Int = 2

        public init() {}

        public var outputImage: Image { (try? symbol()) ?? .empty }

        /// The symbol's image, or why the message cannot be encoded.
        func symbol() throws(CodeError) -> Image {
            try BarcodeImage.make(
                CodeWriter(symbology: .pdf417, errorCorrection: .pdf417(correctionLevel)), message: message,
                quietZone: (1, 1))
        }
    }
}

extension Image {
    /// A PDF417 symbol of `message` (see ``Filters/PDF417BarcodeGenerator``).
    ///
    /// - Throws: ``LuxCodecs/CodeError`` when the message does not fit.
    public static func pdf417Code(message: [UInt8], correctionLevel: Int = 2) throws(CodeError) -> Image {
        try Filters.PDF417BarcodeGenerator {
            $0.message = message
            $0.correctionLevel = correctionLevel
        }.symbol()
    }
}
