import Synchronization

/// Float scratch blocks that the scene renderer's band streams hand back for the next band, frame or exposure.
///
/// A layer's batch of finished rows takes a couple of megabytes (32 rows of its card), above the allocator's map
/// threshold: allocated afresh for every layer of every band, each of its pages cost a fault and a clear on first
/// write (about 135 000 faults over `lux demo`'s preview frames). Blocks below ``minimumCount`` floats come from the
/// allocator's heap anyway and are not kept; idle blocks beyond ``idleLimit`` bytes are freed.
final class ScratchPool: Sendable {
    /// The pool the scene renderer uses.
    static let shared = ScratchPool(idleLimit: 16 << 20)

    private struct Block: @unchecked Sendable {
        // @unchecked: an idle block belongs to the pool's lock; a taken one to the stream that took it.
        let pointer: UnsafeMutablePointer<Float>
        let capacity: Int
    }

    /// The most idle bytes kept.
    let idleLimit: Int
    /// Blocks of fewer floats (128 KiB) are allocated and freed directly.
    static let minimumCount = 32 << 10
    private let idle = Mutex<(blocks: [Block], bytes: Int)>(([], 0))

    init(idleLimit: Int) { self.idleLimit = idleLimit }

    deinit { for b in idle.withLock({ $0.blocks }) { b.pointer.deallocate() } }

    /// Bytes of the idle blocks kept.
    var idleBytes: Int { idle.withLock { $0.bytes } }

    /// A block of at least `count` floats (contents unspecified): an idle one of at most twice that when there is one.
    func take(_ count: Int) -> (pointer: UnsafeMutablePointer<Float>, capacity: Int) {
        if count >= Self.minimumCount, let reused = idleBlock(for: count) { return (reused.pointer, reused.capacity) }
        return (.allocate(capacity: max(count, 1)), max(count, 1))
    }

    /// Removes and returns the smallest idle block of `count` to `2 · count` floats, if there is one.
    private func idleBlock(for count: Int) -> Block? {
        idle.withLock { state -> Block? in
            var best: Int?
            for (i, b) in state.blocks.enumerated() where b.capacity >= count && b.capacity <= 2 * count {
                if best == nil || b.capacity < state.blocks[best!].capacity { best = i }
            }
            guard let best else { return nil }
            state.bytes -= state.blocks[best].capacity * MemoryLayout<Float>.stride
            return state.blocks.remove(at: best)
        }
    }

    /// Hands back a block from ``take(_:)``; it is freed when the pool already holds ``idleLimit`` idle bytes.
    func give(_ pointer: UnsafeMutablePointer<Float>, capacity: Int) {
        guard capacity >= Self.minimumCount else {
            pointer.deallocate()
            return
        }
        let bytes = capacity * MemoryLayout<Float>.stride
        let kept = idle.withLock { state -> Bool in
            guard state.bytes + bytes <= idleLimit else { return false }
            state.blocks.append(Block(pointer: pointer, capacity: capacity))
            state.bytes += bytes
            return true
        }
        if !kept { pointer.deallocate() }
    }
}
