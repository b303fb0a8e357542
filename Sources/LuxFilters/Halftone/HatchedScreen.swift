public import LuxPixels
public import LuxRender

extension Filters {
    /// A hatched-screen halftone: the image's luminance against two crossed sets of lines, in black and white.
    ///
    /// The screen is the larger of two line screens, along `angle` and across it: `s = max(½ + ½·cos 2πu, ½ +
    /// ½·cos 2πv)`, and the grey `clamp(½ + (L − s)/(1 − sharpness), 0, 1)` (`L`: the Rec. 709 luminance of the
    /// working-space input, clamped to 0…1), so a pixel is as dark as the darker of the two line screens.
    public struct HatchedScreen: DirectionalScreenFilter {
        public static let declaration = FilterDeclaration<Self>(
            "HatchedScreen", categories: [.halftoneEffect, .stillImage, .video],
            summary: "Simulates a hatched-screen halftone.",
            .directionalScreen(spacing: "The distance between lines."))

        public var image: Image = .empty
        public var screen = Screen()
        public var angle: Double = 0

        public init() {}

        public var outputImage: Image {
            screened("hatchedScreen", angle: angle, shape: .hatches)
        }
    }
}

extension Image {
    /// A hatched-screen halftone of the image (see ``Filters/HatchedScreen``).
    public func hatchedScreen(center: Point, angle: Double = 0, width: Double = 6, sharpness: Double = 0.7) -> Image {
        applyingFilter(
            Filters.HatchedScreen {
                $0.screen = Filters.Screen(center: center, width: width, sharpness: sharpness)
                $0.angle = angle
            })
    }
}
