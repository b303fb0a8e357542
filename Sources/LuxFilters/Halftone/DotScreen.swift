public import LuxPixels
public import LuxRender

extension Filters {
    /// A dot-screen halftone: the image's luminance against a grid of round dots, in black and white.
    ///
    /// With `(u, v)` a pixel's position in periods of `width` from `center`, along `angle` and across it, the screen
    /// is `s = ½ + ¼·(cos 2πu + cos 2πv)` and the grey `clamp(½ + (L − s)/(1 − sharpness), 0, 1)` (`L`: the Rec. 709
    /// luminance of the working-space input, clamped to 0…1): dark areas grow large dots, bright ones small.
    public struct DotScreen: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "DotScreen", categories: [.halftoneEffect, .stillImage, .video],
            summary: "Simulates a dot-screen halftone.", .image(\.image),
            .parameter("center", \.center, unit: .pixels, summary: "Where the screen's phase is zero."),
            .parameter(
                "angle", \.angle, slider: -Double.pi...Double.pi, allowed: -1e6...1e6, unit: .radians,
                summary: "The direction of the screen."),
            .parameter(
                "width", \.width, slider: 1...50, allowed: 0.01...1e6, unit: .pixels,
                summary: "The distance between dots."),
            .parameter(
                "sharpness", \.sharpness, slider: 0...1, allowed: 0...1, unit: .fraction,
                summary: "How hard the edges are (1: a pure threshold)."))

        public var image: Image = .empty
        public var center: Point = Point(x: 150, y: 150)
        public var angle: Double = 0
        public var width: Double = 6
        public var sharpness: Double = 0.7

        public init() {}

        public var outputImage: Image {
            let frame = HalftoneScreen.Frame(center: center, angle: angle, width: width)
            return HalftoneScreen.apply(
                image, name: "dotScreen",
                arguments: "center=\(center.x),\(center.y) angle=\(angle) width=\(width) sharpness=\(sharpness)",
                sharpness: sharpness
            ) { x, y in
                let (u, v) = frame.coordinates(x, y)
                return HalftoneScreen.wave(u) / 2 + HalftoneScreen.wave(v) / 2
            }
        }
    }
}

extension Image {
    /// A dot-screen halftone of the image (see ``Filters/DotScreen``).
    public func dotScreen(center: Point, angle: Double = 0, width: Double = 6, sharpness: Double = 0.7) -> Image {
        applyingFilter(
            Filters.DotScreen {
                $0.center = center
                $0.angle = angle
                $0.width = width
                $0.sharpness = sharpness
            })
    }
}
