public import LuxPixels
public import LuxRender

extension Filters {
    /// Rolls the image away like a turning page that casts a shadow on the target.
    ///
    /// The page rolls as in ``PageCurlTransition`` (without a shading image), but the cylinder's line travels to
    /// `f = time·(L + R + w)`, `w = shadowSize·R` the shadow's width, so that the shadow too has left `extent` at
    /// time 1. On the target, where no page lies, at `e = f − R − u` pixels behind the cylinder's edge the colour is
    /// multiplied by `1 − shadowAmount·(1 − e / w)` for `0 ≤ e < w`, and left alone elsewhere and outside
    /// `shadowExtent` (an empty rectangle lets the shadow fall anywhere). Time 0 is the image and time 1 the target
    /// exactly, within `extent`. The extent is the union of the two images.
    public struct PageCurlWithShadowTransition: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "PageCurlWithShadowTransition", categories: [.transition, .stillImage, .video],
            summary: "Rolls the image away like a turning page that casts a shadow on the target.",
            .image(\.image, summary: "Shown at time 0."), .image(\.target, "targetImage", summary: "Shown at time 1."),
            .parameter("backsideImage", \.backside, summary: "Shown on the back of the page; none: the image."),
            .parameter("extent", \.extent, summary: "The page."),
            .parameter("time", \.time, slider: 0...1, allowed: 0...1, unit: .fraction, summary: "The progress."),
            .parameter(
                "angle", \.angle, slider: -Double.pi...Double.pi, allowed: -1e4...1e4, unit: .radians,
                summary: "The direction the curl travels."),
            .parameter(
                "radius", \.radius, slider: 0.01...400, allowed: 0.01...1e6, unit: .pixels,
                summary: "The radius of the curl."),
            .parameter(
                "shadowSize", \.shadowSize, slider: 0...1, allowed: 0...100, unit: .fraction,
                summary: "The width of the shadow, as a fraction of the radius."),
            .parameter(
                "shadowAmount", \.shadowAmount, slider: 0...1, allowed: 0...1, unit: .fraction,
                summary: "The darkening at the cylinder's edge."),
            .parameter("shadowExtent", \.shadowExtent, summary: "Where the shadow may fall; empty: anywhere."))

        public var image: Image = .empty
        public var target: Image = .empty
        public var backside: Image = .empty
        public var extent: Rect = Rect(x: 0, y: 0, width: 300, height: 300)
        public var time: Double = 0
        public var angle: Double = 0
        public var radius: Double = 100
        public var shadowSize: Double = 0.5
        public var shadowAmount: Double = 0.7
        public var shadowExtent: Rect = .zero

        public init() {}

        public var outputImage: Image {
            PageCurl.apply(
                image, target: target, backside: backside, shading: .empty, extent: extent, time: time, angle: angle,
                radius: radius,
                shadow: PageCurl.Shadow(
                    width: shadowSize * max(radius, 0.01), amount: shadowAmount, extent: shadowExtent),
                name: "pageCurlWithShadow")
        }
    }
}
