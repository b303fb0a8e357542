import Glibc

/// The operating-system boundary of ``CaptureAuthorization``: which device nodes exist for a media type and whether the
/// process can open them.
///
/// Tests inject their own (the swift-system mocking pattern).
public protocol DeviceNodeAccess: Sendable {
    /// The device nodes of a media type (`/dev/video*` for video, `/dev/snd/pcmC*D*c` for audio).
    func nodes(for mediaType: MediaType) -> [String]
    /// Opens a node read-write (what capturing from it needs); returns a descriptor or a negative errno.
    func open(_ path: String) -> Int32
    /// Closes a descriptor.
    func close(_ fd: Int32)
}

/// The real device nodes.
public struct SystemDeviceNodeAccess: DeviceNodeAccess {
    /// Creates the system access.
    public init() {}

    public func nodes(for mediaType: MediaType) -> [String] {
        switch mediaType {
        case .video: return (0..<64).map { "/dev/video\($0)" }.filter { access($0, F_OK) == 0 }
        case .audio:
            var out: [String] = []
            for card in 0..<8 {
                for device in 0..<8 {
                    let p = "/dev/snd/pcmC\(card)D\(device)c"
                    if access(p, F_OK) == 0 { out.append(p) }
                }
            }
            return out
        }
    }

    public func open(_ path: String) -> Int32 {
        let fd = Glibc.open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        return fd >= 0 ? fd : -errno
    }

    public func close(_ fd: Int32) { _ = Glibc.close(fd) }
}
