public import LuxPixels
public import LuxRender

extension Filters {
    /// A circular-screen halftone: the image's luminance against concentric rings around `center`, in black and
    /// white.
    ///
    /// At distance `r` from the centre the screen is `s = ½ + ½·cos(2π·r/width)` and the grey `clamp(½ + (L −
    /// s)/(1 − sharpness), 0, 1)` (`L`: the Rec. 709 luminance of the working-space input, clamped to 0…1).
    public struct CircularScreen: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "CircularScreen", categories: [.halftoneEffect, .stillImage, .video],
            summary: "Simulates a circular-screen halftone.", .image(\.image),
            .parameter("center", \.center, unit: .pixels, summary: "Where the screen's phase is zero."),
            .parameter(
                "width", \.width, slider: 1...50, allowed: 0.01...1e6, unit: .pixels,
                summary: "The distance between rings."),
            .parameter(
                "sharpness", \.sharpness, slider: 0...1, allowed: 0...1, unit: .fraction,
                summary: "How hard the edges are (1: a pure threshold)."))

        public var image: Image = .empty
        public var center: Point = Point(x: 150, y: 150)
        public var width: Double = 6
        public var sharpness: Double = 0.7

        public init() {}

        public var outputImage: Image {
            let frame = HalftoneScreen.Frame(center: center, angle: 0, width: width)
            return HalftoneScreen.apply(
                image, name: "circularScreen",
                arguments: "center=\(center.x),\(center.y) width=\(width) sharpness=\(sharpness)", sharpness: sharpness
            ) { x, y in
                let (u, v) = frame.coordinates(x, y)
                return HalftoneScreen.wave((u * u + v * v).squareRoot())
            }
        }
    }
}

extension Image {
    /// A circular-screen halftone of the image (see ``Filters/CircularScreen``).
    public func circularScreen(center: Point, width: Double = 6, sharpness: Double = 0.7) -> Image {
        applyingFilter(
            Filters.CircularScreen {
                $0.center = center
                $0.width = width
                $0.sharpness = sharpness
            })
    }
}
