public import LuxColor
import LuxPixels
public import LuxRender

extension ExposureFusion {
    /// Exposure fusion of lazy images: a recipe whose pixels are the fusion of `images`.
    ///
    /// The frames are fused display-referred, as Mertens et al. define the weights: each is rendered in
    /// `colorSpace` (16-bit RGBA) when a render first needs the result, then fused with ``fuse(_:pool:)``, which
    /// clamps the pyramid's overshoots to 0…1. The fused frame is kept by the returned image, so later tiles and
    /// renders reuse it; the result is tagged with `colorSpace` and colour-matched like any image.
    ///
    /// ```swift
    /// let brackets = try files.map { Image(buffer: try ImageFile.read($0)) }
    /// let fused = try ExposureFusion().fuse(brackets)                     // nothing computed yet
    /// try RenderContext().createBuffer(fused.cropped(to: face), format: .rgba8)
    /// ```
    ///
    /// - Parameters:
    ///   - images: Frames with the same finite, whole-pixel extent (at least 16 pixels a side).
    ///   - colorSpace: The display space the weights are computed in (default sRGB).
    /// - Returns: An opaque image with the frames' extent.
    /// - Throws: ``FusionError`` for bad settings, no frames or mismatched extents now; errors while rendering the
    ///   inputs surface from the render that first needs the result (``RenderError/processorFailed(_:reason:)``).
    public func fuse(_ images: [Image], colorSpace: ColorSpace = .sRGB) throws(FusionError) -> Image {
        try settings.validate()
        let extent = try FusionImages.extent(of: images)
        let fusion = self
        let provider = DeferredFusion(
            width: Int(extent.width), height: Int(extent.height), format: .rgba16, colorSpace: colorSpace,
            identifier: "ExposureFusion(\(images.count) frames, \(settings))"
        ) {
            let frames = try FusionImages.render(images, extent: extent, format: .rgba16, colorSpace: colorSpace)
            return try fusion.fuse(frames)
        }
        return FusionImages.image(provider, at: extent)
    }
}
