public import LuxPixels
public import LuxRender
import RealModule

extension Filters {
    /// Pinches the image towards `center`: the middle shrinks and the surroundings are drawn in.
    ///
    /// A pixel at distance `r < radius` reads the source at distance `radius·(r/radius)^(1 − scale/2)` along the
    /// same ray, so `scale` 0 changes nothing and larger scales pull more of the picture into the disc (every pixel
    /// still reads inside it, for `scale` in 0…2). The extent is the input's.
    public struct PinchDistortion: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "PinchDistortion", categories: [.distortionEffect, .stillImage, .video, .highDynamicRange],
            summary: "Pinches the image towards a point.", .image(\.image),
            .parameter("center", \.center, summary: "The centre of the pinch."),
            .parameter(
                "radius", \.radius, slider: 0...1000, allowed: 0...1e6, unit: .pixels,
                summary: "The pinch's radius."),
            .parameter("scale", \.scale, slider: 0...2, allowed: 0...2, summary: "The strength of the pinch."))

        public var image: Image = .empty
        public var center: Point = Point(x: 150, y: 150)
        public var radius: Double = 300
        public var scale: Double = 0.5

        public init() {}

        public var outputImage: Image {
            let r0 = Float(max(radius, 1e-6))
            let exponent = Float(1 - scale / 2)
            return RadialWarp.apply(
                image, name: "pinch", arguments: "center=\(center) radius=\(radius) scale=\(scale)", center: center,
                radius: radius, reach: .disc
            ) { dx, dy in
                let r = (dx * dx + dy * dy).squareRoot()
                guard r < r0, r > 0 else { return (dx, dy) }
                let f = Float.pow(r / r0, exponent) * r0 / r
                return (dx * f, dy * f)
            }
        }
    }
}

extension Image {
    /// The image pinched towards `center` (see ``Filters/PinchDistortion``).
    public func pinchDistortion(center: Point, radius: Double = 300, scale: Double = 0.5) -> Image {
        applyingFilter(
            Filters.PinchDistortion {
                $0.center = center
                $0.radius = radius
                $0.scale = scale
            })
    }
}
