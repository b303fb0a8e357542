public import LuxPixels

/// One photo of an exposure bracket (AVCaptureAutoExposureBracketedStillImageSettings /
/// AVCaptureManualExposureBracketedStillImageSettings).
///
/// A bracket is all ``auto(bias:)`` or all ``manual(duration:iso:)``. While it is taken, the bracket overrides
/// the camera's exposure controls; they are restored afterwards.
public enum BracketedExposure: Hashable, Sendable, CustomStringConvertible {
    /// Auto exposure with its target shifted by `bias` EV (within the format's exposure target bias range).
    case auto(bias: Float)
    /// An explicit exposure duration and ISO (within the active format's ranges).
    case manual(duration: MediaTime, iso: Float)

    /// Whether this is an auto-exposure bracket item.
    public var isAuto: Bool {
        if case .auto = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case .auto(let bias): "\(bias >= 0 ? "+" : "")\(bias) EV"
        case .manual(let duration, let iso): "\(duration.value)/\(duration.timescale) s @ ISO \(Int(iso))"
        }
    }
}
