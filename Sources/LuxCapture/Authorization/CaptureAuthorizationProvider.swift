/// Decides whether a session may run a capture device (seed 001: a session on a device whose access is not granted
/// does not run, and reports why).
///
/// Linux has no access prompt, so the decision is a probe: ``DeviceAccessAuthorization`` grants the simulated camera
/// and a V4L2 camera whose node opens read-write. Inject ``FixedAuthorization`` (or your own policy) through
/// ``CaptureSession/init(clock:logger:authorization:)``.
///
/// ```swift
/// let session = CaptureSession(authorization: FixedAuthorization(.denied(reason: "the user said no")))
/// // startRunning() now throws CaptureError.accessDenied and sends a runtimeError event.
/// ```
public protocol CaptureAuthorizationProvider: Sendable {
    /// Whether `device` may be used now.
    func authorizationStatus(for device: any CaptureDevice) -> AuthorizationStatus
}

/// The standard policy: the simulated camera is granted, a V4L2 camera when opening its node read-write succeeds.
public struct DeviceAccessAuthorization: CaptureAuthorizationProvider {
    /// Creates the policy.
    public init() {}

    public func authorizationStatus(for device: any CaptureDevice) -> AuthorizationStatus {
        (device as? V4L2Camera)?.accessStatus() ?? .authorized
    }
}

/// The same answer for every device (tests, or an app's own policy).
public struct FixedAuthorization: CaptureAuthorizationProvider {
    /// The answer.
    public var status: AuthorizationStatus

    /// Answers `status` for every device.
    public init(_ status: AuthorizationStatus) { self.status = status }

    public func authorizationStatus(for device: any CaptureDevice) -> AuthorizationStatus { status }
}
