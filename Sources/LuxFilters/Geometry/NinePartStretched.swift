public import LuxPixels
public import LuxRender

extension Filters {
    /// Resizes an image like a stretchable button: the rows and columns between the two breakpoints are stretched so
    /// the result is `growAmount` wider and taller, while the corners and edges outside them keep their size.
    ///
    /// The extent grows by `growAmount` (from the same origin).
    public struct NinePartStretched: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "NinePartStretched",
            categories: [.distortionEffect, .geometryAdjustment, .stillImage, .video, .highDynamicRange],
            summary: "Grows an image by stretching its middle, keeping corners and edges.",
            .image(\.image),
            .parameter("breakpoint0", \.breakpoint0, unit: .pixels, summary: "One corner of the middle part."),
            .parameter("breakpoint1", \.breakpoint1, unit: .pixels, summary: "The opposite corner of the middle part."),
            .parameter("growAmount", \.growAmount, unit: .pixels, summary: "How much wider and taller the result is."))

        public var image: Image = .empty
        public var breakpoint0 = Point(x: 50, y: 50)
        public var breakpoint1 = Point(x: 150, y: 150)
        public var growAmount: SIMD2<Double> = [100, 100]

        public init() {}

        public var outputImage: Image {
            let e = image.extent
            let x = NinePartAxis(breakpoint0.x, breakpoint1.x, lo: e.minX, hi: e.maxX, grow: growAmount.x, tiled: false)
            let y = NinePartAxis(breakpoint0.y, breakpoint1.y, lo: e.minY, hi: e.maxY, grow: growAmount.y, tiled: false)
            return NinePart.apply(image, x: x, y: y, name: "ninePartStretched", arguments: "\(x) \(y)")
        }
    }
}

extension Image {
    /// The image grown by stretching its middle (see ``Filters/NinePartStretched``).
    public func ninePartStretched(breakpoint0: Point, breakpoint1: Point, growAmount: SIMD2<Double>) -> Image {
        applyingFilter(
            Filters.NinePartStretched {
                $0.breakpoint0 = breakpoint0
                $0.breakpoint1 = breakpoint1
                $0.growAmount = growAmount
            })
    }
}
