public import LuxPixels
public import LuxRender

extension Filters {
    /// Resizes an image like a stretchable button: the rows and columns between the two breakpoints are stretched so
    /// the result is `growAmount` wider and taller, while the corners and edges outside them keep their size.
    ///
    /// The extent grows by `growAmount` (from the same origin).
    public struct NinePartStretched: Filter {
        public static let descriptor = FilterDescriptor(
            name: "NinePartStretched", displayName: "Nine Part Stretched",
            categories: [.distortionEffect, .geometryAdjustment, .stillImage, .video, .highDynamicRange],
            summary: "Grows an image by stretching its middle, keeping corners and edges.",
            parameters: NinePart.parameters)

        public var image: Image
        public var breakpoint0: Point
        public var breakpoint1: Point
        public var growAmount: SIMD2<Double>

        public init(
            image: Image, breakpoint0: Point = Point(x: 50, y: 50), breakpoint1: Point = Point(x: 150, y: 150),
            growAmount: SIMD2<Double> = [100, 100]
        ) {
            self.image = image
            self.breakpoint0 = breakpoint0
            self.breakpoint1 = breakpoint1
            self.growAmount = growAmount
        }

        public init(arguments a: FilterArguments) {
            self.init(
                image: a.image(), breakpoint0: a.point("breakpoint0"), breakpoint1: a.point("breakpoint1"),
                growAmount: a.vector2("growAmount"))
        }

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
        Filters.NinePartStretched(
            image: self, breakpoint0: breakpoint0, breakpoint1: breakpoint1, growAmount: growAmount
        )
        .outputImage
    }
}
