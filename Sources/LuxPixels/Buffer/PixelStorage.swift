/// The allocation behind one or more ``PixelBuffer`` values (64-byte aligned when it owns the memory).
///
/// When the last buffer referring to it goes away, the memory returns to its pool if it came from one.
/// Large allocations (≥ 4 MiB) are anonymous memory maps (``PageMapping``).
///
/// Storage can also borrow read-only memory that another object owns (a memory-mapped file); it keeps that
/// owner alive, and buffers over it copy before any write.
final class PixelStorage {
    let bytes: UnsafeMutableRawPointer
    let byteCount: Int
    let recycler: PoolRecycler?
    /// The owner of borrowed, read-only memory (`nil` when this storage owns its memory).
    let owner: (any AnyObject & Sendable)?
    /// The memory this storage allocated itself (`nil` for pooled and borrowed memory).
    private let allocation: PageMapping.Allocation?

    /// Allocates `byteCount` zeroed bytes; `mapsPages` maps them (``PageMapping``) below the size threshold too.
    init(byteCount: Int, mapsPages: Bool = false) {
        self.byteCount = byteCount
        recycler = nil
        owner = nil
        let allocation = PageMapping.Allocation(byteCount: byteCount, mapsPages: mapsPages)
        self.allocation = allocation
        bytes = allocation.bytes
        if !allocation.isMapped { bytes.initializeMemory(as: UInt8.self, repeating: 0, count: max(byteCount, 1)) }
    }

    /// Wraps memory handed out by a pool; it goes back to `recycler` on deinit.
    init(pooled bytes: UnsafeMutableRawPointer, byteCount: Int, recycler: PoolRecycler) {
        self.bytes = bytes
        self.byteCount = byteCount
        self.recycler = recycler
        allocation = nil
        owner = nil
    }

    /// Borrows `byteCount` read-only bytes at `bytes`, which stay valid as long as `owner` lives.
    init(borrowing bytes: UnsafeRawPointer, byteCount: Int, owner: any AnyObject & Sendable) {
        self.bytes = UnsafeMutableRawPointer(mutating: bytes)
        self.byteCount = byteCount
        self.owner = owner
        recycler = nil
        allocation = nil
    }

    /// Whether the memory is borrowed and must not be written.
    var isReadOnly: Bool { owner != nil }

    deinit {
        if let recycler {
            recycler.recycle(bytes)
        } else {
            allocation?.release()
        }
    }
}
