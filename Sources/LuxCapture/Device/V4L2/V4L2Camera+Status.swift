import LuxColor
import LuxPixels

extension V4L2Camera {
    /// The camera's state as the device reports it now (VIDIOC_G_CTRL), so values an automatic mode chose show.
    ///
    /// Exposure time, gain (as ISO), lens position, white-balance gains (red and blue balance) and the modes are read
    /// from the controls the device has: V4L2_CID_FOCUS_AUTO, V4L2_CID_EXPOSURE_AUTO, V4L2_CID_AUTO_WHITE_BALANCE
    /// and the bits of V4L2_CID_3A_LOCK (a set bit is the `.locked` mode). ``DeviceStatus/isAdjustingFocus`` is the
    /// busy bit of V4L2_CID_AUTO_FOCUS_STATUS. V4L2 reports no exposure or white-balance convergence, so
    /// ``DeviceStatus/isAdjustingExposure`` and ``DeviceStatus/isAdjustingWhiteBalance`` stay `false`. A value the
    /// device cannot report (no control, or the read fails, as after an unplug) is the last one Lux set.
    public var status: DeviceStatus {
        let cached = state.withLock { $0 }
        var s = DeviceStatus(
            focusMode: cached.focusMode, lensPosition: cached.lensPosition, isAdjustingFocus: false,
            exposureMode: cached.exposureMode, exposureDuration: cached.exposureDuration, iso: cached.iso,
            exposureTargetOffset: 0, exposureTargetBias: cached.bias, isAdjustingExposure: false,
            whiteBalanceMode: cached.whiteBalanceMode, deviceWhiteBalanceGains: .identity,
            grayWorldWhiteBalanceGains: .identity, isAdjustingWhiteBalance: false, lensAperture: 2,
            lastFrameTime: cached.lastTime, frameCount: cached.frameIndex)
        let lock = reported(.lock3A) ?? 0
        if let e = reported(.exposureAbsolute) { s.exposureDuration = MediaTime(value: Int64(e), timescale: 10_000) }
        if let c = controls[.gain], let g = reported(.gain) {
            s.iso = Float(100 * Double(g) / ControlRanges.baseGain(c))
        }
        if let c = controls[.focusAbsolute], let f = reported(.focusAbsolute), c.maximum > c.minimum {
            s.lensPosition = Float(Double(c.maximum - f) / Double(c.maximum - c.minimum))
        }
        if let c = controls[.redBalance], let d = controls[.blueBalance], let r = reported(.redBalance),
            let b = reported(.blueBalance)
        {
            s.deviceWhiteBalanceGains = WhiteBalanceGains(
                red: Double(r) / ControlRanges.unityBalance(c), green: 1,
                blue: Double(b) / ControlRanges.unityBalance(d))
        }
        if let auto = reported(.focusAuto) {
            s.focusMode = auto != 0 ? .continuousAutoFocus : cached.focusMode == .autoFocus ? .autoFocus : .locked
        }
        if let auto = reported(.exposureAuto) {
            s.exposureMode =
                auto != V4L2.ExposureAutoItem.manual
                ? .continuousAutoExposure : cached.exposureMode == .locked ? .locked : .custom
        }
        if let auto = reported(.autoWhiteBalance) {
            s.whiteBalanceMode = auto != 0 ? .continuousAutoWhiteBalance : .locked
        }
        if lock & V4L2.LockBit.focus != 0 { s.focusMode = .locked }
        if lock & V4L2.LockBit.exposure != 0 { s.exposureMode = .locked }
        if lock & V4L2.LockBit.whiteBalance != 0 { s.whiteBalanceMode = .locked }
        if let af = reported(.autoFocusStatus) { s.isAdjustingFocus = af & V4L2.AutoFocusStatusBit.busy != 0 }
        return s
    }

    /// The white-balance temperature the device reports (V4L2_CID_WHITE_BALANCE_TEMPERATURE, kelvin), or `nil` without
    /// that control.
    public var whiteBalanceTemperature: Float? { reported(.whiteBalanceTemperature).map(Float.init) }

    /// A control's current value, or `nil` when the device lacks it, it is write-only, or the read fails.
    func reported(_ control: V4L2.Control) -> Int32? {
        guard let c = controls[control], c.flags & V4L2.controlFlagWriteOnly == 0 else { return nil }
        return try? readControl(control)
    }
}
