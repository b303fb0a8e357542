public import LuxColor
import LuxPixels
public import LuxRender
import RealModule

extension HDRToneMapper {
    /// Tone mapping of a lazy scene-referred image: a recipe whose pixels are `hdr` rendered for a display.
    ///
    /// When a render first needs the result, `hdr` is rendered in extended linear sRGB (half-float RGBA: half the memory of float, and finer than any
    /// display output) and mapped with
    /// ``map(_:to:)-(PixelBuffer,_)``, whose operators need statistics of the whole image; the result (in
    /// ``Settings/outputFormat``, encoded for `colorSpace`) is kept by the returned image.
    ///
    /// With nothing left to measure — ``Operator/reinhard(whitePoint:)`` with a white point and an explicit
    /// ``Settings/exposure`` — the mapping is a per-pixel kernel of the recipe instead: fully lazy, rendered tile by
    /// tile and fused with what follows. The result is then display-referred linear light (0…1) that any render
    /// encodes for its own output space; `colorSpace` and ``Settings/outputFormat`` do not apply.
    ///
    /// - Parameters:
    ///   - hdr: Linear radiance with a finite, whole-pixel extent, such as ``HDRMerge/merge(_:exposures:noise:colorSpace:)``
    ///     returns.
    ///   - colorSpace: The display space (default sRGB); the returned image is tagged with it.
    /// - Throws: ``FusionError`` for bad settings or extents now; errors while rendering or mapping surface from the
    ///   render that first needs the result.
    public func map(_ hdr: Image, to colorSpace: ColorSpace = .sRGB) throws(FusionError) -> Image {
        try validate()
        if case .reinhard(let white?) = settings.method, let ev = settings.exposure {
            return reinhard(hdr, exposure: ev, whitePoint: white)
        }
        let extent = try FusionImages.extent(of: [hdr])
        let mapper = self
        let provider = DeferredFusion(
            width: Int(extent.width), height: Int(extent.height), format: settings.outputFormat,
            colorSpace: colorSpace, identifier: "HDRToneMapper(\(settings), to \(colorSpace))"
        ) {
            let frames = try FusionImages.render(
                [hdr], extent: extent, format: .rgbaHalf, colorSpace: .extendedLinearSRGB)
            return try mapper.map(frames[0], to: colorSpace)
        }
        return FusionImages.image(provider, at: extent)
    }

    /// Reinhard's operator as a colour kernel (the buffer path's arithmetic, in extended linear sRGB).
    func reinhard(_ hdr: Image, exposure ev: Double, whitePoint white: Double) -> Image {
        let scale = Float(Double.exp2(ev))
        let iw2 = Float(1 / (white * white))
        let luma = Self.luma(of: .extendedLinearSRGB)
        let kernel = ColorKernel(name: "reinhard", alphaHandling: .unpremultiplied, preservesAlpha: true) { row in
            let p = row.pixels
            for i in 0..<row.count {
                let r = max(p.red[i], 0) * scale
                let g = max(p.green[i], 0) * scale
                let b = max(p.blue[i], 0) * scale
                let l = luma.x * r + luma.y * g + luma.z * b
                let k = l > 0 ? (1 + l * iw2) / (1 + l) : 1
                p.red[i] = min(r * k, 1)
                p.green[i] = min(g * k, 1)
                p.blue[i] = min(b * k, 1)
            }
        }
        return hdr.matchedFromWorkingSpace(to: .extendedLinearSRGB)
            .applying(kernel, arguments: "scale=\(scale) white=\(white)")
            .matchedToWorkingSpace(from: .extendedLinearSRGB)
    }
}
