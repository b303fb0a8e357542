public import LuxPixels
public import LuxRender

extension Filters {
    /// Resizes an image like ``NinePartStretched`` but repeats the middle rows and columns instead of stretching them
    /// (a pattern keeps its scale); with `flipYTiles` every other vertical repetition is mirrored so the tiles join
    /// seamlessly.
    ///
    /// The extent grows by `growAmount`.
    public struct NinePartTiled: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "NinePartTiled",
            categories: [.distortionEffect, .geometryAdjustment, .stillImage, .video, .highDynamicRange],
            summary: "Grows an image by repeating its middle, keeping corners and edges.",
            .image(\.image),
            .parameter("breakpoint0", \.breakpoint0, unit: .pixels, summary: "One corner of the middle part."),
            .parameter("breakpoint1", \.breakpoint1, unit: .pixels, summary: "The opposite corner of the middle part."),
            .parameter("growAmount", \.growAmount, unit: .pixels, summary: "How much wider and taller the result is."),
            .parameter("flipYTiles", \.flipYTiles, summary: "Mirror every other vertical repetition."))

        public var image: Image = .empty
        public var breakpoint0 = Point(x: 50, y: 50)
        public var breakpoint1 = Point(x: 150, y: 150)
        public var growAmount: SIMD2<Double> = [100, 100]
        public var flipYTiles = true

        public init() {}

        public var outputImage: Image {
            let e = image.extent
            let x = NinePartAxis(breakpoint0.x, breakpoint1.x, lo: e.minX, hi: e.maxX, grow: growAmount.x, tiled: true)
            let y = NinePartAxis(
                breakpoint0.y, breakpoint1.y, lo: e.minY, hi: e.maxY, grow: growAmount.y, tiled: true,
                mirrored: flipYTiles)
            return NinePart.apply(image, x: x, y: y, name: "ninePartTiled", arguments: "\(x) \(y)")
        }
    }
}

extension Image {
    /// The image grown by repeating its middle (see ``Filters/NinePartTiled``).
    public func ninePartTiled(
        breakpoint0: Point, breakpoint1: Point, growAmount: SIMD2<Double>, flipYTiles: Bool = true
    ) -> Image {
        applyingFilter(
            Filters.NinePartTiled {
                $0.breakpoint0 = breakpoint0
                $0.breakpoint1 = breakpoint1
                $0.growAmount = growAmount
                $0.flipYTiles = flipYTiles
            })
    }
}
