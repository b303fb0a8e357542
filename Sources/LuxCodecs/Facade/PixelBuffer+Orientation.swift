public import LuxPixels

extension PixelBuffer {
    /// The pixels transformed for upright display according to `orientation` (rotations and mirrors; width and height
    /// swap for orientations 5–8).
    ///
    /// Single-plane formats only.
    ///
    /// - Complexity: O(width × height).
    public func applying(_ orientation: Orientation) -> PixelBuffer {
        guard orientation != .up, planeCount == 1 else { return self }
        let w = width
        let h = height
        let (ow, oh) = orientation.swapsDimensions ? (h, w) : (w, h)
        var out = PixelBuffer(width: ow, height: oh, format: format, colorSpace: colorSpace, metadata: metadata)
        out.isPremultiplied = isPremultiplied
        let bpp = format.bytesPerPixel()
        let dst = out.unsafeSharedMutablePlane()
        withUnsafePlane { src in
            for y in 0..<h {
                let s = src.row(y)
                for x in 0..<w {
                    // Where the stored pixel (x, y) lands in the displayed image.
                    let (dx, dy): (Int, Int)
                    switch orientation {
                    case .up: (dx, dy) = (x, y)
                    case .upMirrored: (dx, dy) = (w - 1 - x, y)
                    case .down: (dx, dy) = (w - 1 - x, h - 1 - y)
                    case .downMirrored: (dx, dy) = (x, h - 1 - y)
                    case .leftMirrored: (dx, dy) = (y, x)
                    case .right: (dx, dy) = (h - 1 - y, x)
                    case .rightMirrored: (dx, dy) = (h - 1 - y, w - 1 - x)
                    case .left: (dx, dy) = (y, w - 1 - x)
                    }
                    (dst.row(dy) + dx * bpp).copyMemory(from: s + x * bpp, byteCount: bpp)
                }
            }
        }
        return out
    }
}
