public import LuxColor
public import LuxPixels

/// What a device without manual controls does: the defaults of a ``CaptureDevice`` that does not implement them.
///
/// Its ``CaptureDevice/controlCapabilities`` are ``ControlCapabilities/none``, every setter throws
/// ``CaptureError/unsupported(_:)``, and it runs at its active format's highest frame rate.
extension CaptureDevice {
    public var controlCapabilities: ControlCapabilities { .none }

    public var activeFrameDuration: MediaTime { activeFormat.minFrameDuration }

    public func setActiveFrameRate(_ fps: Double) throws(CaptureError) {
        guard DeviceFormat.frameDuration(fps: fps) == activeFrameDuration else {
            throw .unsupported("\(localizedName) runs at \(activeFormat.frameRateRange.upperBound) fps only")
        }
    }

    public func setFocusMode(_ mode: FocusMode) throws(CaptureError) {
        throw .unsupported("\(localizedName) has no focus control")
    }

    public func setFocusModeLocked(lensPosition: ControlValue<Float>) async throws(CaptureError) -> MediaTime {
        throw .unsupported("\(localizedName) has no focus control")
    }

    public func setExposureMode(_ mode: ExposureMode) throws(CaptureError) {
        throw .unsupported("\(localizedName) has no exposure control")
    }

    public func setExposureModeCustom(duration: ControlValue<MediaTime>, iso: ControlValue<Float>)
        async throws(CaptureError) -> MediaTime
    {
        throw .unsupported("\(localizedName) has no exposure control")
    }

    public func setExposureTargetBias(_ bias: Float) async throws(CaptureError) -> MediaTime {
        throw .unsupported("\(localizedName) has no exposure control")
    }

    public func setWhiteBalanceMode(_ mode: WhiteBalanceMode) throws(CaptureError) {
        throw .unsupported("\(localizedName) has no white-balance control")
    }

    public func setWhiteBalanceModeLocked(gains: ControlValue<WhiteBalanceGains>) async throws(CaptureError)
        -> MediaTime
    {
        throw .unsupported("\(localizedName) has no white-balance control")
    }

    public func setWhiteBalanceModeLocked(temperatureAndTint: TemperatureAndTint) async throws(CaptureError)
        -> MediaTime
    {
        throw .unsupported("\(localizedName) has no white-balance control")
    }
}
