import Synchronization

/// Links an input port to an output inside a session (AVCaptureConnection).
///
/// The session makes connections when inputs and outputs are added: each output is connected to the ports
/// whose media type it accepts. A connection carries data while it ``isEnabled`` and the session is running
/// (``isActive``).
public final class Connection: Sendable, CustomStringConvertible {
    /// The input port the data comes from.
    public let inputPort: DeviceInput.Port
    /// The input owning the port.
    public let input: DeviceInput
    /// What the connection carries.
    public var mediaType: MediaType { inputPort.mediaType }
    private let enabled = Mutex(true)
    private let session: WeakReference<CaptureSession>

    init(input: DeviceInput, port: DeviceInput.Port, session: CaptureSession) {
        self.input = input
        self.inputPort = port
        self.session = WeakReference(session)
    }

    /// Whether data may flow (default `true`).
    ///
    /// A disabled connection makes its output idle.
    public var isEnabled: Bool {
        get { enabled.withLock { $0 } }
        set { enabled.withLock { $0 = newValue } }
    }

    /// Whether data is flowing: enabled, and the session is running and not interrupted.
    public var isActive: Bool {
        guard isEnabled, let s = session.object else { return false }
        return s.isRunning && !s.isInterrupted
    }

    public var description: String { "Connection(\(inputPort), \(isEnabled ? "enabled" : "disabled"))" }
}
