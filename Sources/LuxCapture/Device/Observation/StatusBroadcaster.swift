import Synchronization

/// Fans status snapshots out to async-sequence observers; each observer sees the current value first and then
/// every change of its property.
final class StatusBroadcaster: Sendable {
    private let observers = Mutex<[UInt64: @Sendable (DeviceStatus) -> Void]>([:])
    private let nextID = Atomic<UInt64>(0)

    func publish(_ status: DeviceStatus) {
        let list = observers.withLock { Array($0.values) }
        for o in list { o(status) }
    }

    func stream<Value: Sendable & Equatable>(
        of property: DeviceProperty<Value>, current: DeviceStatus
    ) -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream<Value>.makeStream(bufferingPolicy: .bufferingNewest(256))
        let id = nextID.add(1, ordering: .relaxed).newValue
        let last = Mutex<Value?>(nil)
        let observer: @Sendable (DeviceStatus) -> Void = { status in
            let v = property.read(status)
            let changed = last.withLock { old -> Bool in
                if old == v { return false }
                old = v
                return true
            }
            if changed { continuation.yield(v) }
        }
        observers.withLock { $0[id] = observer }
        continuation.onTermination = { [weak self] _ in
            _ = self?.observers.withLock { $0.removeValue(forKey: id) }
        }
        observer(current)
        return stream
    }
}
