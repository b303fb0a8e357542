import CLuxSystem
import Dispatch
import Synchronization

/// Splits row-parallel work into bands across threads.
package enum Parallel {
    /// The number of threads to use when the caller does not say: the active processor count.
    package static let defaultThreadCount: Int = max(1, Int(lux_cpu_count()))

    /// Runs `body` over `0..<count` split into contiguous bands, on up to `threads` threads.
    ///
    /// With one thread (or little work) it runs inline. Bands are chosen so each thread gets about
    /// `bandsPerThread` of them, handed out in order to whichever thread is free, which balances uneven rows
    /// and threads slowed by other work.
    package static func forEachBand(
        _ count: Int, threads: Int, minimumBand: Int = 16, bandsPerThread: Int = 4,
        _ body: @Sendable (Range<Int>) -> Void
    ) {
        guard count > 0 else { return }
        let t = max(1, threads)
        if t == 1 || count <= minimumBand {
            body(0..<count)
            return
        }
        let bands = max(1, min(t * bandsPerThread, (count + minimumBand - 1) / minimumBand))
        let per = (count + bands - 1) / bands
        let n = (count + per - 1) / per
        if t >= n {
            DispatchQueue.concurrentPerform(iterations: n) { i in
                body(i * per..<min(count, (i + 1) * per))
            }
        } else {
            // `t` workers, each taking the next band as it finishes one: a worker slowed by other load on the
            // machine takes fewer bands instead of holding up the rest.
            let next = Atomic<Int>(0)
            DispatchQueue.concurrentPerform(iterations: t) { _ in
                while true {
                    let i = next.wrappingAdd(1, ordering: .relaxed).oldValue
                    guard i < n else { return }
                    body(i * per..<min(count, (i + 1) * per))
                }
            }
        }
    }
}
