public import LuxPixels
public import LuxRender

extension Filters {
    /// A radial gradient from `color0` inside `radius0` to `color1` outside `radius1` (infinite extent).
    ///
    /// Colours are interpolated in the working space, premultiplied.
    public struct RadialGradient: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "RadialGradient", categories: [.generator, .gradient, .stillImage, .video, .highDynamicRange],
            summary: "Blends two colours between two circles.",
            .parameter("center", \.center, unit: .pixels, summary: "The centre of both circles."),
            .parameter(
                "radius0", \.radius0, slider: 0...800, allowed: 0...1e9, unit: .pixels,
                summary: "Inside this radius: color0."),
            .parameter(
                "radius1", \.radius1, slider: 0...800, allowed: 0...1e9, unit: .pixels,
                summary: "Outside this radius: color1."), .parameter("color0", \.color0, summary: "The inner colour."),
            .parameter("color1", \.color1, summary: "The outer colour."))

        public var center: Point = Point(x: 150, y: 150)
        public var radius0: Double = 5
        public var radius1: Double = 100
        public var color0: Color = .white
        public var color1: Color = .black

        public init() {}

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
        Filters.RadialGradient {
            $0.center = center
            $0.radius0 = radius0
            $0.radius1 = radius1
            $0.color0 = color0
            $0.color1 = color1
        }.outputImage
    }
}
