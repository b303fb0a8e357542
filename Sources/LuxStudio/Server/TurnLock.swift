/// A first-come, first-served lock for async code: ``acquire()`` waits until every earlier holder has called
/// ``release()``.
///
/// Actors alone do not serialise work that suspends (another call may run at each `await`); the camera's commands
/// and a WebSocket's outgoing messages (a binary message may span several frames) need whole turns.
actor TurnLock {
    private var isHeld = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Waits for the lock, then holds it.
    func acquire() async {
        if isHeld {
            await withCheckedContinuation { waiting.append($0) }
        } else {
            isHeld = true
        }
    }

    /// Hands the lock to the next waiter, or frees it.
    func release() {
        if waiting.isEmpty { isHeld = false } else { waiting.removeFirst().resume() }
    }
}
