import Synchronization

/// Workers kept between renders so their scratch memory and intermediate blocks are reused.
final class WorkerPool: Sendable {
    private let idle = Mutex<[WorkerHandle]>([])
    static let chunk = 512

    /// `count` workers with at least `registers` registers each.
    func take(_ count: Int, registers: Int) -> [Worker] {
        var out: [Worker] = idle.withLock { pool in
            let n = min(count, pool.count)
            let taken = pool.suffix(n).map(\.worker)
            pool.removeLast(n)
            return taken
        }
        while out.count < count { out.append(Worker(chunk: Self.chunk, registers: registers)) }
        for w in out { w.ensureRegisters(registers) }
        return out
    }

    /// Returns workers; their idle intermediate memory beyond `keepBytes` each is freed.
    func give(_ workers: [Worker], keepBytes: Int) {
        for w in workers { w.arena.trim(keepBytes: keepBytes) }
        idle.withLock { pool in pool.append(contentsOf: workers.map(WorkerHandle.init)) }
    }

    /// Frees the idle intermediate memory of parked workers beyond `keepBytes` each.
    func trimIdle(keepBytes: Int) {
        idle.withLock { pool in for h in pool { h.worker.arena.trim(keepBytes: keepBytes) } }
    }

    func removeAll() { idle.withLock { $0 = [] } }
}

/// A worker parked in the pool.
private struct WorkerHandle: @unchecked Sendable {
    // @unchecked: a parked worker is owned by the pool's lock; a render takes it out and uses it from one
    // thread at a time.
    let worker: Worker
}
