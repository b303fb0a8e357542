public import LuxPixels

extension Image {
    /// The image restricted to `rect` (transparent outside).
    ///
    /// Nothing is copied.
    public func cropped(to rect: Rect) -> Image {
        let e = extent.intersection(rect)
        if e.isEmpty { return .empty }
        if rect.contains(extent) { return self }
        return Image(node: Node(.crop(rect), inputs: [node], extent: e, isOpaque: isOpaque))
    }

    /// The image moved by `transform`: output pixel at `p` shows input at `transform⁻¹(p)`.
    ///
    /// Pure whole-pixel translations only move the extent; other transforms interpolate with the
    /// image's sampling mode (``sampled(by:)``, `.linear` unless set). Consecutive transforms fold into one.
    public func transformed(by transform: AffineTransform) -> Image {
        transformed(by: transform, sampling: samplingMode)
    }

    /// The image moved by `transform`, interpolating with `sampling`.
    public func transformed(by transform: AffineTransform, sampling: SamplingMode) -> Image {
        if transform.isIdentity { return self }
        guard transform.inverted != nil else { return .empty }
        return Image(
            node: Node(
                .transform(transform, sampling), inputs: [node], extent: transform.apply(to: extent),
                isOpaque: false))
    }

    /// The image translated by `(dx, dy)`.
    public func translatedBy(x dx: Double, y dy: Double) -> Image {
        transformed(by: AffineTransform(translationX: dx, y: dy))
    }

    /// The same image whose later transforms sample with `mode` (samplingLinear / samplingNearest).
    public func sampled(by mode: SamplingMode) -> Image {
        Image(node: Node(.sampling(mode), inputs: [node], extent: extent, isOpaque: isOpaque))
    }

    /// The sampling mode transforms of this image use.
    var samplingMode: SamplingMode {
        var n = node
        while true {
            switch n.op {
            case .sampling(let m): return m
            case .crop, .intermediate: n = n.inputs[0]
            default: return .linear
            }
        }
    }

    /// An image of infinite extent that repeats the edge pixels of this image outwards.
    ///
    /// Blur an image without dark edges with `image.clampedToExtent().<blur>.cropped(to: image.extent)`.
    public func clampedToExtent() -> Image {
        if extent.isInfinite || extent.isEmpty { return self }
        return Image(node: Node(.clamp(extent), inputs: [node], extent: .infinite, isOpaque: isOpaque))
    }

    /// The image cropped to `rect`, then clamped to its new extent.
    public func clamped(to rect: Rect) -> Image { cropped(to: rect).clampedToExtent() }

    /// The rectangle of `image` (an image this one was built from) needed to render `rect` of this image,
    /// or ``Rect/null`` when `image` is not part of this recipe.
    public func regionOfInterest(for image: Image, in rect: Rect) -> Rect {
        RegionOfInterest.compute(root: node, rect: rect)[image.node.id]?.rect ?? .null
    }
}
