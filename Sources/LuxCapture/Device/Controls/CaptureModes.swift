/// How the lens is focused (AVCaptureDevice.FocusMode).
public enum FocusMode: String, Hashable, Sendable, Codable, CaseIterable {
    /// The lens stays where it is (or where ``SimulatedCamera/setFocusModeLocked(lensPosition:)`` puts it).
    case locked
    /// One contrast-detect sweep, then the mode becomes ``locked``.
    case autoFocus
    /// Contrast-detect hill climbing that refocuses when the scene goes soft.
    case continuousAutoFocus
}

/// A hint that limits the autofocus search (AVCaptureDevice.AutoFocusRangeRestriction).
public enum AutoFocusRangeRestriction: String, Hashable, Sendable, Codable, CaseIterable {
    /// Search the whole range.
    case none
    /// Search close distances only (lens positions 0…0.6).
    case near
    /// Search far distances only (lens positions 0.4…1).
    case far

    /// The lens positions searched.
    public var lensPositions: ClosedRange<Double> {
        switch self {
        case .none: 0...1
        case .near: 0...0.6
        case .far: 0.4...1
        }
    }
}

/// How exposure is controlled (AVCaptureDevice.ExposureMode).
public enum ExposureMode: String, Hashable, Sendable, Codable, CaseIterable {
    /// Duration and ISO stay put; only a change of target bias moves them.
    case locked
    /// The auto-exposure loop adjusts duration and ISO every frame.
    case continuousAutoExposure
    /// Duration and ISO are set by ``SimulatedCamera/setExposureModeCustom(duration:iso:)``; the meter still runs.
    case custom
}

/// How white balance is controlled (AVCaptureDevice.WhiteBalanceMode).
public enum WhiteBalanceMode: String, Hashable, Sendable, Codable, CaseIterable {
    /// Gains stay put (or are set with ``SimulatedCamera/setWhiteBalanceModeLocked(gains:)``).
    case locked
    /// Auto white balance adjusts the gains every frame.
    case continuousAutoWhiteBalance
}

/// A control value, or "keep the current one" (Apple's `currentLensPosition`, `currentISO`,
/// `currentExposureDuration`, `currentWhiteBalanceGains` sentinels).
public enum ControlValue<Value: Sendable & Hashable>: Hashable, Sendable {
    /// Keep the value the device has when the request takes effect (race-free lock).
    case current
    /// Set this value.
    case value(Value)
}

extension ControlValue: ExpressibleByFloatLiteral where Value == Float {
    public init(floatLiteral value: Float) { self = .value(value) }
}

extension ControlValue: ExpressibleByIntegerLiteral where Value == Float {
    public init(integerLiteral value: Int) { self = .value(Float(value)) }
}
