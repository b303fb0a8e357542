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
            let p = row.pixels
            for i in 0..<row.count {
                let r = p.red[i]
                let g = p.green[i]
                let b = p.blue[i]
                let lo = min(r, min(g, b))
                let y = kr * r + kg * g + kb * b
                // t = 1 for in-gamut pixels, Y / (Y − min) for the others, 0 (black) without positive luminance.
                let t: Float = lo >= 0 ? 1 : (y > 0 ? y / (y - lo) : 0)
                let base: Float = lo >= 0 || y > 0 ? y : 0
                p.red[i] = base + t * (r - base)
                p.green[i] = base + t * (g - base)
                p.blue[i] = base + t * (b - base)
            }
        }
        return image.applying(kernel, arguments: "rec2020")
    }
}
