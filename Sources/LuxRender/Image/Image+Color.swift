public import LuxColor
public import LuxPixels

extension Image {
    /// The image converted from `colorSpace` into the render's working space (for data produced in
    /// another space, for example by an ``ImageProcessor``).
    public func matchedToWorkingSpace(from colorSpace: ColorSpace) -> Image {
        Image(node: Node(.matchToWorking(colorSpace), inputs: [node], extent: extent, isOpaque: isOpaque))
    }

    /// The image converted from the render's working space into `colorSpace` (for a processor or kernel
    /// that needs its input in a particular space).
    public func matchedFromWorkingSpace(to colorSpace: ColorSpace) -> Image {
        Image(node: Node(.matchFromWorking(colorSpace), inputs: [node], extent: extent, isOpaque: isOpaque))
    }

    /// The image with colour multiplied by alpha (for data that was straight).
    public func premultiplied() -> Image {
        Image(node: Node(.premultiply, inputs: [node], extent: extent, isOpaque: isOpaque))
    }

    /// The image with colour divided by alpha (straight colour; transparent pixels become black).
    public func unpremultiplied() -> Image {
        Image(node: Node(.unpremultiply, inputs: [node], extent: extent, isOpaque: isOpaque))
    }

    /// The image with alpha set to 1 everywhere in its extent.
    public func settingAlphaOne() -> Image {
        if isOpaque { return self }
        return Image(node: Node(.setAlphaOne, inputs: [node], extent: extent, isOpaque: true))
    }

    /// This image composited over `background` (Porter–Duff source-over on premultiplied colour); the
    /// extent is the union of both extents.
    public func composited(over background: Image) -> Image {
        if background.extent.isEmpty { return self }
        if extent.isEmpty { return background }
        return ColorKernel.sourceOver.apply(
            extent: extent.union(background.extent), inputs: [self, background])
    }

    /// A point in the recipe where the engine materialises the image (tile by tile) in the working format and, when
    /// `cache` is true, keeps the result for later renders with the same context (as long as the context's cache
    /// budget allows).
    ///
    /// Useful before an expensive step that is rendered repeatedly.
    public func insertingIntermediate(cache: Bool = true) -> Image {
        Image(node: Node(.intermediate(cache: cache), inputs: [node], extent: extent, isOpaque: isOpaque))
    }
}

extension ColorKernel {
    /// Porter–Duff source-over: `result = source + background · (1 − source.alpha)` (premultiplied).
    static let sourceOver = ColorKernel(name: "sourceOver", inputCount: 2) { row in
        let s = row.pixels
        let d = row.input(1)
        for i in 0..<row.count {
            let k = 1 - s.alpha[i]
            s.red[i] = s.red[i] + d.red[i] * k
            s.green[i] = s.green[i] + d.green[i] * k
            s.blue[i] = s.blue[i] + d.blue[i] * k
            s.alpha[i] = s.alpha[i] + d.alpha[i] * k
        }
    }
}

extension Image {
    /// Applies a processor to this image alone.
    public func applying(_ processor: ImageProcessor, extent: Rect) -> Image {
        processor.apply(to: [self], extent: extent)
    }
}
