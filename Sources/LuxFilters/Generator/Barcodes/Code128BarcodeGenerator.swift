public import LuxCodecs
public import LuxRender

extension Filters {
    /// A Code 128 barcode of the message: one pixel per module across, `barcodeHeight` pixels tall, black on white,
    /// with `quietSpace` modules of white left and right (Core Image's defaults: 7 and 32).
    ///
    /// The message is ASCII text (Code 128 holds characters 0…127); ``CodeWriter`` (zxing-cpp) chooses the code sets.
    /// A message it cannot hold gives an empty image; ``LuxRender/Image/code128Barcode(message:quietSpace:barcodeHeight:)``
    /// throws instead.
    public struct Code128BarcodeGenerator: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "Code128BarcodeGenerator", displayName: "Code 128 Barcode Generator",
            categories: [.generator, .stillImage],
            summary: "Generates a Code 128 barcode.",
            .parameter("message", \.message, summary: "The text to encode, as ASCII."),
            .parameter(
                "quietSpace", \.quietSpace, slider: 0...20, allowed: 0...100, unit: .pixels,
                summary: "The white modules left and right of the bars."),
            .parameter(
                "barcodeHeight", \.barcodeHeight, slider: 1...500, allowed: 1...10000, unit: .pixels,
                summary: "The height of the bars."))

        public var message: [UInt8] = []
        public var quietSpace: Double = 7
        public var barcodeHeight: Double = 32

        public init() {}

        public var outputImage: Image { (try? symbol()) ?? .empty }

        /// The symbol's image, or why the message cannot be encoded.
        func symbol() throws(CodeError) -> Image {
            guard message.allSatisfy({ $0 < 128 }) else {
                throw .messageNotEncodable(symbology: .code128, reason: "Code 128 holds ASCII characters only")
            }
            return try BarcodeImage.make(
                CodeWriter(symbology: .code128), message: message,
                quietZone: (Int(quietSpace.rounded()), 0), rowHeight: max(Int(barcodeHeight.rounded()), 1))
        }
    }
}

extension Image {
    /// A Code 128 barcode of `message` (see ``Filters/Code128BarcodeGenerator``).
    ///
    /// - Throws: ``LuxCodecs/CodeError`` when the message is not ASCII or cannot be encoded.
    public static func code128Barcode(
        message: String, quietSpace: Double = 7, barcodeHeight: Double = 32
    ) throws(CodeError) -> Image {
        try Filters.Code128BarcodeGenerator {
            $0.message = Array(message.utf8)
            $0.quietSpace = quietSpace
            $0.barcodeHeight = barcodeHeight
        }.symbol()
    }
}
