import LuxPixels
import LuxTestSupport
import Testing

@testable import LuxCapture

@Suite struct CaptureClockTests {
    @Test("A session reads the time from, and sleeps on, the clock it was given; cancellation reaches that clock")
    func wrapsTheGivenClock() async throws {
        let manual = ManualClock()
        manual.advance(by: .seconds(5))
        let session = CaptureSession(clock: manual)
        let t0 = session.clock.now
        manual.advance(by: .milliseconds(250))
        #expect(t0.duration(to: session.clock.now) == .milliseconds(250))
        let sleeper = Task { try await session.clock.sleep(until: t0.advanced(by: .seconds(1))) }
        try #require(await manual.sleepers(atLeast: 1))
        // 1 s after t0, which was 5 s after the manual clock started.
        #expect(manual.nextDeadline == ManualClock.Instant(offset: .seconds(6)))
        manual.advance(by: .milliseconds(749))
        #expect(manual.sleeperCount == 1)
        manual.advance(by: .milliseconds(1))
        try await sleeper.value
        let cancelled = Task { try await session.clock.sleep(for: .seconds(60)) }
        try #require(await manual.sleepers(atLeast: 1))
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        #expect(manual.sleeperCount == 0)
    }

    @Test("By default a session runs on the continuous clock")
    func continuousByDefault() {
        let session = CaptureSession()
        // The session's clock moves by itself, and an interval on it lies inside the continuous clock's around it.
        let outerStart = ContinuousClock.now
        let start = session.clock.now
        while start.duration(to: session.clock.now) < .microseconds(100), outerStart.duration(to: .now) < .seconds(1) {}
        let inner = start.duration(to: session.clock.now)
        let outer = outerStart.duration(to: .now)
        #expect(inner >= .microseconds(100) && inner <= outer, "\(inner) on the session's clock, \(outer) around it")
    }

    @Test("Media times convert to durations to the attosecond")
    func mediaTimes() {
        #expect(Duration(MediaTime(value: 3, timescale: 2)) == .milliseconds(1500))
        // 1/30 s = 33 333 333 333 333 333.3… as, rounded toward zero.
        #expect(
            Duration(MediaTime(value: 1, timescale: 30))
                == Duration(secondsComponent: 0, attosecondsComponent: 33_333_333_333_333_333))
    }
}
