import LuxColor
import LuxRender

extension Image {
    /// `body` applied to this image's values encoded with the sRGB curve (extended, so out-of-range values
    /// survive), the result decoded back into the working space.
    ///
    /// Filters that model how people see tones — inversion, posterisation, contrast, tone curves, the photo
    /// looks — use it, so they give what photo editors give on encoded pictures whatever the working space.
    /// The two colour matches fuse with the filter's kernel into one pass; with colour management off they
    /// vanish and the kernel sees the values as they are.
    func inPerceptualSpace(_ body: (Image) -> Image) -> Image {
        body(matchedFromWorkingSpace(to: .extendedSRGB)).matchedToWorkingSpace(from: .extendedSRGB)
    }
}

/// The luma weights of ITU-R BT.709 and sRGB (applied to the working space's red, green and blue).
enum Luma {
    static let red: Float = 0.2126
    static let green: Float = 0.7152
    static let blue: Float = 0.0722
}
