public import LuxPixels
public import LuxRender

extension Filters {
    /// A dot-screen halftone: the image's luminance against a grid of round dots, in black and white.
    ///
    /// With `(u, v)` a pixel's position in periods of `width` from `center`, along `angle` and across it, the screen
    /// is `s = ½ + ¼·(cos 2πu + cos 2πv)` and the grey `clamp(½ + (L − s)/(1 − sharpness), 0, 1)` (`L`: the Rec. 709
    /// luminance of the working-space input, clamped to 0…1): dark areas grow large dots, bright ones small.
    public struct DotScreen: DirectionalScreenFilter {
        public static let declaration = FilterDeclaration<Self>(
            "DotScreen", categories: [.halftoneEffect, .stillImage, .video],
            summary: "Simulates a dot-screen halftone.", .directionalScreen(spacing: "The distance between dots."))

        public var image: Image = .empty
        public var screen = Screen()
        public var angle: Double = 0

        public init() {}

        public var outputImage: Image {
            screened("dotScreen", angle: angle, shape: .dots)
        }
    }
}

extension Image {
    /// A dot-screen halftone of the image (see ``Filters/DotScreen``).
    public func dotScreen(center: Point, angle: Double = 0, width: Double = 6, sharpness: Double = 0.7) -> Image {
        applyingFilter(
            Filters.DotScreen {
                $0.screen = Filters.Screen(center: center, width: width, sharpness: sharpness)
                $0.angle = angle
            })
    }
}
