public import LuxColor
public import LuxPixels

/// A snapshot of a capture device's observable state.
public struct DeviceStatus: Hashable, Sendable {
    /// The focus mode.
    public var focusMode: FocusMode
    /// The lens position, 0 (closest focus) … 1 (farthest).
    public var lensPosition: Float
    /// Whether the lens is moving under autofocus (or toward a requested position).
    public var isAdjustingFocus: Bool
    /// The exposure mode.
    public var exposureMode: ExposureMode
    /// The current exposure duration.
    public var exposureDuration: MediaTime
    /// The current ISO.
    public var iso: Float
    /// The metered offset from the (biased) exposure target, in EV; positive is over-exposed.
    public var exposureTargetOffset: Float
    /// The exposure target bias in EV.
    public var exposureTargetBias: Float
    /// Whether auto exposure is still converging.
    public var isAdjustingExposure: Bool
    /// The white-balance mode.
    public var whiteBalanceMode: WhiteBalanceMode
    /// The device white-balance gains in effect.
    public var deviceWhiteBalanceGains: WhiteBalanceGains
    /// The gains a grey card filling the centre of the frame calls for.
    public var grayWorldWhiteBalanceGains: WhiteBalanceGains
    /// Whether auto white balance is still converging.
    public var isAdjustingWhiteBalance: Bool
    /// The (fixed) aperture as an f-number.
    public var lensAperture: Float
    /// The presentation time of the last frame produced.
    public var lastFrameTime: MediaTime
    /// How many frames have been produced.
    public var frameCount: Int
}

/// A property of ``DeviceStatus`` that can be observed as an async sequence (the key-value-observable
/// properties of AVCaptureDevice).
///
/// ```swift
/// for await position in camera.values(of: .lensPosition) { slider.value = position }
/// ```
public struct DeviceProperty<Value: Sendable & Equatable>: Sendable {
    let read: @Sendable (DeviceStatus) -> Value

    /// A property read from the status with `read`.
    public init(_ read: @escaping @Sendable (DeviceStatus) -> Value) { self.read = read }
}

extension DeviceProperty where Value == Float {
    /// ``DeviceStatus/lensPosition``.
    public static var lensPosition: Self { Self { $0.lensPosition } }
    /// ``DeviceStatus/iso``.
    public static var iso: Self { Self { $0.iso } }
    /// ``DeviceStatus/exposureTargetOffset``.
    public static var exposureTargetOffset: Self { Self { $0.exposureTargetOffset } }
    /// ``DeviceStatus/exposureTargetBias``.
    public static var exposureTargetBias: Self { Self { $0.exposureTargetBias } }
    /// ``DeviceStatus/lensAperture``.
    public static var lensAperture: Self { Self { $0.lensAperture } }
}

extension DeviceProperty where Value == Bool {
    /// ``DeviceStatus/isAdjustingFocus``.
    public static var isAdjustingFocus: Self { Self { $0.isAdjustingFocus } }
    /// ``DeviceStatus/isAdjustingExposure``.
    public static var isAdjustingExposure: Self { Self { $0.isAdjustingExposure } }
    /// ``DeviceStatus/isAdjustingWhiteBalance``.
    public static var isAdjustingWhiteBalance: Self { Self { $0.isAdjustingWhiteBalance } }
}

extension DeviceProperty where Value == MediaTime {
    /// ``DeviceStatus/exposureDuration``.
    public static var exposureDuration: Self { Self { $0.exposureDuration } }
}

extension DeviceProperty where Value == WhiteBalanceGains {
    /// ``DeviceStatus/deviceWhiteBalanceGains``.
    public static var deviceWhiteBalanceGains: Self { Self { $0.deviceWhiteBalanceGains } }
    /// ``DeviceStatus/grayWorldWhiteBalanceGains``.
    public static var grayWorldWhiteBalanceGains: Self { Self { $0.grayWorldWhiteBalanceGains } }
}

extension DeviceProperty where Value == FocusMode {
    /// ``DeviceStatus/focusMode``.
    public static var focusMode: Self { Self { $0.focusMode } }
}

extension DeviceProperty where Value == ExposureMode {
    /// ``DeviceStatus/exposureMode``.
    public static var exposureMode: Self { Self { $0.exposureMode } }
}

extension DeviceProperty where Value == WhiteBalanceMode {
    /// ``DeviceStatus/whiteBalanceMode``.
    public static var whiteBalanceMode: Self { Self { $0.whiteBalanceMode } }
}
