import LuxPixels

/// A materialised region of an intermediate, in memory owned by a worker's arena or by the cache.
struct SlotBuffer {
    var base: UnsafeMutableRawPointer
    var bytesPerRow: Int
    var region: PixelRect
    var format: PixelFormat
    var arenaBlock: BufferArena.Block?
    var cached: CachedBuffer?
    var layout: PixelLayout = .interleaved

    /// The bytes a row of `width` pixels of `format` takes, rounded up so that every row starts on 64 bytes.
    static func bytesPerRow(width: Int, format: PixelFormat) -> Int {
        (width * format.bytesPerPixel() + 63) & ~63
    }

    static var none: SlotBuffer {
        SlotBuffer(
            base: UnsafeMutableRawPointer(bitPattern: 64)!, bytesPerRow: 0, region: .empty, format: .rgbaFloat,
            arenaBlock: nil, cached: nil)
    }

    /// The first byte of pixel `(x, y)` (of its red value for planar rows).
    func pointer(x: Int, y: Int) -> UnsafeMutableRawPointer {
        base + (y - region.minY) * bytesPerRow + (x - region.minX) * layout.pixelStride(format)
    }

    /// `part` (inside ``region``) of an interleaved buffer, in the same memory.
    func view(_ part: PixelRect) -> SlotBuffer {
        var v = self
        v.base = pointer(x: part.minX, y: part.minY)
        v.region = part
        return v
    }

    /// The whole buffer as a processor input.
    var processorInput: ImageProcessorInput {
        ImageProcessorInput(
            region: region.rect, format: format, layout: layout, baseAddress: UnsafeRawPointer(base),
            bytesPerRow: bytesPerRow, planeStride: region.width)
    }

    /// `part` of the buffer as a processor output.
    func processorOutput(_ part: PixelRect, scratch: ProcessorScratch?) -> ImageProcessorOutput {
        ImageProcessorOutput(
            region: part.rect, format: format, layout: layout, baseAddress: pointer(x: part.minX, y: part.minY),
            bytesPerRow: bytesPerRow, planeStride: region.width, scratch: scratch)
    }

    /// The planes of `n` pixels from `(x, y)` of a planar-rows buffer.
    func planes(x: Int, y: Int, count n: Int) -> PlanarPixels {
        PlanarPixels(base: pointer(x: x, y: y).assumingMemoryBound(to: Float.self), stride: region.width, count: n)
    }
}
