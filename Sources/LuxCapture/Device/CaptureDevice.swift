public import LuxColor
public import LuxPixels

/// A source of video frames with manual controls: the simulated camera, or a V4L2 camera.
///
/// A `CaptureSession` drives a device by pulling frames: each ``nextFrame(_:)`` returns the next frame on the
/// device clock (``MediaTime``, starting at zero). Frames come from the device's buffer pool; holding too many
/// makes the next request throw ``CaptureError/bufferPoolExhausted(_:)``. ``captureStill(_:)`` takes one
/// full-resolution exposure with explicit settings (photos, brackets).
///
/// The manual controls of seed 004 — focus, exposure and white balance — are part of the protocol, so the same code
/// drives every device. ``controlCapabilities`` says which a device has; setting one it lacks throws
/// ``CaptureError/unsupported(_:)``, and a value outside the active format's range throws
/// ``CaptureError/outOfRange(name:value:range:)``. Each setter returns the *sync time*: the presentation time of
/// the first frame that reflects the change (exact where ``ControlCapabilities/syncTimesAreExact``, else an
/// estimate).
///
/// ```swift
/// func lockForPortrait(_ device: any CaptureDevice) async throws {
///     let format = device.activeFormat
///     let exposed = try await device.setExposureModeCustom(
///         duration: .value(format.minFrameDuration), iso: .value(format.minISO))
///     let balanced = try await device.setWhiteBalanceModeLocked(
///         temperatureAndTint: TemperatureAndTint(temperature: 5000, tint: 0))
///     print("frames from \(max(exposed, balanced)) on show the new settings")
/// }
/// ```
public protocol CaptureDevice: AnyObject, Sendable {
    /// A stable identifier.
    var uniqueID: String { get }
    /// A name for people.
    var localizedName: String { get }
    /// Where the camera faces.
    var position: CaptureDevicePosition { get }
    /// Whether the camera has a flash for stills.
    var hasFlash: Bool { get }
    /// Every format the device offers.
    var formats: [DeviceFormat] { get }
    /// The format in use.
    var activeFormat: DeviceFormat { get }
    /// Switches format (resets frame rate to the format's default).
    func setActiveFormat(_ format: DeviceFormat) throws(CaptureError)
    /// The frame duration (1 / frame rate) the stream runs at.
    var activeFrameDuration: MediaTime { get }
    /// Sets the frame rate.
    ///
    /// - Throws: ``CaptureError/outOfRange(name:value:range:)`` outside the active format's
    ///   ``DeviceFormat/frameRateRange``, ``CaptureError/unsupported(_:)`` for a rate between the format's
    ///   ``DeviceFormat/supportedFrameRates``.
    func setActiveFrameRate(_ fps: Double) throws(CaptureError)
    /// The colour space processed frames are delivered in.
    var activeColorSpace: CaptureColorSpace { get }
    /// Sets the colour space (it must be one the active format supports).
    func setActiveColorSpace(_ colorSpace: CaptureColorSpace) throws(CaptureError)
    /// A snapshot of the observable state.
    var status: DeviceStatus { get }
    /// The values of one property: the current value, then each change.
    func values<Value: Sendable & Equatable>(of property: DeviceProperty<Value>) -> AsyncStream<Value>
    /// Starts the frame stream.
    func startStreaming() async throws(CaptureError)
    /// Stops the frame stream.
    func stopStreaming() async
    /// Produces the next frame.
    func nextFrame(_ configuration: StreamConfiguration) async throws(CaptureError) -> CaptureFrame
    /// Takes one still exposure at full resolution.
    func captureStill(_ request: StillRequest) async throws(CaptureError) -> StillCapture
    /// The pixel format of the RAW (Bayer) data the active format's frames carry, or `nil` when they carry none.
    ///
    /// A ``PhotoOutput`` offers RAW photos in this format (``PhotoOutput/availableRawPhotoPixelFormatTypes``).
    var rawPixelFormat: PixelFormat? { get }

    // MARK: Manual controls

