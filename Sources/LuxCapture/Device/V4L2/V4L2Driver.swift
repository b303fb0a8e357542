/// The operating-system boundary of ``V4L2Camera``: the calls it makes on a `/dev/video*` node.
///
/// ``SystemV4L2Driver`` makes the real `open`, `ioctl`, `mmap`, `poll` and `clock_gettime` calls; tests inject a
/// driver that plays the kernel's part (the swift-system mocking pattern), so streaming, format changes, controls,
/// unplugging and a busy device are tested without hardware.
public protocol V4L2Driver: Sendable {
    /// The device nodes present (`/dev/video0`, …).
    func deviceNodes() -> [String]
    /// Opens a node read-write and non-blocking; returns a descriptor or a negative errno.
    func open(_ path: String) -> Int32
    /// Closes a descriptor.
    func close(_ fd: Int32)
    /// Performs `ioctl(fd, request, argument)` on `argument.count` bytes; returns 0 or an errno.
    func ioctl(_ fd: Int32, _ request: UInt, _ argument: inout [UInt8]) -> Int32
    /// Maps the buffer memory that VIDIOC_QUERYBUF described with `length` and `offset` (`m.offset`).
    ///
    /// - Throws: ``CaptureError/systemCall(name:errno:)`` when the mapping fails.
    func map(_ fd: Int32, length: Int, offset: Int) throws(CaptureError) -> UnsafeMutableRawPointer
    /// Unmaps memory ``map(_:length:offset:)`` returned.
    func unmap(_ address: UnsafeMutableRawPointer, length: Int)
    /// Waits until a buffer can be dequeued or the device reports an error, for at most `timeout`; an empty
    /// result means the time ran out.
    func poll(_ fd: Int32, timeout: Duration) -> V4L2Readiness
    /// The time on CLOCK_MONOTONIC, the clock of buffer timestamps.
    func monotonicTime() -> Duration
}

/// What `poll(2)` reported for a video node.
public struct V4L2Readiness: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// POLLIN: a filled buffer waits in the outgoing queue.
    public static let readable = Self(rawValue: 1)
    /// POLLERR: not streaming, no buffer queued, or a device error.
    public static let error = Self(rawValue: 2)
    /// POLLHUP: the device is gone.
    public static let hangUp = Self(rawValue: 4)
}
