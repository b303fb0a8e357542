import LuxPixels
public import LuxRender

extension Image {
    /// The size of a `width` × `height` picture scaled to fit inside `box` with its aspect ratio kept, never enlarged:
    /// the scale is min(box width ÷ width, box height ÷ height, 1) and each side is rounded to the nearest pixel (at
    /// least one).
    ///
    /// ```swift
    /// Image.sizeToFit(width: 4032, height: 3024, inside: (1600, 1600))   // (1600, 1200)
    /// ```
    public static func sizeToFit(width: Int, height: Int, inside box: (width: Int, height: Int)) -> (
        width: Int, height: Int
    ) {
        guard width > 0, height > 0, box.width > 0, box.height > 0 else { return (max(width, 0), max(height, 0)) }
        let scale = min(Double(box.width) / Double(width), Double(box.height) / Double(height), 1)
        guard scale < 1 else { return (width, height) }
        return (
            min(box.width, max(1, Int((Double(width) * scale).rounded()))),
            min(box.height, max(1, Int((Double(height) * scale).rounded())))
        )
    }

    /// The image scaled with a Lanczos-3 filter to fit inside `box` (``sizeToFit(width:height:inside:)``), its
    /// extent moved to the origin; an image that already fits is returned unscaled.
    ///
    /// The horizontal and vertical scales are set separately so the result has exactly the fitted size.
    ///
    /// - Precondition: the extent is finite and not empty.
    public func resizedToFit(_ box: (width: Int, height: Int)) -> Image {
        let e = extent
        precondition(!e.isInfinite && !e.isEmpty, "only a finite image can be resized to fit")
        return resized(to: Image.sizeToFit(width: Int(e.width), height: Int(e.height), inside: box))
    }

    /// The image scaled with a Lanczos-3 filter to exactly `size` pixels (the horizontal and vertical scales set
    /// separately), its extent moved to the origin; an image of that size already is only moved.
    ///
    /// - Precondition: the extent is finite and not empty, and `size` is at least 1 × 1.
    public func resized(to size: (width: Int, height: Int)) -> Image {
        let e = extent
        precondition(!e.isInfinite && !e.isEmpty, "only a finite image can be resized")
        precondition(size.width > 0 && size.height > 0, "an image is resized to at least 1 × 1 pixels")
        let origin = transformed(by: AffineTransform(translationX: -e.minX, y: -e.minY))
        guard size.width != Int(e.width) || size.height != Int(e.height) else { return origin }
        let sy = Double(size.height) / e.height
        let sx = Double(size.width) / e.width
        return origin.lanczosScaleTransform(scale: sy, aspectRatio: sx / sy)
    }
}
