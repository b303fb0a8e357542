import Synchronization

/// A first-come-first-served exclusive section for async tasks: a caller takes a ticket synchronously (which
/// fixes its place in line) and later waits for its turn.
final class AsyncTurnstile: Sendable {
    private struct State {
        var nextTicket: UInt64 = 0
        var serving: UInt64 = 0
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = Mutex(State())

    /// Takes the next place in line.
    func reserve() -> UInt64 {
        state.withLock { s in
            defer { s.nextTicket += 1 }
            return s.nextTicket
        }
    }

    /// Waits until `ticket` is served (every earlier ticket has called ``release()``).
    func wait(for ticket: UInt64) async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { s -> Bool in
                if s.serving == ticket { return true }
                s.waiters[ticket] = c
                return false
            }
            if resumeNow { c.resume() }
        }
    }

    /// Ends the current turn and serves the next ticket.
    func release() {
        let next = state.withLock { s -> CheckedContinuation<Void, Never>? in
            s.serving += 1
            return s.waiters.removeValue(forKey: s.serving)
        }
        next?.resume()
    }
}

/// A budget of units (buffers, frames) that tasks take and give back; a task that needs more than is free waits.
final class AsyncBudget: Sendable {
    private struct State {
        var available: Int
        var waiters: [(units: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state: Mutex<State>
    /// The total.
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        state = Mutex(State(available: capacity))
    }

    /// Takes `units` (at most the capacity), waiting in line until they are free.
    func acquire(_ units: Int) async {
        let n = min(units, capacity)
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            let now = state.withLock { s -> Bool in
                if s.waiters.isEmpty && s.available >= n {
                    s.available -= n
                    return true
                }
                s.waiters.append((n, c))
                return false
            }
            if now { c.resume() }
        }
    }

    /// Gives back `units`.
    func release(_ units: Int) {
        let n = min(units, capacity)
        let ready = state.withLock { s -> [CheckedContinuation<Void, Never>] in
            s.available += n
            var out: [CheckedContinuation<Void, Never>] = []
            while let first = s.waiters.first, first.units <= s.available {
                s.available -= first.units
                out.append(first.continuation)
                s.waiters.removeFirst()
            }
            return out
        }
        for c in ready { c.resume() }
    }

    /// Units free now.
    var available: Int { state.withLock { $0.available } }
}
