public import LuxPixels
public import LuxRender

extension Filters {
    /// A circular-screen halftone: the image's luminance against concentric rings around `center`, in black and
    /// white.
    ///
    /// At distance `r` from the centre the screen is `s = ½ + ½·cos(2π·r/width)` and the grey `clamp(½ + (L −
    /// s)/(1 − sharpness), 0, 1)` (`L`: the Rec. 709 luminance of the working-space input, clamped to 0…1).
    public struct CircularScreen: HalftoneScreenFilter {
        public static let declaration = FilterDeclaration<Self>(
            "CircularScreen", categories: [.halftoneEffect, .stillImage, .video],
            summary: "Simulates a circular-screen halftone.", .screen(spacing: "The distance between rings."))

        public var image: Image = .empty
        public var screen = Screen()

        public init() {}

        public var outputImage: Image {
            screened("circularScreen", angle: nil, shape: .rings)
        }
    }
}

extension Image {
    /// A circular-screen halftone of the image (see ``Filters/CircularScreen``).
    public func circularScreen(center: Point, width: Double = 6, sharpness: Double = 0.7) -> Image {
        applyingFilter(
            Filters.CircularScreen {
                $0.screen = Filters.Screen(center: center, width: width, sharpness: sharpness)
            })
    }
}
