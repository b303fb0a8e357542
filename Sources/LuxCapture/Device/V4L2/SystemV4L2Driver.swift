import CLuxSystem
import Glibc

/// The real V4L2 driver: `open(2)`, `ioctl(2)`, `close(2)` on `/dev/video*`.
public struct SystemV4L2Driver: V4L2Driver {
    /// Creates the system driver.
    public init() {}

    public func deviceNodes() -> [String] {
        (0..<64).map { "/dev/video\($0)" }.filter { access($0, F_OK) == 0 }
    }

    public func open(_ path: String) -> Int32 {
        let fd = Glibc.open(path, O_RDWR | O_NONBLOCK)
        return fd >= 0 ? fd : -errno
    }

    public func close(_ fd: Int32) { _ = Glibc.close(fd) }

    public func ioctl(_ fd: Int32, _ request: UInt, _ argument: inout [UInt8]) -> Int32 {
        argument.withUnsafeMutableBytes { lux_ioctl(fd, request, $0.baseAddress) }
    }
}
