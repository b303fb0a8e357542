public import LuxCodecs
public import LuxRender

extension Filters {
    /// An Aztec Code of the message: one pixel per module, black on white, with a one-module quiet zone (Aztec needs
    /// none; the margin keeps the finder pattern off the image edge).
    ///
    /// ``CodeWriter`` (zxing-cpp) encodes the symbol. `layers` 0 takes the fewest layers that hold the message;
    /// `compactStyle` asks for a compact symbol (1…4 layers, `11 + 4·layers` modules square); without it, a layer
    /// count gives a full-range symbol and no layer count the smaller of the two forms. A message that does not fit
    /// gives an empty image; ``LuxRender/Image/aztecCode(message:correctionLevel:layers:compactStyle:)`` throws instead.
    public struct AztecCodeGenerator: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "AztecCodeGenerator", categories: [.generator, .stillImage], summary: "Generates an Aztec Code.",
            .parameter("message", \.message, summary: "The data to encode (text as UTF-8)."),
            .parameter(
                "correctionLevel", \.correctionLevel, slider: 5...95, allowed: 5...95,
                summary: "The percentage of the symbol given to error correction."),
            .parameter(
                "layers", \.layers, slider: 0...32, allowed: 0...32,
                summary: "The number of data layers around the finder; 0 takes the fewest that fit."),
            .parameter("compactStyle", \.compactStyle, summary: "Whether to write a compact symbol (1…4 layers)."))

        public var message: [UInt8] = []
        public var correctionLevel: Double = 23
        public var layers: Int = 0
        public var compactStyle: Bool = false

        public init() {}

        public var outputImage: Image { (try? symbol()) ?? .empty }

        /// The symbol's image, or why the message cannot be encoded.
        func symbol() throws(CodeError) -> Image {
            try BarcodeImage.make(
                CodeWriter(
                    symbology: .aztec, errorCorrection: .aztecPercent(correctionLevel),
                    aztecLayout: CodeWriter.AztecLayout(
                        form: compactStyle ? .compact : layers > 0 ? .full : .automatic, layers: layers)),
                message: message, quietZone: (1, 1))
        }
    }
}

extension Image {
    /// An Aztec Code of `message` (see ``Filters/AztecCodeGenerator``).
    ///
    /// - Throws: ``LuxCodecs/CodeError`` when the message does not fit, the level is outside 5…95 or the layer count
    ///   outside 0…4 (compact) or 0…32.
    public static func aztecCode(
        message: [UInt8], correctionLevel: Double = 23, layers: Int = 0, compactStyle: Bool = false
    ) throws(CodeError) -> Image {
        try Filters.AztecCodeGenerator {
            $0.message = message
            $0.correctionLevel = correctionLevel
            $0.layers = layers
            $0.compactStyle = compactStyle
        }.symbol()
    }
}
