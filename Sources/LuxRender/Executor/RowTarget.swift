import LuxColor
import LuxPixels

/// Where a program's rows go: the destination or an intermediate buffer.
struct RowTarget {
    let base: UnsafeMutableRawPointer
    let bytesPerRow: Int
    let originX: Int
    let originY: Int
    let format: PixelFormat
    let quantize: PixelFormat?
    /// Whether rows go to memory that is not read again soon (the destination): stores bypass the cache.
    var streaming = false
    /// A final colour match folded into an 8-bit store (see ``Plan/outputMatch``).
    var converter: ColorConverter? = nil
    /// The arrangement of the rows; for planar rows, floats from one plane of a row to the next.
    var layout: PixelLayout = .interleaved
    var planeStride = 0

    /// The first byte of pixel (`x`, `y`) (of its red value for planar rows).
    func pointer(x: Int, y: Int) -> UnsafeMutableRawPointer {
        base + (y - originY) * bytesPerRow + (x - originX) * layout.pixelStride(format)
    }

    /// The planes of `n` pixels from (`x`, `y`) of planar rows: programs evaluate straight into them.
    func planes(x: Int, y: Int, count n: Int) -> PlanarPixels {
        PlanarPixels(base: pointer(x: x, y: y).assumingMemoryBound(to: Float.self), stride: planeStride, count: n)
    }

    @inline(__always)
    func store(_ p: PlanarPixels, _ y: Int, _ x: Int, _ n: Int, _ w: Worker) {
        if let q = quantize { PixelIO.quantize(p, count: n, to: q, scratch: w.storeScratch) }
        if layout == .planarRows { return }  // evaluated in place
        let dst = pointer(x: x, y: y)
        if let converter {
            converter.convert(
                red: p.red, green: p.green, blue: p.blue, alpha: p.alpha,
                rgba8: dst.assumingMemoryBound(to: UInt8.self), count: n)
            return
        }
        PixelIO.store(p, count: n, format: format, to: dst, scratch: w.storeScratch, streaming: streaming)
    }
}
