public import LuxPixels
public import LuxRender

extension Filters {
    /// A gradient along the line from `point0` (`color0`) to `point1` (`color1`), constant across it and beyond
    /// the ends; colours blend linearly (premultiplied, in the working space). Infinite extent.
    public struct LinearGradient: Filter {
        public static let descriptor = FilterDescriptor(
            name: "LinearGradient", displayName: "Linear Gradient",
            categories: [.generator, .gradient, .stillImage, .video, .highDynamicRange],
            summary: "Blends two colours along a line.", parameters: LinearRamp.parameters)

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
            LinearRamp.image("linearGradient", point0, point1, [color0, color1], smooth: false)
        }
    }
}

/// The shared body of ``Filters/LinearGradient`` and ``Filters/SmoothLinearGradient``.
enum LinearRamp {
    static let parameters: [FilterParameter] = [
        .point("point0", default: [0, 0], summary: "Where color0 is."),
        .point("point1", default: [200, 200], summary: "Where color1 is."),
        .color("color0", default: .white, summary: "The starting colour."),
        .color("color1", default: .black, summary: "The ending colour."),
    ]

    static func image(_ name: String, _ p0: Point, _ p1: Point, _ colors: [Color], smooth: Bool) -> Image {
        let dx = p1.x - p0.x
        let dy = p1.y - p0.y
        let len2 = dx * dx + dy * dy
        // t = ((x, y) − p0)·d / |d|²; a zero-length line gives a step at p0 along nothing: color1 everywhere.
        let kx = len2 > 0 ? Float(dx / len2) : 0
        let ky = len2 > 0 ? Float(dy / len2) : 0
        let x0 = Float(p0.x)
        let y0 = Float(p0.y)
        let degenerate = len2 == 0
        let args = "p0=\(describe(p0)) p1=\(describe(p1))"
        return twoColorGenerator(name, arguments: args, colors: colors) { row, t in
            let base = (Float(row.y) + 0.5 - y0) * ky
            for i in 0..<row.count {
                let u = degenerate ? 1 : clampFloat((Float(row.x + i) + 0.5 - x0) * kx + base, 0, 1)
                t[i] = smooth ? u * u * (3 - 2 * u) : u
            }
        }
    }
}

extension Image {
    /// A linear gradient (see ``Filters/LinearGradient``).
    public static func linearGradient(from point0: Point, _ color0: Color, to point1: Point, _ color1: Color) -> Image {
        Filters.LinearGradient(point0: point0, point1: point1, color0: color0, color1: color1).outputImage
    }
}
