import CLuxSystem
import Glibc

/// The real V4L2 driver: `open(2)`, `ioctl(2)`, `mmap(2)`, `poll(2)` and `clock_gettime(2)` on `/dev/video*`.
public struct SystemV4L2Driver: V4L2Driver {
    /// Creates the system driver.
    public init() {}

    public func deviceNodes() -> [String] {
        (0..<64).map { "/dev/video\($0)" }.filter { access($0, F_OK) == 0 }
    }

    public func open(_ path: String) -> Int32 {
        let fd = Glibc.open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        return fd >= 0 ? fd : -errno
    }

    public func close(_ fd: Int32) { _ = Glibc.close(fd) }

    public func ioctl(_ fd: Int32, _ request: UInt, _ argument: inout [UInt8]) -> Int32 {
        argument.withUnsafeMutableBytes { lux_ioctl(fd, request, $0.baseAddress) }
    }

    public func map(_ fd: Int32, length: Int, offset: Int) throws(CaptureError) -> UnsafeMutableRawPointer {
        let address = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, off_t(offset))
        guard let address, address != MAP_FAILED else { throw .systemCall(name: "mmap", errno: errno) }
        return address
    }

    public func unmap(_ address: UnsafeMutableRawPointer, length: Int) { _ = munmap(address, length) }

    public func poll(_ fd: Int32, timeout: Duration) -> V4L2Readiness {
        let deadline = monotonicTime() + timeout
        while true {
            let left = deadline - monotonicTime()
            let ms = max(
                0, Int32(clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)
            )
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let n = Glibc.poll(&p, 1, ms)
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return .error }
            if n == 0 { return [] }
            var out: V4L2Readiness = []
            if p.revents & Int16(POLLIN) != 0 { out.insert(.readable) }
            if p.revents & Int16(POLLERR | POLLNVAL) != 0 { out.insert(.error) }
            if p.revents & Int16(POLLHUP) != 0 { out.insert(.hangUp) }
            return out
        }
    }

    public func monotonicTime() -> Duration {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return .seconds(t.tv_sec) + .nanoseconds(t.tv_nsec)
    }
}
