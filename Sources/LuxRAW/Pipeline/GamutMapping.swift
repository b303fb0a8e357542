import CLuxKernels
public import LuxRender

/// Stage 6b: colours the camera matrix puts outside linear BT.2020 brought back inside it.
///
/// A camera sees some saturated lights (and noise in the shadows) that no mix of Rec. 2020's primaries makes: after
/// the colour matrix they have a negative component. Such a pixel moves in a straight line towards the grey of its
/// own luminance `Y` (BT.2020 weights) just far enough that its smallest component is 0: `RGB′ = Y + t·(RGB − Y)`
/// with `t = Y / (Y − min)`, which keeps luminance and hue and gives up only the saturation the gamut cannot hold.
/// Pixels with no negative component are unchanged; those with no positive luminance become black.
public struct GamutMapping: Hashable, Sendable {
    /// Creates the stage.
    public init() {}

    /// Applies the mapping.
    public func apply(to image: Image) -> Image {
        let (kr, kg, kb) = ColorAdjustments.luma
        let kernel = ColorKernel(name: "gamutMapRec2020", alphaHandling: .premultiplied, preservesAlpha: true) { row in
            // With lo = min(R, G, B): t = 1 for in-gamut pixels, Y / (Y − lo) for the others, 0 (black) without
            // positive luminance; in C (`lux_gamut_map`, 8 lanes wide with AVX2).
            let p = row.pixels
            lux_gamut_map(p.red, p.green, p.blue, kr, kg, kb, row.count)
        }
        return image.applying(kernel, arguments: "rec2020")
    }
}
