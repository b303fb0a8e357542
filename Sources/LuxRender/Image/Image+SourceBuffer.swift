public import LuxColor
public import LuxPixels

extension Image {
    /// The pixels and colour space of an image made by ``init(buffer:colorSpace:)`` and not changed since; `nil`
    /// for any other recipe.
    ///
    /// Lets a reduction read stored values directly where rendering them would only convert them back and forth
    /// (``ImageHistogram`` of a decoded 8-bit image in its own colour space).
    package var sourceBuffer: (buffer: PixelBuffer, colorSpace: ColorSpace?)? {
        guard case .source(let box, let space) = node.op else { return nil }
        return (box.buffer, space)
    }
}
