public import LuxPixels
public import LuxRender
import RealModule

extension Filters {
    /// A spiral tunnel: the disc of `radius` is kept and its rim is swept outwards, turning as it goes.
    ///
    /// A pixel inside `radius` reads itself; a pixel at distance `r` outside reads the rim point at its own angle
    /// minus `rotation·(r − radius)/radius` (one `rotation` per radius travelled). The extent is the input's.
    public struct LightTunnel: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "LightTunnel", displayName: "Light Tunnel Distortion",
            categories: [.distortionEffect, .stillImage, .video, .highDynamicRange],
            summary: "Sweeps a circle's rim outwards in a spiral.", .image(\.image),
            .parameter("center", \.center, summary: "The centre of the tunnel."),
            .parameter(
                "rotation", \.rotation, slider: -2 * Double.pi...2 * Double.pi, allowed: -1e4...1e4, unit: .radians,
                summary: "The turn per radius of distance."),
            .parameter(
                "radius", \.radius, slider: 1...500, allowed: 0.01...1e6, unit: .pixels,
                summary: "The radius of the kept disc."))

        public var image: Image = .empty
        public var center: Point = Point(x: 150, y: 150)
        public var rotation: Double = 0
        public var radius: Double = 100

        public init() {}

        public var outputImage: Image {
            let r0 = Float(max(radius, 0.01))
            let turn = Float(rotation)
            return RadialWarp.apply(
                image, name: "lightTunnel", arguments: "center=\(center) rotation=\(rotation) radius=\(radius)",
                center: center, radius: radius, reach: .ontoCircle(twist: rotation)
            ) { dx, dy in
                let r = (dx * dx + dy * dy).squareRoot()
                guard r > r0 else { return (dx, dy) }
                let theta = Float.atan2(y: dy, x: dx) - turn * (r - r0) / r0
                return (r0 * Float.cos(theta), r0 * Float.sin(theta))
            }
        }
    }
}

extension Image {
    /// The image swept into a spiral tunnel around `center` (see ``Filters/LightTunnel``).
    public func lightTunnel(center: Point, rotation: Double = 0, radius: Double = 100) -> Image {
        applyingFilter(
            Filters.LightTunnel {
                $0.center = center
                $0.rotation = rotation
                $0.radius = radius
            })
    }
}
