public import LuxPixels
public import LuxRender

extension Filters {
    /// The settings the black-and-white halftone screens share: where the screen's phase is zero, its period and how
    /// hard its edges are.
    public struct Screen: Sendable, Hashable {
        /// Where the screen's phase is zero.
        public var center: Point
        /// The screen's period, in pixels.
        public var width: Double
        /// How hard the edges are, 0…1 (1: a pure threshold).
        public var sharpness: Double

        /// A screen (Core Image's defaults: phase zero at (150, 150), a period of 6 pixels, sharpness 0.7).
        public init(center: Point = Point(x: 150, y: 150), width: Double = 6, sharpness: Double = 0.7) {
            self.center = center
            self.width = width
            self.sharpness = sharpness
        }
    }
}

/// A halftone screen filter: its input and screen are stored in `image` and `screen`, whose fields read and write as
/// the filter's own (`dots.width`), so each screen declares only its shape.
@dynamicMemberLookup
public protocol HalftoneScreenFilter: DeclaredFilter {
    /// The image screened.
    var image: Image { get set }
    /// The screen's phase, period and sharpness.
    var screen: Filters.Screen { get set }
}

extension HalftoneScreenFilter {
    /// A field of ``screen``, such as `width`.
    public subscript<V>(dynamicMember keyPath: WritableKeyPath<Filters.Screen, V>) -> V {
        get { screen[keyPath: keyPath] }
        set { screen[keyPath: keyPath] = newValue }
    }

    /// The halftone whose screen value at frame coordinates `(u, v)` (in periods from `center`, along `angle` and
    /// across it; `nil`: the screen has no direction) is `shape`'s.
    func screened(_ name: String, angle: Double?, shape: HalftoneScreen.Shape) -> Image {
        let s = screen
        return HalftoneScreen.apply(
            image, name: name,
            arguments: "center=\(s.center.x),\(s.center.y)\(angle.map { " angle=\($0)" } ?? "") width=\(s.width) "
                + "sharpness=\(s.sharpness)",
            sharpness: s.sharpness, frame: HalftoneScreen.Frame(center: s.center, angle: angle ?? 0, width: s.width),
            shape: shape)
    }
}

/// A halftone screen with a direction: its frame is turned by `angle`.
public protocol DirectionalScreenFilter: HalftoneScreenFilter {
    /// The direction of the screen, in radians.
    var angle: Double { get set }
}

extension FilterDeclaration.Parameter where F: HalftoneScreenFilter {
    /// The image and the screen: `image`, `center`, `width` and `sharpness`.
    ///
    /// - Parameters:
    ///   - spacing: The summary of `width`.
    static func screen(spacing: String) -> Self { .group(screenParameters(angle: nil, spacing: spacing)) }

    /// `image`, `center`, then `angle` if the screen has a direction (`angle`'s key path and summary), then `width`
    /// and `sharpness` (summaries `spacing` and `edges`), in Core Image's order.
    fileprivate static func screenParameters(
        angle: (keyPath: any WritableKeyPath<F, Double> & Sendable, summary: String)?, spacing: String,
        edges: String = "How hard the edges are (1: a pure threshold)."
    ) -> [Self] {
        let center: Self = .parameter(
            "center", \.screen.center, unit: .pixels, summary: "Where the screen's phase is zero.")
        let direction: [Self] =
            angle.map {
                [
                    .parameter(
                        "angle", $0.keyPath, slider: -Double.pi...Double.pi, allowed: -1e6...1e6, unit: .radians,
                        summary: $0.summary)
                ]
            } ?? []
        let rest: [Self] = [
            .parameter("width", \.screen.width, slider: 1...50, allowed: 0.01...1e6, unit: .pixels, summary: spacing),
            .parameter("sharpness", \.screen.sharpness, slider: 0...1, allowed: 0...1, unit: .fraction, summary: edges),
        ]
        return [.image(\.image), center] + direction + rest
    }
}

extension FilterDeclaration.Parameter where F: DirectionalScreenFilter {
    /// The image and the screen with its direction: `image`, `center`, `angle`, `width` and `sharpness`.
    ///
    /// - Parameters:
    ///   - direction: The summary of `angle`.
    ///   - spacing: The summary of `width`.
    ///   - edges: The summary of `sharpness`.
    static func directionalScreen(
        direction: String = "The direction of the screen.", spacing: String,
        edges: String = "How hard the edges are (1: a pure threshold)."
    ) -> Self {
        .group(screenParameters(angle: (\F.angle, direction), spacing: spacing, edges: edges))
    }
}
