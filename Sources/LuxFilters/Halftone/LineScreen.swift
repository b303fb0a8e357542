public import LuxPixels
public import LuxRender

extension Filters {
    /// A line-screen halftone: the image's luminance against a screen of parallel lines, in black and white.
    ///
    /// The screen is a cosine across the lines: at a point whose distance from `center` along the direction
    /// `angle` is `d`, the screen value is `s = ½ + ½·cos(2π·d / width)`. The output grey is
    /// `clamp(½ + (L − s) / (1 − sharpness), 0, 1)` where `L` is the Rec. 709 luminance of the (unpremultiplied,
    /// working-space) input clamped to 0…1: bright areas become thin dark lines, dark areas thick ones. `width` is
    /// in pixels, so an effect meant to look the same at another resolution multiplies it by the render scale.
    public struct LineScreen: DirectionalScreenFilter {
        public static let declaration = FilterDeclaration<Self>(
            "LineScreen", categories: [.halftoneEffect, .stillImage, .video],
            summary: "Simulates a line-screen halftone.",
            .directionalScreen(
                direction: "The direction across the lines.", spacing: "The distance between lines.",
                edges: "How hard the edges of the lines are (1: a pure threshold)."))

        public var image: Image = .empty
        public var screen = Screen()
        public var angle: Double = 0

        public init() {}

        public var outputImage: Image {
            screened("lineScreen", angle: angle, shape: .lines)
        }
    }
}

extension Image {
    /// A line-screen halftone of the image (see ``Filters/LineScreen``).
    public func lineScreen(center: Point, angle: Double = 0, width: Double = 6, sharpness: Double = 0.7) -> Image {
        applyingFilter(
            Filters.LineScreen {
                $0.screen = Filters.Screen(center: center, width: width, sharpness: sharpness)
                $0.angle = angle
            })
    }
}
