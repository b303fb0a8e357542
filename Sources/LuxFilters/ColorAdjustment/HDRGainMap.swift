import LuxColor
public import LuxPixels
public import LuxRender

extension Image {
    /// The HDR rendition of an SDR photo with an Apple HDR gain map: linear light multiplied by
    /// 1 + (headroom − 1) × gain, so values go above 1 where the gain map brightens (extended range).
    ///
    /// `gainMap` is the gain map as decoded (gray values 0…1 encoded with the Rec. 709 transfer function, as Apple's
    /// "Applying Apple HDR effect to your photos" specifies; usually a quarter of the photo's area); it is linearised, scaled to the image's extent with a Lanczos-3 filter, and multiplies the image in the working
    /// space (linear light). `headroom` is how much brighter than SDR white the gain map's maximum is — for an iPhone
    /// photo, `AppleMakerNote.hdrHeadroom` (LuxCodecs). Render the result to a floating-point format in an
    /// extended-range space to keep it.
    ///
    /// ```swift
    /// let hdr = photo.applyingHDRGainMap(gainMap.pixels, headroom: note.hdrHeadroom ?? 2)
    /// try context.write(hdr, to: url, pixelFormat: .rgbaHalf, colorSpace: .extendedLinearDisplayP3)
    /// ```
    ///
    /// - Precondition: the image's extent is finite and not empty.
    public func applyingHDRGainMap(_ gainMap: PixelBuffer, headroom: Double) -> Image {
        let e = extent
        precondition(!e.isInfinite && !e.isEmpty, "a gain map applies to a finite image")
        let gray = gainMap.converted(to: .rgbaFloat)
        let count = gray.width * gray.height
        var factors = [Float](repeating: 1, count: 4 * count)
        let values = gray.components(as: Float.self)
        let boost = Float(headroom - 1)
        for i in 0..<count {
            let g = Float(TransferFunction.rec709.linear(fromEncoded: Double(min(max(values[4 * i], 0), 1))))
            let f = 1 + boost * g
            factors[4 * i] = f
            factors[4 * i + 1] = f
            factors[4 * i + 2] = f
        }
        let factorImage = Image(
            buffer: PixelBuffer(width: gray.width, height: gray.height, format: .rgbaFloat, components: factors))
        let sy = e.height / Double(gray.height)
        let sx = e.width / Double(gray.width)
        let fitted = factorImage.lanczosScaleTransform(scale: sy, aspectRatio: sx / sy)
            .transformed(by: AffineTransform(translationX: e.minX, y: e.minY))
            .cropped(to: e)
        return fitted.blended(onto: self, mode: .multiply).cropped(to: e)
    }
}
