public import LuxCodecs
public import LuxRender

extension Filters {
    /// An Aztec Code of the message: one pixel per module, black on white, with a one-module quiet zone (Aztec needs
    /// none; the margin keeps the finder pattern off the image edge).
    ///
    /// ``CodeWriter`` (zxing-cpp) encodes the symbol and picks the number of layers and the compact or full form for
    /// the message (Core Image's `inputLayers` and `inputCompactStyle` are not offered). A message that does not fit
    /// gives an empty image; ``LuxRender/Image/aztecCode(message:correctionLevel:)`` throws instead.
    public struct AztecCodeGenerator: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "AztecCodeGenerator", categories: [.generator, .stillImage], summary: "Generates an Aztec Code.",
            .parameter("message", \.message, summary: "The data to encode (text as UTF-8)."),
            .parameter(
                "correctionLevel", \.correctionLevel, slider: 5...95, allowed: 5...95,
                summary: "The percentage of the symbol given to error correction."))

        public var message: [UInt8] = []
        public var correctionLevel: Double = 23

        public init() {}

        public var outputImage: Image { (try? symbol()) ?? .empty }

        /// The symbol's image, or why the message cannot be encoded.
        func symbol() throws(CodeError) -> Image {
            try BarcodeImage.make(
                CodeWriter(symbology: .aztec, errorCorrection: .aztecPercent(correctionLevel)), message: message,
                quietZone: (1, 1))
        }
    }
}

extension Image {
    /// An Aztec Code of `message` (see ``Filters/AztecCodeGenerator``).
    ///
    /// - Throws: ``LuxCodecs/CodeError`` when the message does not fit or the level is outside 5…95.
    public static func aztecCode(message: [UInt8], correctionLevel: Double = 23) throws(CodeError) -> Image {
        try Filters.AztecCodeGenerator {
            $0.message = message
            $0.correctionLevel = correctionLevel
        }.symbol()
    }
}
