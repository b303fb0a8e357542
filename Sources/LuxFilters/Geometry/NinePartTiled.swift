public import LuxPixels
public import LuxRender

extension Filters {
    /// Resizes an image like ``NinePartStretched`` but repeats the middle rows and columns instead of stretching them
    /// (a pattern keeps its scale); with `flipYTiles` every other vertical repetition is mirrored so the tiles join
    /// seamlessly.
    ///
    /// The extent grows by `growAmount`.
    public struct NinePartTiled: Filter {
        public static let descriptor = FilterDescriptor(
            name: "NinePartTiled", displayName: "Nine Part Tiled",
            categories: [.distortionEffect, .geometryAdjustment, .stillImage, .video, .highDynamicRange],
            summary: "Grows an image by repeating its middle, keeping corners and edges.",
            parameters: NinePart.parameters + [
                .boolean("flipYTiles", default: true, summary: "Mirror every other vertical repetition.")
            ])

        public var image: Image
        public var breakpoint0: Point
        public var breakpoint1: Point
        public var growAmount: SIMD2<Double>
        public var flipYTiles: Bool

        public init(
            image: Image, breakpoint0: Point = Point(x: 50, y: 50), breakpoint1: Point = Point(x: 150, y: 150),
            growAmount: SIMD2<Double> = [100, 100], flipYTiles: Bool = true
        ) {
            self.image = image
            self.breakpoint0 = breakpoint0
            self.breakpoint1 = breakpoint1
            self.growAmount = growAmount
            self.flipYTiles = flipYTiles
        }

        public init(arguments a: FilterArguments) {
            self.init(
                image: a.image(), breakpoint0: a.point("breakpoint0"), breakpoint1: a.point("breakpoint1"),
                growAmount: a.vector2("growAmount"), flipYTiles: a.boolean("flipYTiles"))
        }

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
        Filters.NinePartTiled(
            image: self, breakpoint0: breakpoint0, breakpoint1: breakpoint1, growAmount: growAmount,
            flipYTiles: flipYTiles
        ).outputImage
    }
}
