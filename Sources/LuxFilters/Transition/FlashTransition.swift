public import LuxPixels
public import LuxRender
import RealModule

extension Filters {
    /// A flash of light from `center` swells over the image, and the target appears as it fades.
    ///
    /// Core Image gives no formula; Lux's is this. The flash's strength is `b = 4·time·(1 − time)` (0 at both ends,
    /// 1 half-way) and its light at each pixel is ``SunbeamsGenerator``'s intensity for a sun of radius `b·D / 2`
    /// (`D` the diagonal of `extent`) with `maxStriationRadius`, `striationStrength`, `striationContrast` and time
    /// `time`, times `b`. Under it the image cross-fades to the target with
    /// `k = clamp((time − fadeThreshold·½) / (1 − fadeThreshold), 0, 1)`, hidden by the flash at its brightest. The light
    /// adds `color·light` (alpha as the generator's). Time 0 is the image and time 1 the target exactly. The extent
    /// is the union of the two images.
    public struct FlashTransition: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "FlashTransition", categories: [.transition, .stillImage, .video, .highDynamicRange],
            summary: "Changes to the target under a flash of light.", .image(\.image, summary: "Shown at time 0."),
            .image(\.target, "targetImage", summary: "Shown at time 1."),
            .parameter("center", \.center, summary: "The centre of the flash."),
            .parameter("extent", \.extent, summary: "The rectangle whose diagonal sizes the flash."),
            .parameter("color", \.color, summary: "The colour of the flash."),
            .parameter("time", \.time, slider: 0...1, allowed: 0...1, unit: .fraction, summary: "The progress."),
            .parameter(
                "maxStriationRadius", \.maxStriationRadius, slider: 1...10, allowed: 1...1e3,
                summary: "How far the flash's beams reach, in radii."),
            .parameter(
                "striationStrength", \.striationStrength, slider: 0...1, allowed: 0...1,
                summary: "How much the beams vary in brightness."),
            .parameter(
                "striationContrast", \.striationContrast, slider: 0...5, allowed: 0...100,
                summary: "How sharp the beams are."),
            .parameter(
                "fadeThreshold", \.fadeThreshold, slider: 0...1, allowed: 0...1, unit: .fraction,
                summary: "How late in the flash the cross-fade runs."))

        public var image: Image = .empty
        public var target: Image = .empty
        public var center: Point = Point(x: 150, y: 150)
        public var extent: Rect = Rect(x: 0, y: 0, width: 300, height: 300)
        public var color: Color = Color(red: 1, green: 0.8, blue: 0.6)
        public var time: Double = 0
        public var maxStriationRadius: Double = 2.58
        public var striationStrength: Double = 0.5
        public var striationContrast: Double = 1.38
        public var fadeThreshold: Double = 0.85

        public init() {}

        public var outputImage: Image {
            let b = Float(4 * time * (1 - time))
            let cross = Float(min(max((time - fadeThreshold / 2) / max(1 - fadeThreshold, 1e-6), 0), 1))
            let cx = Float(center.x)
            let cy = Float(center.y)
            let e = extent.isInfinite ? Rect(x: 0, y: 0, width: 1000, height: 1000) : extent
            let sun = max(b * Float((e.width * e.width + e.height * e.height).squareRoot() / 2), 1e-3)
            let reach = sun * Float(max(maxStriationRadius - 1, 1e-6))
            let strength = Float(striationStrength)
            let contrast = Float(striationContrast)
            let t = Float(time)
            return TransitionMix.applyLit(
                image, target: target, color: color, name: "flash",
                arguments:
                    "center=\(center) extent=\(extent) time=\(time) maxStriationRadius=\(maxStriationRadius) "
                    + "striationStrength=\(striationStrength) striationContrast=\(striationContrast) "
                    + "fadeThreshold=\(fadeThreshold)"
            ) { row, k, light in
                let dy = Float(row.y) + 0.5 - cy
                for i in 0..<row.count {
                    k[i] = cross
                    guard b > 0 else {
                        light[i] = 0
                        continue
                    }
                    let dx = Float(row.x + i) + 0.5 - cx
                    let r = (dx * dx + dy * dy).squareRoot()
                    guard r > sun else {
                        light[i] = b
                        continue
                    }
                    let envelope = (sun / r) * (sun / r) * max(0, 1 - (r - sun) / reach)
                    let s = Flare.striation(Float.atan2(y: dy, x: dx), time: t, contrast: contrast)
                    light[i] = b * envelope * ((1 - strength) + strength * s)
                }
            }
        }
    }
}
