import LuxPixels

/// How the components of an ``ImageProcessor``'s `.rgbaFloat` buffers are arranged within each row.
///
/// Row programs compute on planes (see ``PlanarPixels``). A processor that computes on planes too can ask for
/// ``planarRows`` buffers: the engine then moves rows between its programs and the processor with plain copies
/// (or writes them in place) instead of interleaving and deinterleaving every pixel, and a planar processor reading
/// another planar processor's output gets that output unconverted.
public enum PixelLayout: Sendable, Hashable {
    /// Pixel after pixel, each pixel's components together (`RGBARGBA…`): the layout of every ``PixelFormat``.
    case interleaved
    /// Plane after plane within each row: the row's red values, then its green, blue and alpha values
    /// (`RRR…GGG…BBB…AAA…`), each plane as many floats as the buffer is wide. Rows take the same bytes as
    /// interleaved `.rgbaFloat` rows. Only for ``PixelFormat/rgbaFloat``.
    case planarRows
}

extension PixelLayout {
    /// Bytes from one pixel to the next within a row of `format` (one float within a plane of planar rows).
    func pixelStride(_ format: PixelFormat) -> Int {
        self == .planarRows ? MemoryLayout<Float>.size : format.bytesPerPixel()
    }
}
