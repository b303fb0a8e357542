import LuxPixels

/// Memory one worker thread uses while rendering tiles: planar scratch registers, interleaving scratch, and reusable
/// blocks for intermediates.
///
/// Owned by one thread at a time; reused across renders.
final class Worker {
    /// Pixels per register (the longest row span a program evaluates at once).
    let chunk: Int
    private(set) var registers: UnsafeMutablePointer<Float>
    private(set) var registerCount: Int
    private var top = 0
    /// Scratch for leaves and heads (`4 · chunk` floats).
    let scratch: UnsafeMutablePointer<Float>
    /// Scratch for row stores (`4 · chunk` floats).
    let storeScratch: UnsafeMutablePointer<Float>
    /// Scratch for warp coordinates (`2 · chunk` floats).
    let coordinates: UnsafeMutablePointer<Float>
    /// Scratch for the indices of warp and affine positions sampled outside a region (`chunk` of them).
    let outside: UnsafeMutablePointer<Int32>
    let arena = BufferArena()
    var stats = RenderStatistics()
    /// Source pixels read, per source index of the current plan.
    var sourceReads: [PixelRect] = []

    init(chunk: Int, registers count: Int) {
        self.chunk = chunk
        registerCount = max(count, 1)
        registers = .allocate(capacity: registerCount * 4 * chunk)
        registers.initialize(repeating: 0, count: registerCount * 4 * chunk)
        scratch = .allocate(capacity: 4 * chunk)
        storeScratch = .allocate(capacity: 4 * chunk)
        coordinates = .allocate(capacity: 2 * chunk)
        outside = .allocate(capacity: chunk)
    }

    deinit {
        registers.deallocate()
        scratch.deallocate()
        storeScratch.deallocate()
        coordinates.deallocate()
        outside.deallocate()
    }

    /// Makes room for at least `count` registers (only between renders).
    func ensureRegisters(_ count: Int) {
        guard count > registerCount else { return }
        registers.deallocate()
        registerCount = count
        registers = .allocate(capacity: registerCount * 4 * chunk)
        registers.initialize(repeating: 0, count: registerCount * 4 * chunk)
    }

    /// Register 0, the row every program evaluates into.
    var root: UnsafeMutablePointer<Float> { registers }

    /// Reserves `count` consecutive registers above those in use; returns the first.
    func push(_ count: Int) -> UnsafeMutablePointer<Float> {
        precondition(top + 1 + count <= registerCount, "register stack overflow (\(registerCount) registers)")
        let p = registers + (top + 1) * 4 * chunk
        top += count
        return p
    }

    /// Releases the last `count` registers.
    func pop(_ count: Int) { top -= count }

    /// Resets per-render state.
    func beginRender(sources: Int) {
        top = 0
        stats = RenderStatistics()
        sourceReads = Array(repeating: .empty, count: sources)
    }
}
