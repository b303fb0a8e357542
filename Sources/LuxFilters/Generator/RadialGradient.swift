public import LuxPixels
public import LuxRender

extension Filters {
    /// A radial gradient from `color0` inside `radius0` to `color1` outside `radius1` (infinite extent).
    ///
    /// Colours are interpolated in the working space, premultiplied.
    public struct RadialGradient: Filter {
        public static let descriptor = FilterDescriptor(
            name: "RadialGradient", displayName: "Radial Gradient",
            categories: [.generator, .gradient, .stillImage, .video, .highDynamicRange],
            summary: "Blends two colours between two circles.",
            parameters: [
                FilterParameter(
                    "center", kind: .point, default: [150, 150], unit: .pixels, summary: "The centre of both circles."),
                .number(
                    "radius0", default: 5, slider: 0...800, allowed: 0...1e9, unit: .pixels,
                    summary: "Inside this radius: color0."),
                .number(
                    "radius1", default: 100, slider: 0...800, allowed: 0...1e9, unit: .pixels,
                    summary: "Outside this radius: color1."),
                FilterParameter("color0", kind: .color, default: .color(.white), summary: "The inner colour."),
                FilterParameter("color1", kind: .color, default: .color(.black), summary: "The outer colour."),
            ])

        public var center: Point
        public var radius0: Double
        public var radius1: Double
        public var color0: Color
        public var color1: Color

        public init(
            center: Point = Point(x: 150, y: 150), radius0: Double = 5, radius1: Double = 100, color0: Color = .white,
            color1: Color = .black
        ) {
            self.center = center
            self.radius0 = radius0
            self.radius1 = radius1
            self.color0 = color0
            self.color1 = color1
        }

        public init(arguments a: FilterArguments) {
            self.init(
                center: a.point("center"), radius0: a.number("radius0"), radius1: a.number("radius1"),
                color0: a.color("color0"), color1: a.color("color1"))
        }

        public var outputImage: Image {
            let cx = Float(center.x)
            let cy = Float(center.y)
            let r0 = Float(radius0)
            let span = Float(radius1 - radius0)
            let inv = span != 0 ? 1 / span : 0
            let hard = span == 0
            return twoColorGenerator(
                "radialGradient", arguments: "center=\(center.x),\(center.y) r0=\(radius0) r1=\(radius1)",
                colors: [color0, color1]
            ) { row, t in
                let dy = Float(row.y) + 0.5 - cy
                let dy2 = dy * dy
                let x0 = Float(row.x) + 0.5 - cx
                for i in 0..<row.count {
                    let dx = x0 + Float(i)
                    let dist = (dx * dx + dy2).squareRoot()
                    let u = hard ? (dist < r0 ? 0 : 1) : (dist - r0) * inv
                    t[i] = min(max(u, 0), 1)
                }
            }
        }
    }
}

extension Image {
    /// A radial gradient (see ``Filters/RadialGradient``).
    public static func radialGradient(
        center: Point, radius0: Double, radius1: Double, color0: Color = .white, color1: Color = .black
    ) -> Image {
        Filters.RadialGradient(center: center, radius0: radius0, radius1: radius1, color0: color0, color1: color1)
            .outputImage
    }
}
