public import LuxRender

extension Filters {
    /// An image of infinite extent filled with one colour.
    public struct ConstantColorGenerator: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "ConstantColorGenerator", displayName: "Constant Color",
            categories: [.generator, .stillImage, .video, .highDynamicRange],
            summary: "An infinite image of one colour.", .parameter("color", \.color, summary: "The colour."))

        public var color: Color = Color(red: 1, green: 0, blue: 0)

        public init() {}

        /// An image of `color`.
        public init(color: Color) { self.color = color }

        public var outputImage: Image { Image(color: color) }
    }
}
