import LuxColor
public import LuxPixels
public import LuxRender

extension Filters {
    /// A round gradient with a Gaussian profile: `color0` at `center`, blending to `color1` as `t = 1 − exp(−d²/(2σ²))`
    /// with `σ = radius/3` (so `color1` is reached, to 1 %, at `radius`).
    ///
    /// Infinite extent.
    public struct GaussianGradient: Filter {
        public static let descriptor = FilterDescriptor(
            name: "GaussianGradient", displayName: "Gaussian Gradient",
            categories: [.generator, .gradient, .stillImage, .video, .highDynamicRange],
            summary: "A round gradient with a Gaussian falloff.",
            parameters: [
                .point("center", default: [150, 150], summary: "The centre."),
                .color("color0", default: .white, summary: "The colour at the centre."),
                .color("color1", default: .clear, summary: "The colour far away."),
                .number(
                    "radius", default: 300, slider: 0...800, allowed: 0...1e7, unit: .pixels,
                    summary: "Where the falloff ends (three standard deviations)."),
            ])

        public var center: Point
        public var color0: Color
        public var color1: Color
        public var radius: Double

        public init(
            center: Point = Point(x: 150, y: 150), color0: Color = .white, color1: Color = .clear, radius: Double = 300
        ) {
            self.center = center
            self.color0 = color0
            self.color1 = color1
            self.radius = radius
        }

        public init(arguments a: FilterArguments) {
            self.init(
                center: a.point("center"), color0: a.color("color0"), color1: a.color("color1"),
                radius: a.number("radius"))
        }

        public var outputImage: Image {
            let cx = Float(center.x)
            let cy = Float(center.y)
            let sigma = radius / 3
            // exp(−d²/(2σ²)) = 2^(−d²·log2(e)/(2σ²)).
            let k = sigma > 0 ? Float(1.4426950408889634 / (2 * sigma * sigma)) : .infinity
            return twoColorGenerator(
                "gaussianGradient", arguments: "center=\(describe(center)) radius=\(radius)", colors: [color0, color1]
            ) { row, t in
                let dy = Float(row.y) + 0.5 - cy
                for i in 0..<row.count {
                    let dx = Float(row.x + i) + 0.5 - cx
                    let e = (dx * dx + dy * dy) * k
                    t[i] = 1 - fastExp2(-min(e, 126))
                }
            }
        }
    }
}

extension Image {
    /// A Gaussian gradient (see ``Filters/GaussianGradient``).
    public static func gaussianGradient(center: Point, radius: Double, color0: Color = .white, color1: Color = .clear)
        -> Image
    {
        Filters.GaussianGradient(center: center, color0: color0, color1: color1, radius: radius).outputImage
    }
}
