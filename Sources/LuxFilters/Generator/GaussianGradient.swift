import LuxColor
public import LuxPixels
public import LuxRender

extension Filters {
    /// A round gradient with a Gaussian profile: `color0` at `center`, blending to `color1` as `t = 1 − exp(−d²/(2σ²))`
    /// with `σ = radius/3` (so `color1` is reached, to 1 %, at `radius`).
    ///
    /// Infinite extent.
    public struct GaussianGradient: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "GaussianGradient", categories: [.generator, .gradient, .stillImage, .video, .highDynamicRange],
            summary: "A round gradient with a Gaussian falloff.",
            .parameter("center", \.center, summary: "The centre."),
            .parameter("color0", \.color0, summary: "The colour at the centre."),
            .parameter("color1", \.color1, summary: "The colour far away."),
            .parameter(
                "radius", \.radius, slider: 0...800, allowed: 0...1e7, unit: .pixels,
                summary: "Where the falloff ends (three standard deviations)."))

        public var center: Point = Point(x: 150, y: 150)
        public var color0: Color = .white
        public var color1: Color = .clear
        public var radius: Double = 300

        public init() {}

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
        Filters.GaussianGradient {
            $0.center = center
            $0.color0 = color0
            $0.color1 = color1
            $0.radius = radius
        }.outputImage
    }
}
