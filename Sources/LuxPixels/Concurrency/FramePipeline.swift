import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs the three stages of a movie pipeline at once: a sequential source (a decoder), a transform on several
/// threads (rendering and converting frames), and a sink that takes the results in order on the calling thread (an
/// encoder and a file).
///
/// At most `window` items are between the source and the end of the sink at any time, so the memory held is
/// `window` frames whatever the movie's length. The source and the workers run on threads of their own (see
/// ``DetachedThread``). The first error of any stage stops the others and is rethrown once every thread has
/// finished.
///
/// - Parameters:
///   - window: The most items in flight (at least `workers + 1` keeps every stage busy).
///   - workers: The transform's threads.
///   - source: The next item, `nil` at the end; called on one thread, one call at a time.
///   - transform: Makes the output of item `index`; called on the worker threads.
///   - sink: Takes the outputs in index order, on the calling thread.
package func runFramePipeline<Input: Sendable, Output: Sendable, E: Error>(
    window: Int, workers: Int, source: @escaping @Sendable () throws(E) -> Input?,
    transform: @escaping @Sendable (_ index: Int, Input) throws(E) -> Output,
    sink: (_ index: Int, Output) throws(E) -> Void
) throws(E) {
    let state = PipelineState<Input, Output, E>(window: max(1, window))
    var threads = [DetachedThread { state.runSource(source) }]
    for _ in 0..<max(1, workers) { threads.append(DetachedThread { state.runWorker(transform) }) }
    defer {
        state.stop()
        for t in threads { t.join() }
    }
    var index = 0
    while let output = try state.nextOutput(index) {
        do throws(E) {
            try sink(index, output)
        } catch {
            state.fail(error)
            throw error
        }
        state.consumed()
        index += 1
    }
}

/// ``runFramePipeline(window:workers:source:transform:sink:)`` over the items `0..<count`, known in advance.
package func runFramePipeline<Output: Sendable, E: Error>(
    count: Int, window: Int, workers: Int, transform: @escaping @Sendable (_ index: Int) throws(E) -> Output,
    sink: (_ index: Int, Output) throws(E) -> Void
) throws(E) {
    let cursor = IndexCursor(count: count)
    try runFramePipeline(
        window: window, workers: workers, source: { () throws(E) in cursor.next() },
        transform: { (index, _) throws(E) in try transform(index) }, sink: sink)
}

/// Hands out `0..<count`, one index per call.
private final class IndexCursor: Sendable {
    private let position = Mutex(0)
    private let count: Int

    init(count: Int) { self.count = count }

    func next() -> Int? {
        position.withLock { p in
            guard p < count else { return nil }
            p += 1
            return p - 1
        }
    }
}

/// The shared state of ``runFramePipeline(window:workers:source:transform:sink:)``, guarded by one lock.
private final class PipelineState<Input: Sendable, Output: Sendable, E: Error>: @unchecked Sendable {
    // @unchecked: every stored property is read and written with `monitor` held.
    private let monitor = Monitor()
    private let window: Int
    private var inputs: [Int: Input] = [:]
    private var outputs: [Int: Output] = [:]
    private var produced = 0
    private var total: Int?
    private var nextToTransform = 0
    private var consumedCount = 0
    private var error: E?
    private var stopped = false

    init(window: Int) { self.window = window }

    func runSource(_ source: () throws(E) -> Input?) {
        while true {
            let go = monitor.locked { () -> Bool in
                while !stopped && produced - consumedCount >= window { monitor.wait() }
                return !stopped
            }
            guard go else { return }
            let item: Input?
            do throws(E) { item = try source() } catch {
                fail(error)
                return
            }
            let done = monitor.locked { () -> Bool in
                defer { monitor.broadcast() }
                guard let item else {
                    total = produced
                    return true
                }
                inputs[produced] = item
                produced += 1
                return false
            }
            if done { return }
        }
    }

    func runWorker(_ transform: (Int, Input) throws(E) -> Output) {
        while true {
            let job = monitor.locked { () -> (Int, Input)? in
                while !stopped && nextToTransform >= produced && total == nil { monitor.wait() }
                guard !stopped, nextToTransform < produced, let input = inputs.removeValue(forKey: nextToTransform)
                else { return nil }
                nextToTransform += 1
                return (nextToTransform - 1, input)
            }
            guard let (index, input) = job else { return }
            do throws(E) {
                let output = try transform(index, input)
                monitor.locked {
                    outputs[index] = output
                    monitor.broadcast()
                }
            } catch {
                fail(error)
                return
            }
        }
    }

    /// Waits for output `index`; `nil` after the last.
    func nextOutput(_ index: Int) throws(E) -> Output? {
        let result = monitor.locked { () -> Result<Output?, E> in
            while error == nil && outputs[index] == nil && !(total.map { index >= $0 } ?? false) { monitor.wait() }
            if let error { return .failure(error) }
            return .success(outputs.removeValue(forKey: index))
        }
        return try result.get()
    }

    func consumed() {
        monitor.locked {
            consumedCount += 1
            monitor.broadcast()
        }
    }

    func fail(_ e: E) {
        monitor.locked {
            if error == nil { error = e }
            stopped = true
            monitor.broadcast()
        }
    }

    func stop() {
        monitor.locked {
            stopped = true
            monitor.broadcast()
        }
    }
}

/// A mutex with a condition variable (POSIX threads), for stages that wait on each other.
final class Monitor: @unchecked Sendable {
    // @unchecked: the pthread objects are used only through their own locking.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        condition.deallocate()
    }

    /// Runs `body` with the mutex held.
    func locked<R>(_ body: () -> R) -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    /// Waits for a broadcast (the mutex held, released while waiting).
    func wait() { pthread_cond_wait(condition, mutex) }

    /// Wakes every waiter.
    func broadcast() { pthread_cond_broadcast(condition) }
}
