/// Which manual controls a capture device has (the `is…Supported` properties of AVCaptureDevice), as one value.
///
/// A control a device lacks throws ``CaptureError/unsupported(_:)`` when it is set; the numeric ranges live in the
/// active ``DeviceFormat`` (``DeviceFormat/minISO``, ``DeviceFormat/maxExposureDuration``,
/// ``DeviceFormat/exposureTargetBiasRange``…), where a device without the control has a range of one value.
///
/// ```swift
/// let controls = device.controlCapabilities
/// if controls.exposureModes.contains(.custom) {
///     try await device.setExposureModeCustom(duration: .value(MediaTime(value: 1, timescale: 100)), iso: .current)
/// }
/// ```
public struct ControlCapabilities: Hashable, Sendable, CustomStringConvertible {
    /// The focus modes the device supports.
    public var focusModes: Set<FocusMode>
    /// Whether focus can be locked at a lens position of your choosing
    /// (AVCaptureDevice.isLockingFocusWithCustomLensPositionSupported).
    public var supportsLensPosition: Bool
    /// The exposure modes the device supports.
    public var exposureModes: Set<ExposureMode>
    /// The white-balance modes the device supports.
    public var whiteBalanceModes: Set<WhiteBalanceMode>
    /// Whether white balance can be locked at device RGB gains
    /// (AVCaptureDevice.isLockingWhiteBalanceWithCustomDeviceGainsSupported).
    public var supportsWhiteBalanceGains: Bool
    /// Whether white balance can be locked at a colour temperature.
    public var supportsWhiteBalanceTemperature: Bool
    /// Whether a white-balance tint other than 0 can be set with the temperature.
    public var supportsWhiteBalanceTint: Bool
    /// Whether the sync times the setters return are exact.
    ///
    /// The simulated camera knows which frame first reflects a change. A V4L2 driver applies a control
    /// asynchronously and does not say when: its sync time is an estimate, the first frame that starts at least
    /// ``V4L2Camera/Configuration/controlLatencyFrames`` frame durations after the control was written.
    public var syncTimesAreExact: Bool

    /// Creates capabilities.
    public init(
        focusModes: Set<FocusMode> = [], supportsLensPosition: Bool = false, exposureModes: Set<ExposureMode> = [],
        whiteBalanceModes: Set<WhiteBalanceMode> = [], supportsWhiteBalanceGains: Bool = false,
        supportsWhiteBalanceTemperature: Bool = false, supportsWhiteBalanceTint: Bool = false,
        syncTimesAreExact: Bool = false
    ) {
        self.focusModes = focusModes
        self.supportsLensPosition = supportsLensPosition
        self.exposureModes = exposureModes
        self.whiteBalanceModes = whiteBalanceModes
        self.supportsWhiteBalanceGains = supportsWhiteBalanceGains
        self.supportsWhiteBalanceTemperature = supportsWhiteBalanceTemperature
        self.supportsWhiteBalanceTint = supportsWhiteBalanceTint
        self.syncTimesAreExact = syncTimesAreExact
    }

    /// No manual control at all.
    public static let none = ControlCapabilities()

    /// Every control, with exact sync times (the simulated camera).
    public static let all = ControlCapabilities(
        focusModes: Set(FocusMode.allCases), supportsLensPosition: true, exposureModes: Set(ExposureMode.allCases),
        whiteBalanceModes: Set(WhiteBalanceMode.allCases), supportsWhiteBalanceGains: true,
        supportsWhiteBalanceTemperature: true, supportsWhiteBalanceTint: true, syncTimesAreExact: true)

    public var description: String {
        func list<T: RawRepresentable>(_ s: Set<T>) -> String where T.RawValue == String {
            s.isEmpty ? "none" : s.map(\.rawValue).sorted().joined(separator: ", ")
        }
        var items = [
            "focus: \(list(focusModes))" + (supportsLensPosition ? " + lens position" : ""),
            "exposure: \(list(exposureModes))",
            "white balance: \(list(whiteBalanceModes))",
        ]
        var wb: [String] = []
        if supportsWhiteBalanceGains { wb.append("gains") }
        if supportsWhiteBalanceTemperature {
            wb.append(supportsWhiteBalanceTint ? "temperature and tint" : "temperature")
        }
        if !wb.isEmpty { items[2] += " + " + wb.joined(separator: ", ") }
        items.append(syncTimesAreExact ? "exact sync times" : "estimated sync times")
        return items.joined(separator: "; ")
    }
}
