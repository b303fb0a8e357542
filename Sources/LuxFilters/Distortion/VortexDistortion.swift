public import LuxPixels
public import LuxRender
import RealModule

extension Filters {
    /// Spins pixels around `center` in a whirlpool: many turns at the centre, none from `radius` on.
    ///
    /// A pixel at distance `r < radius` reads the source rotated by `−angle·(1 − r/radius)⁴` about the centre (the
    /// steeper fall-off than ``TwirlDistortion``'s packs the turns near the centre). `angle` is in radians; Core
    /// Image's default, 56.55, is nine turns. The extent is the input's.
    public struct VortexDistortion: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "VortexDistortion", categories: [.distortionEffect, .stillImage, .video, .highDynamicRange],
            summary: "Spins pixels around a point like a whirlpool.", .image(\.image),
            .parameter("center", \.center, summary: "The centre of the vortex."),
            .parameter(
                "radius", \.radius, slider: 0...800, allowed: 0...1e6, unit: .pixels,
                summary: "The distance from the centre at which the vortex stops."),
            .parameter(
                "angle", \.angle, slider: -94.25...94.25, allowed: -1e4...1e4, unit: .radians,
                summary: "The rotation at the centre."))

        public var image: Image = .empty
        public var center: Point = Point(x: 150, y: 150)
        public var radius: Double = 300
        public var angle: Double = 56.55

        public init() {}

        public var outputImage: Image {
            let r0 = Float(max(radius, 1e-6))
            let a = Float(angle)
            return RadialWarp.apply(
                image, name: "vortex", arguments: "center=\(center) radius=\(radius) angle=\(angle)", center: center,
                radius: radius, reach: .disc
            ) { dx, dy in
                let r = (dx * dx + dy * dy).squareRoot()
                guard r < r0 else { return (dx, dy) }
                let t = 1 - r / r0
                let t2 = t * t
                let theta = -a * t2 * t2
                let c = Float.cos(theta)
                let s = Float.sin(theta)
                return (c * dx - s * dy, s * dx + c * dy)
            }
        }
    }
}

extension Image {
    /// The image spun into a vortex around `center` (see ``Filters/VortexDistortion``).
    public func vortexDistortion(center: Point, radius: Double = 300, angle: Double = 56.55) -> Image {
        applyingFilter(
            Filters.VortexDistortion {
                $0.center = center
                $0.radius = radius
                $0.angle = angle
            })
    }
}
