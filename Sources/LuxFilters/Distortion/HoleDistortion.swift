public import LuxPixels
public import LuxRender

extension Filters {
    /// Punches a transparent circular hole at `center` and pushes the picture outwards around it.
    ///
    /// A pixel at distance `r ≥ radius` reads the source at distance `√(r² − radius²)` along the same ray (so the
    /// area outside the hole holds the whole picture, compressed near the rim); pixels inside are clear. The extent
    /// is the input's.
    public struct HoleDistortion: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "HoleDistortion", categories: [.distortionEffect, .stillImage, .video, .highDynamicRange],
            summary: "Punches a hole in the image and pushes the picture outwards.", .image(\.image),
            .parameter("center", \.center, summary: "The centre of the hole."),
            .parameter(
                "radius", \.radius, slider: 0.01...1000, allowed: 0...1e6, unit: .pixels,
                summary: "The hole's radius."))

        public var image: Image = .empty
        public var center: Point = Point(x: 150, y: 150)
        public var radius: Double = 150

        public init() {}

        public var outputImage: Image {
            let r0 = Float(radius)
            let outside: Float = 1e8  // far outside any input: reads transparent
            return RadialWarp.apply(
                image, name: "hole", arguments: "center=\(center) radius=\(radius)", center: center, radius: radius,
                reach: .towardsCentre
            ) { dx, dy in
                let r2 = dx * dx + dy * dy
                guard r2 >= r0 * r0 else { return (outside, outside) }
                guard r2 > 0 else { return (0, 0) }
                let f = ((r2 - r0 * r0) / r2).squareRoot()
                return (dx * f, dy * f)
            }
        }
    }
}

extension Image {
    /// The image with a hole punched at `center` (see ``Filters/HoleDistortion``).
    public func holeDistortion(center: Point, radius: Double = 150) -> Image {
        applyingFilter(
            Filters.HoleDistortion {
                $0.center = center
                $0.radius = radius
            })
    }
}
