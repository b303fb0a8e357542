/// Whether the app may capture a media type (AVAuthorizationStatus).
public enum AuthorizationStatus: Hashable, Sendable, CustomStringConvertible {
    /// Access has not been requested yet.
    case notDetermined
    /// The devices can be used.
    case authorized
    /// The process cannot open the devices; `reason` says why and what to do.
    case denied(reason: String)

    public var description: String {
        switch self {
        case .notDetermined: "not determined"
        case .authorized: "authorized"
        case .denied(let reason): "denied: \(reason)"
        }
    }
}
