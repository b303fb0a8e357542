import Synchronization

/// Fans values out to any number of async-sequence subscribers (each sees the values sent after it subscribed).
final class Broadcaster<Value: Sendable>: Sendable {
    private let subscribers = Mutex<[UInt64: AsyncStream<Value>.Continuation]>([:])
    private let nextID = Atomic<UInt64>(0)

    /// A new subscription, optionally starting with `initial`.
    func subscribe(initial: Value? = nil, buffering: Int = 64) -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream<Value>.makeStream(bufferingPolicy: .bufferingNewest(buffering))
        let id = nextID.add(1, ordering: .relaxed).newValue
        subscribers.withLock { $0[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.removeValue(forKey: id) }
        }
        if let initial { continuation.yield(initial) }
        return stream
    }

    /// Sends a value to every subscriber.
    func send(_ value: Value) {
        for c in subscribers.withLock({ Array($0.values) }) { c.yield(value) }
    }

    deinit {
        for c in subscribers.withLock({ Array($0.values) }) { c.finish() }
    }
}

/// A weak reference that can be stored in `Sendable` state.
struct WeakReference<Object: AnyObject & Sendable>: @unchecked Sendable {  // the reference itself is only read
    weak var object: Object?

    init(_ object: Object?) { self.object = object }
}
