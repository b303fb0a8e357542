public import LuxColor
import LuxPixels
public import LuxRender

extension BurstMerge {
    /// Burst merge of lazy linear RGB images: a recipe whose pixels are the merge of `images`.
    ///
    /// When a render first needs the result, each frame is rendered in `colorSpace` (linear, float RGBA) and the
    /// frames are merged with ``merge(_:noise:pool:)``; the merged frame is kept by the returned image. Bayer bursts
    /// merge before demosaicing with ``merge(_:rawModel:pool:)`` instead (an `Image` is already demosaiced).
    ///
    /// ```swift
    /// let frames = buffers.map { Image(buffer: $0) }                     // linear RGB frames of a burst
    /// let merged = try BurstMerge(settings: .balanced).merge(frames)     // noise estimated from the reference
    /// ```
    ///
    /// - Parameters:
    ///   - images: Frames with the same finite, whole-pixel extent (at least 16 pixels a side).
    ///   - noise: The frames' noise in `colorSpace`'s linear units (estimated from the reference frame when `nil`).
    ///   - colorSpace: The linear space the frames are merged in (default extended linear sRGB).
    /// - Returns: An image with the frames' extent, tagged with `colorSpace`.
    /// - Throws: ``FusionError`` for bad settings, noise, frames or a non-linear `colorSpace` now; errors while
    ///   rendering or merging surface from the render that first needs the result.
    public func merge(
        _ images: [Image], noise: NoiseProfile? = nil, colorSpace: ColorSpace = .extendedLinearSRGB
    ) throws(FusionError) -> Image {
        try settings.validate(frameCount: images.count)
        if let noise { try noise.validate("noise") }
        try FusionImages.requireLinear(colorSpace)
        let extent = try FusionImages.extent(of: images)
        let merge = self
        let provider = DeferredFusion(
            width: Int(extent.width), height: Int(extent.height), format: .rgbaFloat, colorSpace: colorSpace,
            identifier: "BurstMerge(\(images.count) frames, \(settings), noise \(String(describing: noise)))"
        ) {
            let frames = try FusionImages.render(images, extent: extent, format: .rgbaFloat, colorSpace: colorSpace)
            return try merge.merge(frames, noise: noise).output
        }
        return FusionImages.image(provider, at: extent)
    }
}