    /// Which manual controls the device has.
    var controlCapabilities: ControlCapabilities { get }
    /// Sets the focus mode.
    ///
    /// - Throws: ``CaptureError/unsupported(_:)`` for a mode the device lacks.
    func setFocusMode(_ mode: FocusMode) throws(CaptureError)
    /// Locks focus at a lens position (0 = closest, 1 = farthest), or where the lens is now with `.current`.
    ///
    /// - Returns: The sync time: the presentation time of the first frame at that position.
    /// - Throws: ``CaptureError/outOfRange(name:value:range:)`` outside 0…1, ``CaptureError/unsupported(_:)``
    ///   without ``ControlCapabilities/supportsLensPosition``.
    @discardableResult
    func setFocusModeLocked(lensPosition: ControlValue<Float>) async throws(CaptureError) -> MediaTime
    /// Sets the exposure mode.
    ///
    /// - Throws: ``CaptureError/unsupported(_:)`` for a mode the device lacks.
    func setExposureMode(_ mode: ExposureMode) throws(CaptureError)
    /// Custom exposure: sets duration and ISO together (`.current` keeps either).
    ///
    /// - Returns: The sync time: the presentation time of the first frame exposed with the new settings.
    /// - Throws: ``CaptureError/outOfRange(name:value:range:)`` outside the active format's
    ///   `minExposureDuration…maxExposureDuration` or `minISO…maxISO`, ``CaptureError/unsupported(_:)`` without
    ///   the ``ExposureMode/custom`` mode.
    @discardableResult
    func setExposureModeCustom(duration: ControlValue<MediaTime>, iso: ControlValue<Float>)
        async throws(CaptureError) -> MediaTime
    /// Biases the auto-exposure target by `bias` EV (exposure compensation).
    ///
    /// - Returns: The sync time of the first frame using the new target.
    /// - Throws: ``CaptureError/outOfRange(name:value:range:)`` outside the active format's
    ///   ``DeviceFormat/exposureTargetBiasRange``.
    @discardableResult
    func setExposureTargetBias(_ bias: Float) async throws(CaptureError) -> MediaTime
    /// Sets the white-balance mode.
    ///
    /// - Throws: ``CaptureError/unsupported(_:)`` for a mode the device lacks.
    func setWhiteBalanceMode(_ mode: WhiteBalanceMode) throws(CaptureError)
    /// Locks white balance at device gains (or the current ones with `.current`).
    ///
    /// - Returns: The sync time of the first frame processed with them.
    /// - Throws: ``CaptureError/whiteBalanceGainsOutOfRange(red:green:blue:maximum:)`` outside
    ///   1…``DeviceFormat/maxWhiteBalanceGain``, ``CaptureError/unsupported(_:)`` without
    ///   ``ControlCapabilities/supportsWhiteBalanceGains`` (`.current` needs only the locked mode).
    @discardableResult
    func setWhiteBalanceModeLocked(gains: ControlValue<WhiteBalanceGains>) async throws(CaptureError) -> MediaTime
    /// Locks white balance for a light of `temperatureAndTint`.
    ///
    /// - Returns: The sync time of the first frame processed with it.
    /// - Throws: ``CaptureError/outOfRange(name:value:range:)`` for a temperature the device cannot set (or
    ///   ``CaptureError/whiteBalanceGainsOutOfRange(red:green:blue:maximum:)`` when it converts to gains outside the
    ///   device's range), ``CaptureError/unsupported(_:)`` without
    ///   ``ControlCapabilities/supportsWhiteBalanceTemperature``, or for a tint other than 0 without
    ///   ``ControlCapabilities/supportsWhiteBalanceTint``.
    @discardableResult
    func setWhiteBalanceModeLocked(temperatureAndTint: TemperatureAndTint) async throws(CaptureError) -> MediaTime
}

extension CaptureDevice {
    /// External cameras do not say where they face.
    public var position: CaptureDevicePosition { .unspecified }
    /// Cameras have no flash unless they say so.
    public var hasFlash: Bool { false }
    /// Cameras deliver no RAW unless they say so.
    public var rawPixelFormat: PixelFormat? { nil }

    /// Whether the device supports a focus mode (AVCaptureDevice.isFocusModeSupported(_:)).
    public func isFocusModeSupported(_ mode: FocusMode) -> Bool { controlCapabilities.focusModes.contains(mode) }

    /// Whether the device supports an exposure mode (AVCaptureDevice.isExposureModeSupported(_:)).
    public func isExposureModeSupported(_ mode: ExposureMode) -> Bool {
        controlCapabilities.exposureModes.contains(mode)
    }

    /// Whether the device supports a white-balance mode (AVCaptureDevice.isWhiteBalanceModeSupported(_:)).
    public func isWhiteBalanceModeSupported(_ mode: WhiteBalanceMode) -> Bool {
        controlCapabilities.whiteBalanceModes.contains(mode)
    }
}
