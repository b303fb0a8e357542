import Dispatch
import LuxPixels
import Synchronization

/// Runs CPU-heavy synchronous work (developing, merging, encoding) on a thread of its own instead of a thread of
/// Swift's cooperative pool, so event delivery and other tasks keep running while a photo is processed.
///
/// Not a dispatch pool thread: the work renders with `concurrentPerform`, which runs serially when called from
/// one (see `DetachedThread`). At most one job per processor runs at a time, so a queue of captures does not
/// hold every photo's buffers at once. The work closure (and the frames it captures) is released before the
/// caller resumes, so a caller that then returns its frame budget really has no frame left.
func offloaded<T: Sendable>(_ work: @escaping @Sendable () throws(CaptureError) -> T) async throws(CaptureError) -> T {
    let job = OffloadedJob(work)
    let result: Result<T, CaptureError> = await withCheckedContinuation { continuation in
        DetachedThread.detach {
            offloadSlots.wait()
            let result = job.run()
            offloadSlots.signal()
            continuation.resume(returning: result)
        }
    }
    return try result.get()
}

/// The processors available to offloaded jobs.
private let offloadSlots = DispatchSemaphore(value: Parallel.defaultThreadCount)

/// Work that runs once and lets go of its closure as soon as it has run.
private final class OffloadedJob<T: Sendable>: Sendable {
    private let work: Mutex<(@Sendable () throws(CaptureError) -> T)?>

    init(_ work: @escaping @Sendable () throws(CaptureError) -> T) { self.work = Mutex(work) }

    func run() -> Result<T, CaptureError> {
        guard
            let body = work.withLock({ w in
                defer { w = nil }
                return w
            })
        else {
            return .failure(.processing("an offloaded job ran twice"))
        }
        do throws(CaptureError) {
            return .success(try body())
        } catch {
            return .failure(error)
        }
    }
}
