public import LuxColor
import LuxPixels
public import LuxRender

extension HDRToneMapper {
    /// Tone mapping of a lazy scene-referred image: a recipe whose pixels are `hdr` rendered for a display.
    ///
    /// When a render first needs the result, `hdr` is rendered in extended linear sRGB (float RGBA) and mapped with
    /// ``map(_:to:)-(PixelBuffer,_)``, whose operators need statistics of the whole image; the result (in
    /// ``Settings/outputFormat``, encoded for `colorSpace`) is kept by the returned image.
    ///
    /// - Parameters:
    ///   - hdr: Linear radiance with a finite, whole-pixel extent, such as ``HDRMerge/merge(_:exposures:noise:colorSpace:)``
    ///     returns.
    ///   - colorSpace: The display space (default sRGB); the returned image is tagged with it.
    /// - Throws: ``FusionError`` for bad settings or extents now; errors while rendering or mapping surface from the
    ///   render that first needs the result.
    public func map(_ hdr: Image, to colorSpace: ColorSpace = .sRGB) throws(FusionError) -> Image {
        try validate()
        let extent = try FusionImages.extent(of: [hdr])
        let mapper = self
        let provider = DeferredFusion(
            width: Int(extent.width), height: Int(extent.height), format: settings.outputFormat,
            colorSpace: colorSpace, identifier: "HDRToneMapper(\(settings), to \(colorSpace))"
        ) {
            let frames = try FusionImages.render(
                [hdr], extent: extent, format: .rgbaFloat, colorSpace: .extendedLinearSRGB)
            return try mapper.map(frames[0], to: colorSpace)
        }
        return FusionImages.image(provider, at: extent)
    }
}
