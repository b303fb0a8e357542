public import LuxPixels
public import LuxRender

extension Filters {
    /// Keeps a disc of the image and splashes the colours of its rim outwards in streaks.
    ///
    /// A pixel inside `radius` reads itself; a pixel outside reads the rim point on its ray from `center`. The
    /// extent is the input's.
    public struct CircleSplashDistortion: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "CircleSplashDistortion", categories: [.distortionEffect, .stillImage, .video, .highDynamicRange],
            summary: "Streaks the colours of a circle's rim outwards.", .image(\.image),
            .parameter("center", \.center, summary: "The centre of the circle."),
            .parameter(
                "radius", \.radius, slider: 0...1000, allowed: 0...1e6, unit: .pixels,
                summary: "The circle's radius."))

        public var image: Image = .empty
        public var center: Point = Point(x: 150, y: 150)
        public var radius: Double = 150

        public init() {}

        public var outputImage: Image {
            let r0 = Float(radius)
            return RadialWarp.apply(
                image, name: "circleSplash", arguments: "center=\(center) radius=\(radius)", center: center,
                radius: radius, reach: .ontoCircle(twist: 0)
            ) { dx, dy in
                let r = (dx * dx + dy * dy).squareRoot()
                guard r > r0 else { return (dx, dy) }
                let f = r0 / r
                return (dx * f, dy * f)
            }
        }
    }
}

extension Image {
    /// The image with its disc's rim splashed outwards (see ``Filters/CircleSplashDistortion``).
    public func circleSplashDistortion(center: Point, radius: Double = 150) -> Image {
        applyingFilter(
            Filters.CircleSplashDistortion {
                $0.center = center
                $0.radius = radius
            })
    }
}
