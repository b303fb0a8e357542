#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The allocation behind one or more ``PixelBuffer`` values (64-byte aligned when it owns the memory).
///
/// When the last buffer referring to it goes away, the memory returns to its pool if it came from one.
/// Large allocations (≥ 4 MiB) are anonymous memory maps: the kernel hands them out already zeroed (no
/// memset pass) and, on Linux, backed by transparent huge pages where allowed, which removes most of the
/// page faults a full-size image would otherwise take on first touch (12 000 for a 12 MP RGBA8 buffer).
///
/// Storage can also borrow read-only memory that another object owns (a memory-mapped file); it keeps that
/// owner alive, and buffers over it copy before any write.
final class PixelStorage {
    let bytes: UnsafeMutableRawPointer
    let byteCount: Int
    let recycler: PoolRecycler?
    /// The owner of borrowed, read-only memory (`nil` when this storage owns its memory).
    let owner: (any AnyObject & Sendable)?
    /// The start and length of the memory map, for large allocations.
    private let mapping: (base: UnsafeMutableRawPointer, length: Int)?

    static let mappingThreshold = 4 << 20
    static let hugePageSize = 2 << 20

    /// Allocates `byteCount` zeroed bytes.
    init(byteCount: Int) {
        self.byteCount = byteCount
        recycler = nil
        owner = nil
        if byteCount >= Self.mappingThreshold, let m = Self.map(byteCount) {
            mapping = m
            // Align the start to a huge page so the whole buffer can use them.
            let address = Int(bitPattern: m.base)
            let aligned = (address + Self.hugePageSize - 1) & ~(Self.hugePageSize - 1)
            bytes = UnsafeMutableRawPointer(bitPattern: aligned)!
            return
        }
        mapping = nil
        bytes = UnsafeMutableRawPointer.allocate(byteCount: max(byteCount, 1), alignment: 64)
        bytes.initializeMemory(as: UInt8.self, repeating: 0, count: max(byteCount, 1))
    }

    /// Wraps memory handed out by a pool; it goes back to `recycler` on deinit.
    init(pooled bytes: UnsafeMutableRawPointer, byteCount: Int, recycler: PoolRecycler) {
        self.bytes = bytes
        self.byteCount = byteCount
        self.recycler = recycler
        self.mapping = nil
        owner = nil
    }

    /// Borrows `byteCount` read-only bytes at `bytes`, which stay valid as long as `owner` lives.
    init(borrowing bytes: UnsafeRawPointer, byteCount: Int, owner: any AnyObject & Sendable) {
        self.bytes = UnsafeMutableRawPointer(mutating: bytes)
        self.byteCount = byteCount
        self.owner = owner
        recycler = nil
        mapping = nil
    }

    /// Whether the memory is borrowed and must not be written.
    var isReadOnly: Bool { owner != nil }

    private static func map(_ byteCount: Int) -> (base: UnsafeMutableRawPointer, length: Int)? {
        #if os(Linux)
            let length = byteCount + hugePageSize
            let p = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
            guard let p, p != MAP_FAILED else { return nil }
            _ = madvise(p, length, MADV_HUGEPAGE)
            return (p, length)
        #else
            return nil
        #endif
    }

    deinit {
        if owner != nil {
            return
        } else if let recycler {
            recycler.recycle(bytes)
        } else if let mapping {
            #if os(Linux)
                munmap(mapping.base, mapping.length)
            #endif
        } else {
            bytes.deallocate()
        }
    }
}
