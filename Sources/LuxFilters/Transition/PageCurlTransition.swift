public import LuxPixels
public import LuxRender

extension Filters {
    /// Rolls the image away like a page turning over a cylinder, revealing the target.
    ///
    /// Core Image gives no formula; Lux's is this, in Lux's y-down coordinates (`angle` is measured from the x axis
    /// towards y). With `u` a point's distance along the direction `angle` from the first corner of `extent` that the
    /// curl reaches, `L` the extent's length in that direction and `R = radius`, a cylinder lies on the page with its
    /// axis above the line `u = f = time·(L + R)`. The page (the image inside `extent`) rests where `u ≥ f`; a page
    /// point `s = f − u₀` before the line is wrapped round the cylinder to the angle `φ = s / R`, at `u = f − R·sin φ`
    /// and height `R·(1 − cos φ)`, and past `φ = π` lies upside down on the page at `u = f + s − π·R`. Seen from
    /// above, where `d = f − u` is in `0…R` the upper half of the cylinder shows the page's back at
    /// `φ = π − asin(d / R)` if the page reaches that far, else the lower half shows its front at `φ = asin(d / R)`.
    /// The back is `backsideImage` at the page point (the image itself without one). The rolled part is lit by
    /// `shadingImage` (a picture of a lit sphere, as for ``ShadedMaterial``): its colour is multiplied by the
    /// sphere's where the sphere's normal matches the surface's; the page at rest is unlit. The page is laid over the
    /// target. Time 0 is the image and time 1 the target exactly, within `extent`. The extent is the union of the two
    /// images.
    public struct PageCurlTransition: DeclaredFilter {
        public static let declaration = FilterDeclaration<Self>(
            "PageCurlTransition", categories: [.transition, .stillImage, .video],
            summary: "Rolls the image away like a turning page, revealing the target.",
            .image(\.image, summary: "Shown at time 0."), .image(\.target, "targetImage", summary: "Shown at time 1."),
            .parameter("backsideImage", \.backside, summary: "Shown on the back of the page; none: the image."),
            .parameter(
                "shadingImage", \.shading,
                summary: "A picture of a lit sphere that lights the rolled page; none: unlit."),
            .parameter("extent", \.extent, summary: "The page."),
            .parameter("time", \.time, slider: 0...1, allowed: 0...1, unit: .fraction, summary: "The progress."),
            .parameter(
                "angle", \.angle, slider: -Double.pi...Double.pi, allowed: -1e4...1e4, unit: .radians,
                summary: "The direction the curl travels."),
            .parameter(
                "radius", \.radius, slider: 0.01...400, allowed: 0.01...1e6, unit: .pixels,
                summary: "The radius of the curl."))

        public var image: Image = .empty
        public var target: Image = .empty
        public var backside: Image = .empty
        public var shading: Image = .empty
        public var extent: Rect = Rect(x: 0, y: 0, width: 300, height: 300)
        public var time: Double = 0
        public var angle: Double = 0
        public var radius: Double = 100

        public init() {}

        public var outputImage: Image {
            PageCurl.apply(
                image, target: target, backside: backside, shading: shading, extent: extent, time: time, angle: angle,
                radius: radius, shadow: nil, name: "pageCurl")
        }
    }
}

extension Image {
    /// A page curl from this image, the page being this image's extent, to `target` (see
    /// ``Filters/PageCurlTransition``).
    public func pageCurlTransition(to target: Image, time: Double, angle: Double = 0, radius: Double = 100) -> Image {
        applyingFilter(
            Filters.PageCurlTransition {
                $0.target = target
                $0.time = time
                $0.angle = angle
                $0.radius = radius
                $0.extent = extent.isInfinite ? $0.extent : extent
            })
    }
}
