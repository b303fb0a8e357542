public import LuxPixels
public import LuxRender

extension Filters {
    /// A bulge (positive `scale`) or dent (negative) in the image around `center`.
    ///
    /// A pixel at distance `r < radius` reads the source at distance `r·(1 − scale·(1 − r/radius)²)` along the same
    /// ray: with `scale` 0.5 the centre is magnified 2×, and the change fades out smoothly at `radius`. For `scale`
    /// in −1…1 every pixel reads inside the disc. The extent is the input's.
    public struct BumpDistortion: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "BumpDistortion", categories: [.distortionEffect, .stillImage, .video, .highDynamicRange],
            summary: "Bulges or dents the image around a point.", .image(\.image),
            .parameter("center", \.center, summary: "The centre of the bump."),
            .parameter(
                "radius", \.radius, slider: 0...600, allowed: 0...1e6, unit: .pixels, summary: "The bump's radius."),
            .parameter(
                "scale", \.scale, slider: -1...1, allowed: -1...1,
                summary: "How much the centre is magnified (positive) or shrunk (negative)."))

        public var image: Image = .empty
        public var center: Point = Point(x: 150, y: 150)
        public var radius: Double = 300
        public var scale: Double = 0.5

        public init() {}

        public var outputImage: Image {
            let r0 = Float(max(radius, 1e-6))
            let k = Float(scale)
            return RadialWarp.apply(
                image, name: "bump", arguments: "center=\(center) radius=\(radius) scale=\(scale)", center: center,
                radius: radius, reach: .disc
            ) { dx, dy in
                let r = (dx * dx + dy * dy).squareRoot()
                guard r < r0 else { return (dx, dy) }
                let t = 1 - r / r0
                let f = 1 - k * t * t
                return (dx * f, dy * f)
            }
        }
    }
}

extension Image {
    /// The image bulged (positive `scale`) or dented around `center` (see ``Filters/BumpDistortion``).
    public func bumpDistortion(center: Point, radius: Double = 300, scale: Double = 0.5) -> Image {
        applyingFilter(
            Filters.BumpDistortion {
                $0.center = center
                $0.radius = radius
                $0.scale = scale
            })
    }
}
