public import LuxPixels
public import LuxRender
import RealModule

extension Filters {
    /// A halo, as a lens makes around a bright light: a striated ring whose colours separate, red outermost.
    ///
    /// Core Image gives no formula; Lux's is this. Each colour channel is a ring of profile
    /// `max(0, 1 − ((r − Rₖ) / (haloWidth / 2))²)` at distance `r` from `center`, with the green ring at
    /// `Rg = haloRadius`, the red one `(1 − haloOverlap)·haloWidth / 2` farther out and the blue one as much nearer
    /// in (an overlap of 1 makes one white ring). The rings are striated as ``SunbeamsGenerator``'s beams: times
    /// `(1 − striationStrength) + striationStrength·s(φ)`, `s` the same pattern of the polar angle and `time`. The
    /// output is `color` times each channel's intensity, premultiplied, with alpha `min(largest intensity, 1)`. The
    /// extent is infinite.
    public struct LenticularHaloGenerator: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "LenticularHaloGenerator", categories: [.generator, .stillImage, .video, .highDynamicRange],
            summary: "Generates a lens halo.", .parameter("center", \.center, summary: "The centre of the halo."),
            .parameter("color", \.color, summary: "The colour of the light."),
            .parameter(
                "haloRadius", \.haloRadius, slider: 0...1000, allowed: 0...1e6, unit: .pixels,
                summary: "The radius of the halo's middle (green) ring."),
            .parameter(
                "haloWidth", \.haloWidth, slider: 0...300, allowed: 0...1e6, unit: .pixels,
                summary: "The width of each ring."),
            .parameter(
                "haloOverlap", \.haloOverlap, slider: 0...1, allowed: 0...1,
                summary: "How much the red, green and blue rings overlap."),
            .parameter(
                "striationStrength", \.striationStrength, slider: 0...1, allowed: 0...1,
                summary: "How much the halo varies in brightness around the ring."),
            .parameter(
                "striationContrast", \.striationContrast, slider: 0...5, allowed: 0...100,
                summary: "How sharp the striations are."),
            .parameter("time", \.time, slider: 0...1, allowed: -1e6...1e6, summary: "The phase of the striations."))

        public var center: Point = Point(x: 150, y: 150)
        public var color: Color = Color(red: 1, green: 0.9, blue: 0.8)
        public var haloRadius: Double = 70
        public var haloWidth: Double = 87
        public var haloOverlap: Double = 0.77
        public var striationStrength: Double = 0.5
        public var striationContrast: Double = 1
        public var time: Double = 0

        public init() {}

        public var outputImage: Image {
            let cx = Float(center.x)
            let cy = Float(center.y)
            let inverseHalf = 2 / Float(max(haloWidth, 0.01))
            let green = Float(haloRadius)
            let spread = Float((1 - haloOverlap) * max(haloWidth, 0.01) / 2)
            let strength = Float(striationStrength)
            let contrast = Float(striationContrast)
            let t = Float(time)
            let kernel = ColorKernel(name: "lenticularHalo", inputCount: 0) { row in
                let c = row.color(0)
                let p = row.pixels
                let dy = Float(row.y) + 0.5 - cy
                for i in 0..<row.count {
                    let dx = Float(row.x + i) + 0.5 - cx
                    let r = (dx * dx + dy * dy).squareRoot()
                    let ur = (r - green - spread) * inverseHalf
                    let ug = (r - green) * inverseHalf
                    let ub = (r - green + spread) * inverseHalf
                    let rings = SIMD3<Float>(max(0, 1 - ur * ur), max(0, 1 - ug * ug), max(0, 1 - ub * ub))
                    let s =
                        rings.max() > 0 ? Flare.striation(Float.atan2(y: dy, x: dx), time: t, contrast: contrast) : 0
                    let intensity = rings * ((1 - strength) + strength * s) * c.w
                    p.red[i] = c.x * intensity.x
                    p.green[i] = c.y * intensity.y
                    p.blue[i] = c.z * intensity.z
                    p.alpha[i] = min(intensity.max(), 1)
                }
            }
            return kernel.apply(
                extent: .infinite, inputs: [],
                arguments:
                    "center=\(center) haloRadius=\(haloRadius) haloWidth=\(haloWidth) haloOverlap=\(haloOverlap) "
                    + "striationStrength=\(striationStrength) striationContrast=\(striationContrast) time=\(time)",
                colors: [color])
        }
    }
}
