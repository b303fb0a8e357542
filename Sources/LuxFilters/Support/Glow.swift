import LuxPixels
public import LuxRender

/// A glow filter (``Filters/Bloom``, ``Filters/Gloom``): the image blended with a blurred copy of itself, mixed in by
/// `intensity`; each filter declares only its blend mode.
public protocol GlowFilter: DeclaredFilter {
    /// The image.
    var image: Image { get set }
    /// The standard deviation of the blur, in pixels.
    var radius: Double { get set }
    /// How much of the effect to mix in, 0…1.
    var intensity: Double { get set }
    /// How the image and its blurred copy are blended.
    static var mode: BlendMode { get }
}

extension GlowFilter {
    /// `image + intensity·(blend(blur, image) − image)`, where `blur` is the image (edges extended) blurred by a
    /// Gaussian of standard deviation `radius`; the extent is the image's.
    public var outputImage: Image {
        guard intensity != 0, radius > 0, !image.extent.isEmpty else { return image }
        let blurred = image.clampedToExtent().gaussianBlur(radius: radius).cropped(to: image.extent)
        return image.dissolveTransition(to: blurred.blended(onto: image, mode: Self.mode), time: intensity)
    }
}

extension FilterDeclaration.Parameter where F: GlowFilter {
    /// The image, `radius` and `intensity`.
    static var glow: Self {
        .group([
            .image(\.image),
            .parameter(
                "radius", \.radius, slider: 0...100, allowed: 0...1e4, unit: .pixels,
                summary: "The standard deviation of the blur."),
            .parameter(
                "intensity", \.intensity, slider: 0...1, allowed: 0...1, unit: .fraction,
                summary: "How much of the effect to mix in."),
        ])
    }
}
