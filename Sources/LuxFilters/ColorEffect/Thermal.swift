public import LuxRender

extension Filters {
    /// A thermal-camera look: luma mapped through black → indigo → magenta → red → orange → yellow → white
    /// (sRGB-encoded stops at luma 0, 0.2, 0.4, 0.6, 0.75, 0.9, 1).
    public struct Thermal: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "Thermal", categories: [.colorEffect, .stillImage, .video],
            summary: "Colours the image like a thermal camera.", .image(\.image))

        public var image: Image = .empty

        public init() {}

        /// The ramp.
        static let palette = Palette([
            (0, [0, 0, 0]), (0.2, [0.15, 0, 0.5]), (0.4, [0.7, 0, 0.65]), (0.6, [0.95, 0.1, 0.1]),
            (0.75, [1, 0.55, 0]), (0.9, [1, 0.95, 0.1]), (1, [1, 1, 1]),
        ])

        public var outputImage: Image { Self.palette.apply(to: image, name: "thermal") }
    }
}

extension Image {
    /// The image coloured like a thermal camera (see ``Filters/Thermal``).
    public func thermal() -> Image { applyingFilter(Filters.Thermal()) }

}
