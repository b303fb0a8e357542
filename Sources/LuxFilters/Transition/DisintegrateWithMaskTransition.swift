public import LuxPixels
public import LuxRender

extension Filters {
    /// Reveals the target where the mask is darker than `time`: the picture disintegrates in the order of the mask's
    /// grey levels, black first, casting a shadow on the target.
    ///
    /// A pixel shows the target once its mask luma (straight, working space, clamped to 0…1) is below `time`, and
    /// every pixel shows it at time 1. The part of the picture still standing casts a soft shadow: its coverage (1
    /// where the picture shows, 0 where the target does) blurred by a Gaussian of standard deviation `shadowRadius`
    /// and moved by `shadowOffset` (Lux's y-down coordinates; Core Image's `(0, −10)` points the same way as Lux's
    /// `(0, 10)`, which ``CoreImageCoordinates`` converts) multiplies the target's colour by
    /// `1 − shadowDensity·coverage`. Across a straight edge at `e` the shadow is thus
    /// `shadowDensity·Φ((x − offset − e)/shadowRadius)`, `Φ` the normal distribution. The extent is the union of the
    /// two images.
    public struct DisintegrateWithMaskTransition: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "DisintegrateWithMaskTransition", categories: [.transition, .stillImage, .video, .highDynamicRange],
            summary: "Reveals the target in the order of a mask's grey levels.",
            .image(\.image, summary: "Shown at time 0."), .image(\.target, "targetImage", summary: "Shown at time 1."),
            .image(\.mask, "mask", summary: "The order: dark pixels change first."),
            .parameter("time", \.time, slider: 0...1, allowed: 0...1, unit: .fraction, summary: "The progress."),
            .parameter(
                "shadowRadius", \.shadowRadius, slider: 0...50, allowed: 0...1000, unit: .pixels,
                summary: "The standard deviation of the shadow's blur."),
            .parameter(
                "shadowDensity", \.shadowDensity, slider: 0...1, allowed: 0...1, unit: .fraction,
                summary: "The darkness of the shadow."),
            .parameter(
                "shadowOffset", \.shadowOffset, geometry: .displacement, summary: "How far the shadow falls."))

        public var image: Image = .empty
        public var target: Image = .empty
        public var mask: Image = .empty
        public var time: Double = 0
        public var shadowRadius: Double = 8
        public var shadowDensity: Double = 0.65
        public var shadowOffset: Point = Point(x: 0, y: 10)

        public init() {}

        public var outputImage: Image {
            let t = Float(time)
            let standing = ColorKernel(name: "disintegrateStanding") { row in
                let m = row.pixels
                for i in 0..<row.count {
                    let covered: Float = Self.isRevealed(m.red[i], m.green[i], m.blue[i], m.alpha[i], time: t) ? 0 : 1
                    (m.red[i], m.green[i], m.blue[i], m.alpha[i]) = (0, 0, 0, covered)
                }
            }
            var shaded = target
            if shadowDensity > 0, time > 0 {
                let coverage = standing.apply(extent: mask.extent, inputs: [mask], arguments: "time=\(time)")
                    .gaussianBlur(radius: shadowRadius).translatedBy(x: shadowOffset.x, y: shadowOffset.y)
                let density = Float(shadowDensity)
                let darken = ColorKernel(name: "disintegrateShadow", inputCount: 2) { row in
                    let p = row.pixels
                    let shadow = row.input(1).alpha
                    for i in 0..<row.count {
                        let k = 1 - density * shadow[i]
                        p.red[i] *= k
                        p.green[i] *= k
                        p.blue[i] *= k
                    }
                }
                shaded = darken.apply(
                    extent: target.extent, inputs: [target, coverage], arguments: "density=\(shadowDensity)")
            }
            return TransitionMix.apply(
                image, target: shaded, inputs: [mask], name: "disintegrateWithMask", arguments: "time=\(time)"
            ) { row, k in
                let m = row.input(2)
                for i in 0..<row.count {
                    k[i] = Self.isRevealed(m.red[i], m.green[i], m.blue[i], m.alpha[i], time: t) ? 1 : 0
                }
            }
        }

        /// Whether a pixel whose mask is the premultiplied `(r, g, b, a)` shows the target at time `t`.
        @inline(__always)
        static func isRevealed(_ r: Float, _ g: Float, _ b: Float, _ a: Float, time t: Float) -> Bool {
            let luma = a > 0 ? (Luma.red * r + Luma.green * g + Luma.blue * b) / a : 0
            return t >= 1 || min(max(luma, 0), 1) < t
        }
    }
}
