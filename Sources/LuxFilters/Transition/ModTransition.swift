public import LuxPixels
public import LuxRender
import RealModule

extension Filters {
    /// Reveals the target through irregular holes that open and grow until they cover the image.
    ///
    /// Core Image gives no formula; Lux's is this. With `a` and `b` a pixel's distances from `center` along the
    /// direction `angle` and across it, `u = a / radius` and `v = b / compression`, the pattern
    /// `q = ½ + ¼·sin(2π·u + sin(2π·v)) + ¼·sin(2π·v)` (0…1) decides when each pixel opens: it shows
    /// `image + (target − image)·k` with `k = clamp((time·(1 + s) − q) / s, 0, 1)` and `s = 0.05` the softness of
    /// the holes' rims. A pixel that is target at one time stays target later, time 0 is the image and time 1 the
    /// target. The extent is the union of the two images.
    public struct ModTransition: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "ModTransition", categories: [.transition, .stillImage, .video, .highDynamicRange],
            summary: "Reveals the target through irregular holes.", .image(\.image, summary: "Shown at time 0."),
            .image(\.target, "targetImage", summary: "Shown at time 1."),
            .parameter("center", \.center, summary: "The centre of the pattern of holes."),
            .parameter("time", \.time, slider: 0...1, allowed: 0...1, unit: .fraction, summary: "The progress."),
            .parameter(
                "angle", \.angle, slider: -Double.pi...Double.pi, allowed: -1e4...1e4, unit: .radians,
                summary: "The direction of the pattern."),
            .parameter(
                "radius", \.radius, slider: 1...200, allowed: 0.01...1e6, unit: .pixels,
                summary: "The period of the pattern along angle."),
            .parameter(
                "compression", \.compression, slider: 1...800, allowed: 0.01...1e6, unit: .pixels,
                summary: "The period of the pattern across angle."))

        public var image: Image = .empty
        public var target: Image = .empty
        public var center: Point = Point(x: 150, y: 150)
        public var time: Double = 0
        public var angle: Double = 2
        public var radius: Double = 150
        public var compression: Double = 300

        /// The softness of the holes' rims, in units of the pattern.
        static let softness: Float = 0.05

        public init() {}

        public var outputImage: Image {
            let cx = Float(center.x)
            let cy = Float(center.y)
            let c = Float(Double.cos(angle))
            let s = Float(Double.sin(angle))
            let inverseRadius = 1 / Float(max(radius, 0.01))
            let inverseCompression = 1 / Float(max(compression, 0.01))
            let reach = Float(time) * (1 + Self.softness)
            let twoPi = 2 * Float.pi
            return TransitionMix.apply(
                image, target: target, name: "mod",
                arguments: "center=\(center) time=\(time) angle=\(angle) radius=\(radius) compression=\(compression)"
            ) { row, k in
                let dy = Float(row.y) + 0.5 - cy
                for i in 0..<row.count {
                    let dx = Float(row.x + i) + 0.5 - cx
                    let u = (c * dx + s * dy) * inverseRadius
                    let v = (-s * dx + c * dy) * inverseCompression
                    let q = 0.5 + 0.25 * Float.sin(twoPi * u + Float.sin(twoPi * v)) + 0.25 * Float.sin(twoPi * v)
                    k[i] = min(max((reach - q) / Self.softness, 0), 1)
                }
            }
        }
    }
}
