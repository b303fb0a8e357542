import LuxPixels
import LuxRender

/// The shared body of Bloom and Gloom: the image blended with a blurred copy of itself, mixed in by `intensity`.
enum Glow {
    /// `image + intensity·(blend(blur, image) − image)`, where `blur` is the image (edges extended) blurred by a
    /// Gaussian of standard deviation `radius`; the extent is the image's.
    static func apply(_ image: Image, radius: Double, intensity: Double, mode: BlendMode) -> Image {
        guard intensity != 0, radius > 0, !image.extent.isEmpty else { return image }
        let blurred = image.clampedToExtent().gaussianBlur(radius: radius).cropped(to: image.extent)
        return image.dissolveTransition(to: blurred.blended(onto: image, mode: mode), time: intensity)
    }
}
