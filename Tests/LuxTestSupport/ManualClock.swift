import Synchronization

/// A clock that stands still until a test advances it, for timing behaviour without real waiting.
///
/// Code under test sleeps on it as on any `Clock`; ``advance(by:)`` moves the time and wakes every sleeper whose
/// deadline has come, earliest first. ``sleepers(atLeast:timeout:)`` lets a test wait until the code it drives has
/// gone to sleep again, so each step starts from a known state:
///
/// ```swift
/// let clock = ManualClock()
/// let session = CaptureSession(clock: clock)
/// // … start the session; its scene monitor sleeps for one frame duration …
/// try #require(await clock.sleepers(atLeast: 1))
/// clock.advance(by: .seconds(1) / 30)     // the monitor wakes, meters a frame, sleeps again
/// try #require(await clock.sleepers(atLeast: 1))
/// ```
public final class ManualClock: Clock, Sendable {
    /// A point in time on a ``ManualClock``: the time it has been advanced by since it was created.
    public struct Instant: InstantProtocol {
        /// The time since the clock was created.
        public var offset: Duration

        /// The instant `offset` after the clock was created.
        public init(offset: Duration) { self.offset = offset }

        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    /// A sleep call: registered but not yet suspended, suspended until a deadline, or cancelled before it suspended.
    private enum Sleeper {
        case starting
        case waiting(deadline: Instant, continuation: CheckedContinuation<Void, any Error>)
        case cancelled
    }

    private struct State {
        var now = Instant(offset: .zero)
        var nextID = 0
        var sleepers: [Int: Sleeper] = [:]
        /// Tests waiting for a number of suspended sleepers, by ID.
        var observers: [Int: (count: Int, continuation: CheckedContinuation<Bool, Never>)] = [:]
        /// Observers whose time ran out before they were registered.
        var timedOut: Set<Int> = []

        var waitingCount: Int {
            sleepers.values.count { if case .waiting = $0 { true } else { false } }
        }

        /// Removes and returns the observers whose count of sleepers is reached.
        mutating func satisfiedObservers() -> [CheckedContinuation<Bool, Never>] {
            let n = waitingCount
            let ready = observers.filter { $0.value.count <= n }
            for id in ready.keys { observers[id] = nil }
            return ready.values.map(\.continuation)
        }
    }

    private let state = Mutex(State())

    /// Creates a clock at offset zero.
    public init() {}

    public var now: Instant { state.withLock { $0.now } }

    /// Zero: the clock moves only by the amounts it is advanced by.
    public var minimumResolution: Duration { .zero }

    /// How many calls to ``sleep(until:tolerance:)`` are suspended.
    public var sleeperCount: Int { state.withLock { $0.waitingCount } }

    /// The earliest deadline of the suspended sleepers.
    public var nextDeadline: Instant? {
        state.withLock { s in
            s.sleepers.values.compactMap { if case .waiting(let d, _) = $0 { d } else { nil } }.min()
        }
    }

    /// Suspends until the clock has been advanced to `deadline` (at once when it has been already).
    ///
    /// - Throws: `CancellationError` when the task is cancelled first.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { s in
            defer { s.nextID += 1 }
            s.sleepers[s.nextID] = .starting
            return s.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (c: CheckedContinuation<Void, any Error>) in
                enum Outcome {
                    case cancelled, due
                    case suspended([CheckedContinuation<Bool, Never>])
                }
                let outcome = state.withLock { s -> Outcome in
                    if case .cancelled? = s.sleepers[id] {
                        s.sleepers[id] = nil
                        return .cancelled
                    }
                    if deadline <= s.now {
                        s.sleepers[id] = nil
                        return .due
                    }
                    s.sleepers[id] = .waiting(deadline: deadline, continuation: c)
                    return .suspended(s.satisfiedObservers())
                }
                switch outcome {
                case .cancelled: c.resume(throwing: CancellationError())
                case .due: c.resume()
                case .suspended(let observers): for o in observers { o.resume(returning: true) }
                }
            }
        } onCancel: {
            let waiting = state.withLock { s -> CheckedContinuation<Void, any Error>? in
                switch s.sleepers[id] {
                case .starting?:
                    s.sleepers[id] = .cancelled
                    return nil
                case .waiting(_, let c)?:
                    s.sleepers[id] = nil
                    return c
                case .cancelled?, nil:
                    return nil
                }
            }
            waiting?.resume(throwing: CancellationError())
        }
    }

    /// Moves the time forward by `duration` and wakes the sleepers whose deadline has come, earliest first.
    public func advance(by duration: Duration) {
        precondition(duration >= .zero, "a clock cannot go back")
        move { $0.advanced(by: duration) }
    }

    /// Moves the time forward to `instant` (it stays where it is when it is past `instant` already) and wakes the
    /// sleepers whose deadline has come, earliest first.
    public func advance(to instant: Instant) {
        move { max($0, instant) }
    }

    private func move(_ time: (Instant) -> Instant) {
        let due = state.withLock { s -> [CheckedContinuation<Void, any Error>] in
            s.now = time(s.now)
            var due: [(deadline: Instant, id: Int, continuation: CheckedContinuation<Void, any Error>)] = []
            for (id, sleeper) in s.sleepers {
                if case .waiting(let deadline, let c) = sleeper, deadline <= s.now { due.append((deadline, id, c)) }
            }
            for d in due { s.sleepers[d.id] = nil }
            return due.sorted { ($0.deadline, $0.id) < ($1.deadline, $1.id) }.map(\.continuation)
        }
        for c in due { c.resume() }
    }

    /// Suspends until at least `count` calls to ``sleep(until:tolerance:)`` are suspended.
    ///
    /// `timeout` is real time, a guard against a hang: code that never goes to sleep again (a bug) makes this return
    /// `false` after it instead of waiting forever.
    ///
    /// - Returns: Whether `count` sleepers were suspended before `timeout`.
    public func sleepers(atLeast count: Int, timeout: Duration = .seconds(60)) async -> Bool {
        let id = state.withLock { s in
            defer { s.nextID += 1 }
            return s.nextID
        }
        let watchdog = Task { [weak self] in
            try await Task.sleep(for: timeout)
            self?.timeOut(observer: id)
        }
        defer { watchdog.cancel() }
        return await withCheckedContinuation { (c: CheckedContinuation<Bool, Never>) in
            let ready = state.withLock { s -> Bool? in
                if s.timedOut.remove(id) != nil { return false }
                if s.waitingCount >= count { return true }
                s.observers[id] = (count, c)
                return nil
            }
            if let ready { c.resume(returning: ready) }
        }
    }

    private func timeOut(observer id: Int) {
        let observer = state.withLock { s in
            guard let o = s.observers.removeValue(forKey: id) else {
                s.timedOut.insert(id)
                return nil as CheckedContinuation<Bool, Never>?
            }
            return o.continuation
        }
        observer?.resume(returning: false)
    }
}
