import CLuxKernels

extension PixelBuffer {
    /// Warps this interleaved 8-bit RGBA image by `transform` into `target` (which keeps its size, format and colour
    /// space): bilinear samples of the encoded 8-bit values, the image's edge pixels repeated beyond it.
    ///
    /// Target pixel `(x, y)` takes the source at `transform⁻¹ · (x + ½, y + ½)` (pixel centres, as the render
    /// engine's affine transform of a clamped image cropped to the target's size), to 1/256 of a pixel. The engine
    /// interpolates in linear light; this blends the stored (gamma-encoded) values, as video stabilisers and FFmpeg's
    /// scalers do, at a fifth of the cost. It matches the engine rendering without colour management to within a
    /// level; against the linear-light blend, a sub-pixel step that straddles a strong edge comes out darker (half a
    /// pixel between black and white is 128 here, about 188 in linear light).
    ///
    /// - Returns: `false`, leaving `target` untouched, when either buffer is not ``PixelFormat/rgba8``, the
    ///   transform cannot be inverted or the image is 16 000 pixels or more on a side.
    package func warpRGBA8(by transform: AffineTransform, into target: inout PixelBuffer) -> Bool {
        guard format == .rgba8, target.format == .rgba8, let inverse = transform.inverted else { return false }
        let coefficients = [inverse.a, inverse.b, inverse.c, inverse.d, inverse.tx, inverse.ty]
        return withUnsafePlane { source in
            target.withUnsafeMutablePlane { out in
                coefficients.withUnsafeBufferPointer { m in
                    for y in 0..<out.height {
                        // The kernel refuses (on the first row, before writing) images too large for its arithmetic.
                        guard
                            lux_warp_rgba8_row(
                                source.baseAddress.assumingMemoryBound(to: UInt8.self), source.bytesPerRow,
                                source.width, source.height, out.row(y, as: UInt8.self), out.width, y, m.baseAddress!)
                                != 0
                        else { return false }
                    }
                    return true
                }
            }
        }
    }
}
