public import LuxPixels
public import LuxRender
import RealModule

extension Filters {
    /// A sun: a bright disc with beams of varying brightness streaming out of it.
    ///
    /// Core Image gives no formula; Lux's is this. Inside `sunRadius` of `center` the intensity is 1. Outside, at
    /// distance `r` and polar angle `φ`, it is `envelope·((1 − striationStrength) + striationStrength·s(φ))`, where
    /// the beams fade as `envelope = (sunRadius / r)² · max(0, 1 − (r − sunRadius)/(sunRadius·(maxStriationRadius −
    /// 1)))` (nothing beyond `maxStriationRadius` radii) and `s` is the striation pattern
    /// `(½ + ½·mean(cos(mₖ·φ + pₖ + 2π·vₖ·time)))^striationContrast`, with frequencies `mₖ` 7, 11, 17, 23, phases
    /// `pₖ` 0.3, 1.9, 4.1, 2.6 and drifts `vₖ` 1, −1.3, 0.7, −0.5 turns per unit of `time` (so animating `time`
    /// turns the beams). The output is `color` times the intensity, premultiplied, with alpha `min(intensity, 1)`.
    /// The extent is infinite.
    public struct SunbeamsGenerator: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "SunbeamsGenerator", categories: [.generator, .stillImage, .video, .highDynamicRange],
            summary: "Generates a sun with beams.", .parameter("center", \.center, summary: "The centre of the sun."),
            .parameter("color", \.color, summary: "The colour of the light."),
            .parameter(
                "sunRadius", \.sunRadius, slider: 0...800, allowed: 0...1e6, unit: .pixels,
                summary: "The radius of the sun's disc."),
            .parameter(
                "maxStriationRadius", \.maxStriationRadius, slider: 1...10, allowed: 1...1e3,
                summary: "How far the beams reach, in sun radii."),
            .parameter(
                "striationStrength", \.striationStrength, slider: 0...1, allowed: 0...1,
                summary: "How much the beams vary in brightness."),
            .parameter(
                "striationContrast", \.striationContrast, slider: 0...5, allowed: 0...100,
                summary: "How sharp the beams are."),
            .parameter("time", \.time, slider: 0...1, allowed: -1e6...1e6, summary: "The phase of the beams."))

        public var center: Point = Point(x: 150, y: 150)
        public var color: Color = Color(red: 1, green: 0.5, blue: 0)
        public var sunRadius: Double = 40
        public var maxStriationRadius: Double = 2.58
        public var striationStrength: Double = 0.5
        public var striationContrast: Double = 1.38
        public var time: Double = 0

        public init() {}

        public var outputImage: Image {
            let cx = Float(center.x)
            let cy = Float(center.y)
            let sun = Float(max(sunRadius, 0.01))
            let reach = sun * Float(max(maxStriationRadius - 1, 1e-6))
            let strength = Float(striationStrength)
            let contrast = Float(striationContrast)
            let t = Float(time)
            let kernel = ColorKernel(name: "sunbeams", inputCount: 0) { row in
                let dy = Float(row.y) + 0.5 - cy
                let intensity = row.pixels.red
                for i in 0..<row.count {
                    let dx = Float(row.x + i) + 0.5 - cx
                    let r = (dx * dx + dy * dy).squareRoot()
                    guard r > sun else {
                        intensity[i] = 1
                        continue
                    }
                    let envelope = (sun / r) * (sun / r) * max(0, 1 - (r - sun) / reach)
                    let s = Flare.striation(Float.atan2(y: dy, x: dx), time: t, contrast: contrast)
                    intensity[i] = envelope * ((1 - strength) + strength * s)
                }
                Flare.fillLight(row)
            }
            return kernel.apply(
                extent: .infinite, inputs: [],
                arguments:
                    "center=\(center) sunRadius=\(sunRadius) maxStriationRadius=\(maxStriationRadius) "
                    + "striationStrength=\(striationStrength) striationContrast=\(striationContrast) time=\(time)",
                colors: [color])
        }
    }
}
