public import LuxPixels
public import LuxRender
import RealModule

extension Filters {
    /// A star: a bright core with a cross of rays, as a lens flare or a supernova.
    ///
    /// Core Image gives no formula; Lux's is this. At distance `r` from `center`, the core's intensity is
    /// `ε / (ε + (r / radius)²)` with `ε = e^epsilon` (1 at the centre, falling off as `1/r²`). Each of the two rays,
    /// along `crossAngle` and at right angles to it, adds `e^crossOpacity · exp(−(b / crossWidth)²) ·
    /// exp(−|a| / (crossScale·radius))`, where `a` and `b` are the distances along and across it. The output is
    /// `color` times the total intensity, premultiplied, with alpha `min(intensity, 1)`: composite it with
    /// ``AdditionCompositing`` to add the light. The picture is invariant under quarter turns about `center` and
    /// under the mirrors along the rays. The extent is infinite.
    public struct StarShineGenerator: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "StarShineGenerator", categories: [.generator, .stillImage, .video, .highDynamicRange],
            summary: "Generates a star with a cross of rays.",
            .parameter("center", \.center, summary: "The centre of the star."),
            .parameter("color", \.color, summary: "The colour of the light."),
            .parameter(
                "radius", \.radius, slider: 0...300, allowed: 0...1e6, unit: .pixels,
                summary: "The radius at which the core falls to half."),
            .parameter(
                "crossScale", \.crossScale, slider: 0...100, allowed: 0...1e4,
                summary: "The length of the rays, in radii."),
            .parameter(
                "crossAngle", \.crossAngle, slider: -Double.pi...Double.pi, allowed: -1e4...1e4, unit: .radians,
                summary: "The direction of the first ray."),
            .parameter(
                "crossOpacity", \.crossOpacity, slider: -8...0, allowed: -100...10,
                summary: "The natural logarithm of the rays' brightness."),
            .parameter(
                "crossWidth", \.crossWidth, slider: 0...300, allowed: 0...1e6, unit: .pixels,
                summary: "The width of the rays."),
            .parameter(
                "epsilon", \.epsilon, slider: -8...0, allowed: -100...10,
                summary: "The natural logarithm of the core's softness."))

        public var center: Point = Point(x: 150, y: 150)
        public var color: Color = Color(red: 1, green: 0.8, blue: 0.6)
        public var radius: Double = 50
        public var crossScale: Double = 15
        public var crossAngle: Double = 0.6
        public var crossOpacity: Double = -2
        public var crossWidth: Double = 2.5
        public var epsilon: Double = -2

        public init() {}

        public var outputImage: Image {
            let cx = Float(center.x)
            let cy = Float(center.y)
            let inverseRadius = 1 / Float(max(radius, 0.01))
            let eps = Float(Double.exp(epsilon))
            let rayGain = Float(Double.exp(crossOpacity))
            let inverseWidth = 1 / Float(max(crossWidth, 1e-3))
            let inverseLength = 1 / Float(max(crossScale * radius, 1e-3))
            let c = Float(Double.cos(crossAngle))
            let s = Float(Double.sin(crossAngle))
            let kernel = ColorKernel(name: "starShine", inputCount: 0) { row in
                let dy = Float(row.y) + 0.5 - cy
                let intensity = row.pixels.red
                for i in 0..<row.count {
                    let dx = Float(row.x + i) + 0.5 - cx
                    let q = (dx * dx + dy * dy) * inverseRadius * inverseRadius
                    // Along and across the first ray; the second swaps them.
                    let a = c * dx + s * dy
                    let b = -s * dx + c * dy
                    let ray0 = Float.exp(-(b * inverseWidth) * (b * inverseWidth) - abs(a) * inverseLength)
                    let ray1 = Float.exp(-(a * inverseWidth) * (a * inverseWidth) - abs(b) * inverseLength)
                    intensity[i] = eps / (eps + q) + rayGain * (ray0 + ray1)
                }
                Flare.fillLight(row)
            }
            return kernel.apply(
                extent: .infinite, inputs: [],
                arguments:
                    "center=\(center) radius=\(radius) crossScale=\(crossScale) crossAngle=\(crossAngle) "
                    + "crossOpacity=\(crossOpacity) crossWidth=\(crossWidth) epsilon=\(epsilon)",
                colors: [color])
        }
    }
}
