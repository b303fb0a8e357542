import Glibc
import LuxPixels

/// Reusable memory blocks for per-tile intermediates (a small free list, no zeroing).
final class BufferArena {
    struct Block {
        let pointer: UnsafeMutableRawPointer
        let capacity: Int
        /// The memory map holding the block (its start and length: larger than the block when it is aligned for
        /// huge pages).
        let mapping: (base: UnsafeMutableRawPointer, length: Int)
    }
    private var free: [Block] = []
    private(set) var allocatedBytes = 0

    /// A block of at least `bytes` bytes (contents unspecified).
    func acquire(_ bytes: Int) -> Block {
        var best = -1
        for (i, b) in free.enumerated() where b.capacity >= bytes {
            if best < 0 || b.capacity < free[best].capacity { best = i }
        }
        if best >= 0 {
            idleBytes -= free[best].capacity
            note(inUse: free[best].capacity)
            return free.remove(at: best)
        }
        // Round up (64 KiB steps for small blocks, 1 MiB for large ones) so that tiles of slightly different
        // sizes — edge tiles, growing ROIs — reuse the same blocks instead of mapping (and zero-filling) new ones.
        let step = bytes >= 1 << 20 ? 1 << 20 : 1 << 16
        let capacity = max((bytes + step - 1) & ~(step - 1), 1 << 16)
        allocatedBytes += capacity
        note(inUse: capacity)
        return Self.map(capacity)
    }

    /// Idle bytes always allowed; beyond this and beyond the most this worker has had in use at once (what
    /// its tiles need), the smallest idle blocks are returned to the kernel.
    static let idleLimit = 4 << 20
    private var idleBytes = 0
    private var inUseBytes = 0
    private var peakInUseBytes = 0

    private func note(inUse bytes: Int) {
        inUseBytes += bytes
        peakInUseBytes = max(peakInUseBytes, inUseBytes)
    }

    func release(_ block: Block) {
        free.append(block)
        idleBytes += block.capacity
        inUseBytes -= block.capacity
        let keep = max(Self.idleLimit, peakInUseBytes)
        if idleBytes > keep { trim(keepBytes: keep) }
    }

    /// A block straight from the kernel (`mmap`), not from malloc.
    ///
    /// Malloc would keep freed tile-sized blocks in per-thread arenas, and workers run on whichever thread Dispatch
    /// provides. Large blocks are ``PageMapping``'s huge-page maps: a whole-image intermediate then costs a few page
    /// faults instead of one every 4 KiB.
    private static func map(_ bytes: Int) -> Block {
        if bytes >= PageMapping.threshold, let m = PageMapping.map(bytes) {
            return Block(pointer: m.bytes, capacity: bytes, mapping: (m.base, m.length))
        }
        guard let p = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), p != MAP_FAILED
        else {
            fatalError("out of memory: cannot map \(bytes) bytes for render intermediates")
        }
        return Block(pointer: p, capacity: bytes, mapping: (p, bytes))
    }

    private static func unmap(_ block: Block) {
        PageMapping.unmap(base: block.mapping.base, length: block.mapping.length)
    }

    /// Frees idle blocks beyond `keepBytes`.
    func trim(keepBytes: Int) {
        // Keep the largest blocks (they serve any request); return the small ones first.
        free.sort { $0.capacity > $1.capacity }
        var kept = 0
        var keep: [Block] = []
        for b in free {
            if kept + b.capacity <= keepBytes {
                kept += b.capacity
                keep.append(b)
            } else {
                Self.unmap(b)
                allocatedBytes -= b.capacity
            }
        }
        free = keep
        idleBytes = kept
    }

    deinit {
        for b in free { Self.unmap(b) }
    }
}
