#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A job on a thread of its own, outside libdispatch's pool, joined with ``join()``.
///
/// libdispatch sizes `concurrentPerform` by the pool threads that are free: called from a pool thread
/// (a `DispatchQueue.global().async` block) on a 2-core machine, it finds the other pool thread busy or
/// reserved and runs every iteration on the caller. A pipeline stage that itself renders in parallel
/// (the next strip of a streaming render, while the caller encodes the current one) therefore runs on
/// a plain thread, so its `concurrentPerform` gets the whole pool.
package final class DetachedThread: @unchecked Sendable {
    // @unchecked: `thread` is written once in `init` and read by `join()` on the creating thread.
    private var thread: pthread_t?

    /// Starts `body` on a new thread (or runs it inline when no thread can be created).
    package init(stackSize: Int = 8 << 20, _ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Job(body))
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, stackSize)
        var t = pthread_t()
        let status = pthread_create(
            &t, &attributes,
            { argument in
                guard let argument else { return nil }
                Unmanaged<Job>.fromOpaque(argument).takeRetainedValue().body()
                return nil
            }, box.toOpaque())
        if status == 0 {
            thread = t
        } else {
            box.release()
            body()
        }
    }

    /// Starts `body` on a new thread that nobody joins (it cleans up when `body` returns); heavy synchronous
    /// work handed over from Swift concurrency (through a continuation) goes here rather than to a dispatch
    /// pool thread, for the reason above.
    package static func detach(_ body: @escaping @Sendable () -> Void) {
        let job = DetachedThread(body)
        if let t = job.thread {
            job.thread = nil
            pthread_detach(t)
        }
    }

    /// Waits for the job to finish (at most once).
    package func join() {
        guard let t = thread else { return }
        thread = nil
        pthread_join(t, nil)
    }

    deinit { join() }

    private final class Job {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
}
