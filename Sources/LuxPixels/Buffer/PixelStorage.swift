/// The allocation behind one or more ``PixelBuffer`` values (64-byte aligned).
///
/// When the last buffer referring to it goes away, the memory returns to its pool if it came from one.
final class PixelStorage {
    let bytes: UnsafeMutableRawPointer
    let byteCount: Int
    let recycler: PoolRecycler?

    /// Allocates `byteCount` zeroed bytes.
    init(byteCount: Int) {
        self.byteCount = byteCount
        bytes = UnsafeMutableRawPointer.allocate(byteCount: max(byteCount, 1), alignment: 64)
        bytes.initializeMemory(as: UInt8.self, repeating: 0, count: max(byteCount, 1))
        recycler = nil
    }

    /// Wraps memory handed out by a pool; it goes back to `recycler` on deinit.
    init(pooled bytes: UnsafeMutableRawPointer, byteCount: Int, recycler: PoolRecycler) {
        self.bytes = bytes
        self.byteCount = byteCount
        self.recycler = recycler
    }

    deinit {
        if let recycler {
            recycler.recycle(bytes)
        } else {
            bytes.deallocate()
        }
    }
}
