public import LuxRender

extension Filters {
    /// An image of infinite extent filled with one colour.
    public struct ConstantColorGenerator: Filter {
        public static let descriptor = FilterDescriptor(
            name: "ConstantColorGenerator", displayName: "Constant Color",
            categories: [.generator, .stillImage, .video, .highDynamicRange],
            summary: "An infinite image of one colour.",
            parameters: [.color("color", default: Color(red: 1, green: 0, blue: 0), summary: "The colour.")])

        public var color: Color

        public init(color: Color = Color(red: 1, green: 0, blue: 0)) { self.color = color }

        public init(arguments a: FilterArguments) { self.init(color: a.color("color")) }

        public var outputImage: Image { Image(color: color) }
    }
}
