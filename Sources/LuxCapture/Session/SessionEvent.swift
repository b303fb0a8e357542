/// Why a session stopped delivering data for a while (AVCaptureSession.InterruptionReason).
public enum InterruptionReason: String, Hashable, Sendable, Codable, CaseIterable {
    /// The app went to the background.
    case videoDeviceNotAvailableInBackground
    /// Another client took the audio device.
    case audioDeviceInUseByAnotherClient
    /// Another client took the camera.
    case videoDeviceInUseByAnotherClient
    /// Several foreground apps want the camera.
    case videoDeviceNotAvailableWithMultipleForegroundApps
    /// The system is under thermal or power pressure.
    case videoDeviceNotAvailableDueToSystemPressure
}

/// Something that happened to a running session (AVCaptureSession notifications).
public enum SessionEvent: Sendable, Hashable, CustomStringConvertible {
    /// ``CaptureSession/startRunning()`` finished: data flows.
    case didStartRunning
    /// The session stopped (by ``CaptureSession/stopRunning()`` or after a runtime error).
    case didStopRunning
    /// A device failed while running; the session stops.
    case runtimeError(CaptureError)
    /// Data stopped flowing for `reason`; the session stays "running" and resumes by itself.
    case wasInterrupted(InterruptionReason)
    /// The interruption is over.
    case interruptionEnded

    public var description: String {
        switch self {
        case .didStartRunning: "didStartRunning"
        case .didStopRunning: "didStopRunning"
        case .runtimeError(let e): "runtimeError(\(e))"
        case .wasInterrupted(let r): "wasInterrupted(\(r.rawValue))"
        case .interruptionEnded: "interruptionEnded"
        }
    }
}
