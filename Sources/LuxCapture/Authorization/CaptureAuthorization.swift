import Synchronization

/// Decides whether the app may capture video or audio (the AVCaptureDevice authorization API).
///
/// The app must say why it captures (``UsageDescriptions``, the Info.plist keys of seed 001): requesting
/// access without a description throws. Access is granted when the process can open the devices of the media
/// type — the simulated camera and microphone when the machine has no capture devices, otherwise the real
/// nodes (`/dev/video*`, `/dev/snd/pcm*c`); a device the process cannot open makes the status
/// ``AuthorizationStatus/denied(reason:)`` with the reason (for example, not in the `video` group).
///
/// ```swift
/// let access = CaptureAuthorization(usageDescriptions: UsageDescriptions(camera: "to take photos"))
/// if try await access.requestAccess(for: .video) { try await session.startRunning() }
/// else { print(access.status(for: .video)) }
/// ```
public final class CaptureAuthorization: Sendable {
    /// The app's usage descriptions.
    public let usageDescriptions: UsageDescriptions
    let nodes: any DeviceNodeAccess
    private let decided = Mutex<[MediaType: AuthorizationStatus]>([:])

    /// Creates an authority for an app with `usageDescriptions`, probing `nodes` (the system's by default).
    public init(usageDescriptions: UsageDescriptions, nodes: any DeviceNodeAccess = SystemDeviceNodeAccess()) {
        self.usageDescriptions = usageDescriptions
        self.nodes = nodes
    }

    /// The status: ``AuthorizationStatus/notDetermined`` until ``requestAccess(for:)`` is called, then
    /// authorized or denied (re-checked, since device permissions can change).
    public func status(for mediaType: MediaType) -> AuthorizationStatus {
        guard decided.withLock({ $0[mediaType] }) != nil else { return .notDetermined }
        let now = probe(mediaType)
        decided.withLock { $0[mediaType] = now }
        return now
    }

    /// Asks for access: `true` when the devices can be used.
    ///
    /// - Throws: ``CaptureError/missingUsageDescription(mediaType:key:)`` when the app gives no reason for
    ///   capturing `mediaType`.
    public func requestAccess(for mediaType: MediaType) async throws(CaptureError) -> Bool {
        guard usageDescriptions.description(for: mediaType) != nil else {
            throw .missingUsageDescription(mediaType: mediaType, key: UsageDescriptions.key(for: mediaType))
        }
        let result = probe(mediaType)
        decided.withLock { $0[mediaType] = result }
        return result == .authorized
    }

    /// Whether the devices of `mediaType` can be opened: the simulated device when there are none, else at least
    /// one real node.
    func probe(_ mediaType: MediaType) -> AuthorizationStatus {
        let paths = nodes.nodes(for: mediaType)
        guard !paths.isEmpty else { return .authorized }
        var problems: [String] = []
        for p in paths {
            let fd = nodes.open(p)
            if fd >= 0 {
                nodes.close(fd)
                return .authorized
            }
            problems.append("\(p): \(Self.explain(errno: -fd, mediaType: mediaType))")
        }
        return .denied(reason: problems.joined(separator: "; "))
    }

    static func explain(errno: Int32, mediaType: MediaType) -> String {
        let group = mediaType == .video ? "video" : "audio"
        switch errno {
        case 13, 1:
            return
                "permission denied (errno \(errno)); add the user to the '\(group)' group or run with access to the device"
        case 16: return "the device is busy (errno 16); another process is using it"
        case 2, 19, 6: return "no such device (errno \(errno)); it was unplugged"
        default: return "cannot open (errno \(errno))"
        }
    }
}
