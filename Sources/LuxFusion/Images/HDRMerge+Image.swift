public import LuxColor
import LuxPixels
public import LuxRender

extension HDRMerge {
    /// HDR merge of lazy linear RGB brackets: a recipe whose pixels are the scene-referred merge of `images`.
    ///
    /// When a render first needs the result, each bracket is rendered in `colorSpace` (linear, float RGBA; a value
    /// of 1 is where the camera clipped) and the brackets are merged with ``merge(_:)``; the radiance is kept by the
    /// returned image. Values are relative to the reference bracket (1 = its clip level) and exceed 1 in highlights:
    /// render to a float format, or tone-map with ``HDRToneMapper/map(_:to:)-(Image,_)``.
    ///
    /// ```swift
    /// let hdr = try HDRMerge().merge(brackets, exposures: [0.25, 1, 4])   // −2, 0, +2 EV
    /// let display = try HDRToneMapper().map(hdr)
    /// ```
    ///
    /// - Parameters:
    ///   - images: Brackets with the same finite, whole-pixel extent (at least 16 pixels a side).
    ///   - exposures: Each bracket's exposure (duration × gain, any unit: only ratios matter).
    ///   - noise: Each bracket's noise in linear units (`nil`: estimated from each frame).
    ///   - colorSpace: The linear space the brackets are merged in (use the frames' own, so clipping stays at 1 per
    ///     channel; default extended linear sRGB).
    /// - Throws: ``FusionError`` for bad settings or exposures, mismatched frames or a non-linear `colorSpace` now;
    ///   errors while rendering or merging surface from the render that first needs the result.
    public func merge(
        _ images: [Image], exposures: [Double], noise: [NoiseProfile?]? = nil,
        colorSpace: ColorSpace = .extendedLinearSRGB
    ) throws(FusionError) -> Image {
        guard exposures.count == images.count else {
            throw .invalidParameter(
                name: "exposures", value: "\(exposures.count) values", allowed: "one per image (\(images.count))")
        }
        if let noise, noise.count != images.count {
            throw .invalidParameter(
                name: "noise", value: "\(noise.count) profiles", allowed: "one per image (\(images.count))")
        }
        let largest = exposures.max() ?? 1
        for (i, e) in exposures.enumerated() where !(e.isFinite && e > 0 && e / largest >= 1e-6) {
            throw .invalidParameter(
                name: "exposures[\(i)]", value: "\(e)", allowed: "positive, within 20 stops of the longest")
        }
        for (i, n) in (noise ?? []).enumerated() { try n?.validate("noise[\(i)]") }
        try FusionImages.requireLinear(colorSpace)
        let extent = try FusionImages.extent(of: images)
        let merge = self
        let provider = DeferredFusion(
            width: Int(extent.width), height: Int(extent.height), format: .rgbaFloat, colorSpace: colorSpace,
            identifier: "HDRMerge(\(images.count) brackets, exposures \(exposures), \(settings))"
        ) {
            let frames = try FusionImages.render(images, extent: extent, format: .rgbaFloat, colorSpace: colorSpace)
            // Exposure rides on the gain (a 1 s duration), relative to the longest, to keep full precision.
            let brackets = frames.indices.map { k in
                Bracket(
                    frame: frames[k], exposureDuration: MediaTime(value: 1, timescale: 1),
                    iso: Float(exposures[k] / largest), noise: noise?[k])
            }
            return try merge.merge(brackets).output
        }
        return FusionImages.image(provider, at: extent)
    }
}
