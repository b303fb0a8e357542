import Dispatch
import Synchronization

/// Runs CPU-heavy synchronous work (developing, merging, encoding, rendering a movie) from async code, on a thread
/// of its own rather than one of Swift's cooperative pool, so other tasks keep running meanwhile.
///
/// Not a dispatch pool thread either: the work renders with `concurrentPerform`, which runs serially when called
/// from one (see ``DetachedThread``). At most one job per processor runs at a time, so a queue of jobs does not hold
/// every job's buffers at once. The work closure (and whatever it captures) is released before the caller resumes,
/// so a caller that then gives back a budget for those buffers really holds none of them.
package func offloaded<T: Sendable, E: Error>(_ work: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
    let job = OffloadedJob(work)
    let result: Result<T, E> = await withCheckedContinuation { continuation in
        DetachedThread.detach {
            offloadSlots.wait()
            let result = job.run()
            offloadSlots.signal()
            // Handed over, not copied: this thread keeps no reference to the result after the caller resumes.
            continuation.resume(returning: consume result)
        }
    }
    return try result.get()
}

/// The processors available to offloaded jobs.
private let offloadSlots = DispatchSemaphore(value: Parallel.defaultThreadCount)

/// Work that runs once and lets go of its closure as soon as it has run.
private final class OffloadedJob<T: Sendable, E: Error>: Sendable {
    private let work: Mutex<(@Sendable () throws(E) -> T)?>

    init(_ work: @escaping @Sendable () throws(E) -> T) { self.work = Mutex(work) }

    /// Runs the work (once: `offloaded` calls this from its one thread).
    func run() -> Result<T, E> {
        let body = work.withLock { w in
            defer { w = nil }
            return w!
        }
        do throws(E) {
            return .success(try body())
        } catch {
            return .failure(error)
        }
    }
}
