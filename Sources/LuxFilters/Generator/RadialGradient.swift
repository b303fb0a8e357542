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
            let kernel = ColorKernel(name: "radialGradient", inputCount: 0) { row in
                // Premultiplied working-space colours.
                var c0 = row.color(0)
                var c1 = row.color(1)
                c0 = SIMD4(c0.x * c0.w, c0.y * c0.w, c0.z * c0.w, c0.w)
                c1 = SIMD4(c1.x * c1.w, c1.y * c1.w, c1.z * c1.w, c1.w)
                let d = c1 - c0
                let p = row.pixels
                let dy = Float(row.y) + 0.5 - cy
                let dy2 = dy * dy
                let x0 = Float(row.x) + 0.5 - cx
                for i in 0..<row.count {
                    let dx = x0 + Float(i)
                    let dist = (dx * dx + dy2).squareRoot()
                    let u = hard ? (dist < r0 ? 0 : 1) : (dist - r0) * inv
                    let t = min(max(u, 0), 1)
                    p.red[i] = c0.x + d.x * t
                    p.green[i] = c0.y + d.y * t
                    p.blue[i] = c0.z + d.z * t
                    p.alpha[i] = c0.w + d.w * t
                }
            }
            return kernel.apply(
                extent: .infinite, inputs: [], arguments: "center=\(center.x),\(center.y) r0=\(radius0) r1=\(radius1)",
                colors: [color0, color1])
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
