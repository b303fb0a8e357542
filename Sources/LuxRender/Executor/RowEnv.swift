import LuxPixels

/// A materialised region of an intermediate, in memory owned by a worker's arena or by the cache.
struct SlotBuffer {
    var base: UnsafeMutableRawPointer
    var bytesPerRow: Int
    var region: PixelRect
    var format: PixelFormat
    var arenaBlock: BufferArena.Block?
    var cached: CachedBuffer?

    static var none: SlotBuffer {
        SlotBuffer(
            base: UnsafeMutableRawPointer(bitPattern: 64)!, bytesPerRow: 0, region: .empty, format: .rgbaFloat,
            arenaBlock: nil, cached: nil)
    }

    /// The first byte of pixel `(x, y)`.
    func pointer(x: Int, y: Int) -> UnsafeMutableRawPointer {
        base + (y - region.minY) * bytesPerRow + (x - region.minX) * format.bytesPerPixel()
    }
}

/// What row operations of one program see while evaluating rows of one tile.
struct RowEnv {
    let worker: Worker
    /// The program's materialised slots.
    let slots: UnsafePointer<SlotBuffer>
    /// A sampler per slot (meaningful for `rgbaFloat` slots).
    let samplers: UnsafePointer<Sampler>
}
