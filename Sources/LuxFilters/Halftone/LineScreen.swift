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
    public struct LineScreen: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "LineScreen", categories: [.halftoneEffect, .stillImage, .video],
            summary: "Simulates a line-screen halftone.", .image(\.image),
            .parameter("center", \.center, unit: .pixels, summary: "Where the screen's phase is zero."),
            .parameter(
                "angle", \.angle, slider: -Double.pi...Double.pi, allowed: -1e6...1e6, unit: .radians,
                summary: "The direction across the lines."),
            .parameter(
                "width", \.width, slider: 1...50, allowed: 0.01...1e6, unit: .pixels,
                summary: "The distance between lines."),
            .parameter(
                "sharpness", \.sharpness, slider: 0...1, allowed: 0...1, unit: .fraction,
                summary: "How hard the edges of the lines are (1: a pure threshold)."))

        public var image: Image = .empty
        public var center: Point = Point(x: 150, y: 150)
        public var angle: Double = 0
        public var width: Double = 6
        public var sharpness: Double = 0.7

        public init() {}

        public var outputImage: Image {
            let frame = HalftoneScreen.Frame(center: center, angle: angle, width: width)
            return HalftoneScreen.apply(
                image, name: "lineScreen",
                arguments: "center=\(center.x),\(center.y) angle=\(angle) width=\(width) sharpness=\(sharpness)",
                sharpness: sharpness
            ) { x, y in HalftoneScreen.wave(frame.coordinates(x, y).u) }
        }
    }
}

extension Image {
    /// A line-screen halftone of the image (see ``Filters/LineScreen``).
    public func lineScreen(center: Point, angle: Double = 0, width: Double = 6, sharpness: Double = 0.7) -> Image {
        applyingFilter(
            Filters.LineScreen {
                $0.center = center
                $0.angle = angle
                $0.width = width
                $0.sharpness = sharpness
            })
    }
}
