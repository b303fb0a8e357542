public import LuxPixels
public import LuxRender
import RealModule

extension Filters {
    /// Rotates pixels around `center`, most at the centre and not at all from `radius` on.
    ///
    /// A pixel at distance `r < radius` from the centre reads the source rotated by `−angle·(1 − r/radius)²` about
    /// the centre (a positive angle turns the picture clockwise on screen, in Lux's y-down coordinates); the
    /// squared fall-off makes the twist meet the unchanged outside smoothly. The extent is the input's.
    public struct TwirlDistortion: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "TwirlDistortion", categories: [.distortionEffect, .stillImage, .video, .highDynamicRange],
            summary: "Rotates pixels around a point, most at the centre.", .image(\.image),
            .parameter("center", \.center, summary: "The centre of the twirl."),
            .parameter(
                "radius", \.radius, slider: 0...500, allowed: 0...1e6, unit: .pixels,
                summary: "The distance from the centre at which the twirl stops."),
            .parameter(
                "angle", \.angle, slider: -4 * Double.pi...4 * Double.pi, allowed: -1e4...1e4, unit: .radians,
                summary: "The rotation at the centre."))

        public var image: Image = .empty
        public var center: Point = Point(x: 150, y: 150)
        public var radius: Double = 300
        public var angle: Double = .pi

        public init() {}

        public var outputImage: Image {
            let r0 = Float(max(radius, 1e-6))
            let a = Float(angle)
            return RadialWarp.apply(
                image, name: "twirl", arguments: "center=\(center) radius=\(radius) angle=\(angle)", center: center,
                radius: radius, reach: .disc
            ) { dx, dy in
                let r = (dx * dx + dy * dy).squareRoot()
                guard r < r0 else { return (dx, dy) }
                let t = 1 - r / r0
                let theta = -a * t * t
                let c = Float.cos(theta)
                let s = Float.sin(theta)
                return (c * dx - s * dy, s * dx + c * dy)
            }
        }
    }
}

extension Image {
    /// The image twirled around `center` (see ``Filters/TwirlDistortion``).
    public func twirlDistortion(center: Point, radius: Double = 300, angle: Double = .pi) -> Image {
        applyingFilter(
            Filters.TwirlDistortion {
                $0.center = center
                $0.radius = radius
                $0.angle = angle
            })
    }
}
