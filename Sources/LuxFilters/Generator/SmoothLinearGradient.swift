public import LuxPixels
public import LuxRender

extension Filters {
    /// Like ``LinearGradient`` but eased with a smooth step (`3t² − 2t³`), so the blend starts and ends gently.
    public struct SmoothLinearGradient: Filter {
        public static let descriptor = FilterDescriptor(
            name: "SmoothLinearGradient", displayName: "Smooth Linear Gradient",
            categories: [.generator, .gradient, .stillImage, .video, .highDynamicRange],
            summary: "Blends two colours along a line with an S-shaped ramp.", parameters: LinearRamp.parameters)

        public var point0: Point
        public var point1: Point
        public var color0: Color
        public var color1: Color

        public init(
            point0: Point = Point(x: 0, y: 0), point1: Point = Point(x: 200, y: 200), color0: Color = .white,
            color1: Color = .black
        ) {
            self.point0 = point0
            self.point1 = point1
            self.color0 = color0
            self.color1 = color1
        }

        public init(arguments a: FilterArguments) {
            self.init(point0: a.point("point0"), point1: a.point("point1"), color0: a.color("color0"), color1: a.color("color1"))
        }

        public var outputImage: Image {
            LinearRamp.image("smoothLinearGradient", point0, point1, [color0, color1], smooth: true)
        }
    }
}

extension Image {
    /// A smooth linear gradient (see ``Filters/SmoothLinearGradient``).
    public static func smoothLinearGradient(from point0: Point, _ color0: Color, to point1: Point, _ color1: Color)
        -> Image
    {
        Filters.SmoothLinearGradient(point0: point0, point1: point1, color0: color0, color1: color1).outputImage
    }
}
