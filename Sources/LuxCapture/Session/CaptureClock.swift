/// The clock a ``CaptureSession`` measures and waits on: any `Clock` whose durations are `Duration`.
///
/// The session, its frame pump and its outputs read the time and sleep through this clock: scene monitoring meters
/// a frame once per frame duration, the pre-capture metering reuses a frame no older than two frame durations, a
/// ``MovieFileOutput`` recording keeps pace with it, and ``ResolvedPhotoSettings/photoProcessingTimeRange`` is
/// learned from capture times measured on it. By default it is the system's `ContinuousClock`; a test passes a
/// clock it advances itself, so that timing behaviour is exact and nothing waits for real time.
///
/// ```swift
/// let session = CaptureSession()                            // ContinuousClock
/// let simulated = CaptureSession(clock: someTestClock)      // any Clock<Duration>
/// let t0 = session.clock.now
/// let elapsed = t0.duration(to: session.clock.now)
/// ```
///
/// `CaptureClock` erases the wrapped clock's type. Its instants count from the moment it was created, so instants
/// of two different `CaptureClock` values cannot be compared.
public struct CaptureClock: Clock {
    /// A point in time on a ``CaptureClock``: the time since the clock was created.
    public struct Instant: InstantProtocol {
        /// The time since the clock was created.
        public let offset: Duration

        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }

        public func duration(to other: Instant) -> Duration { other.offset - offset }

        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let elapsed: @Sendable () -> Duration
    private let sleeper: @Sendable (Duration, Duration?) async throws -> Void

    /// The wrapped clock's resolution.
    public let minimumResolution: Duration

    /// Wraps `clock`; the new clock's origin is `clock`'s current instant.
    public init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let origin = clock.now
        elapsed = { origin.duration(to: clock.now) }
        sleeper = { offset, tolerance in
            try await clock.sleep(until: origin.advanced(by: offset), tolerance: tolerance)
        }
        minimumResolution = clock.minimumResolution
    }

    /// The current instant.
    public var now: Instant { Instant(offset: elapsed()) }

    /// Suspends until `deadline` on the wrapped clock.
    ///
    /// - Throws: `CancellationError` when the task is cancelled first.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try await sleeper(deadline.offset, tolerance)
    }
}
