public import LuxPixels

/// A band of rendered rows handed to a streaming render's consumer.
///
/// See ``RenderContext/render(_:bounds:format:colorSpace:rowsPerStrip:rows:)``.
public struct RenderedStrip: Sendable {
    /// The rows of the output held by ``buffer`` (0 is the first row of the rendered bounds).
    public let rows: Range<Int>
    /// The pixels: `width` × `rows.count`, in the requested format and colour space.
    public let buffer: PixelBuffer
    /// The total number of rows being rendered.
    public let totalRows: Int
}
