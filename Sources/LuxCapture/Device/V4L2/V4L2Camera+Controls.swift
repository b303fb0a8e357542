public import LuxColor
public import LuxPixels

extension V4L2Camera {
    // MARK: Capabilities

    /// Which manual controls the device has, from the V4L2 controls it offers; sync times are estimates.
    public var controlCapabilities: ControlCapabilities {
        var c = ControlCapabilities()
        func writable(_ control: V4L2.Control) -> Bool { controls[control]?.isWritable ?? false }
        if writable(.focusAbsolute) { c.focusModes.insert(.locked) }
        if writable(.focusAuto) { c.focusModes.formUnion([.continuousAutoFocus, .locked]) }
        if writable(.autoFocusStart) { c.focusModes.insert(.autoFocus) }
        c.supportsLensPosition = writable(.focusAbsolute)
        if let menu = controls[.exposureAuto], menu.isWritable {
            if menu.menuItems[V4L2.ExposureAutoItem.auto] != nil
                || menu.menuItems[V4L2.ExposureAutoItem.aperturePriority] != nil
            {
                c.exposureModes.insert(.continuousAutoExposure)
            }
            if menu.menuItems[V4L2.ExposureAutoItem.manual] != nil, writable(.exposureAbsolute) {
                c.exposureModes.formUnion([.custom, .locked])
            }
        } else if writable(.exposureAbsolute) {
            c.exposureModes.formUnion([.custom, .locked])
        }
        if writable(.autoWhiteBalance) { c.whiteBalanceModes.formUnion([.continuousAutoWhiteBalance, .locked]) }
        if writable(.whiteBalanceTemperature) {
            c.whiteBalanceModes.insert(.locked)
            c.supportsWhiteBalanceTemperature = true
        }
        return c
    }

    // MARK: Mapping

    /// The V4L2 control value for an exposure duration (V4L2_CID_EXPOSURE_ABSOLUTE counts 100 µs units).
    ///
    /// - Throws: ``CaptureError/unsupported(_:)`` without that control, ``CaptureError/outOfRange(name:value:range:)``
    ///   outside the driver's range.
    public func exposureControlValue(for duration: MediaTime) throws(CaptureError) -> Int32 {
        guard let c = controls[.exposureAbsolute] else {
            throw .unsupported("\(localizedName) has no manual exposure control")
        }
        let units = (duration.seconds * 10_000).rounded()
        let range = Double(c.minimum) / 10_000...Double(c.maximum) / 10_000
        guard units >= Double(c.minimum), units <= Double(c.maximum) else {
            throw .outOfRange(name: "exposure duration", value: duration.seconds, range: range)
        }
        return Int32(units)
    }

    /// The V4L2 focus value for a lens position (0 = closest … 1 = farthest), mapped linearly onto
    /// V4L2_CID_FOCUS_ABSOLUTE, whose larger values focus closer on UVC cameras.
    public func focusControlValue(for lensPosition: Float) throws(CaptureError) -> Int32 {
        guard let c = controls[.focusAbsolute] else {
            throw .unsupported("\(localizedName) has no manual focus control")
        }
        guard (0...1).contains(lensPosition) else {
            throw .outOfRange(name: "lensPosition", value: Double(lensPosition), range: 0...1)
        }
        let span = Double(c.maximum - c.minimum)
        let raw = Double(c.maximum) - Double(lensPosition) * span
        let stepped = (raw / Double(max(c.step, 1))).rounded() * Double(max(c.step, 1))
        return Int32(min(max(stepped, Double(c.minimum)), Double(c.maximum)))
    }

    /// The V4L2 gain value for an ISO, taking the driver's smallest gain (at least 1) as ISO 100 and scaling
    /// linearly.
    public func gainControlValue(forISO iso: Float) throws(CaptureError) -> Int32 {
        guard let c = controls[.gain] else { throw .unsupported("\(localizedName) has no gain control") }
        let base = ControlRanges.baseGain(c)
        let value = (base * Double(iso) / 100).rounded()
        let isoRange = 100...(100 * Double(c.maximum) / base)
        guard isoRange.contains(Double(iso)), value <= Double(c.maximum) else {
            throw .outOfRange(name: "ISO", value: Double(iso), range: isoRange)
        }
        return Int32(max(value, Double(c.minimum)))
    }

    /// The white-balance temperature control value for `kelvin`.
    public func whiteBalanceControlValue(forTemperature kelvin: Float) throws(CaptureError) -> Int32 {
        guard let c = controls[.whiteBalanceTemperature] else {
            throw .unsupported("\(localizedName) has no white-balance temperature control")
        }
        guard kelvin >= Float(c.minimum), kelvin <= Float(c.maximum) else {
            throw .outOfRange(
                name: "white-balance temperature", value: Double(kelvin), range: Double(c.minimum)...Double(c.maximum))
        }
        return Int32(kelvin.rounded())
    }

    /// Writes a control (VIDIOC_S_CTRL).
    ///
    /// - Throws: ``CaptureError/deviceDisconnected(_:)``, ``CaptureError/deviceBusy(_:)`` or
    ///   ``CaptureError/systemCall(name:errno:)`` with the driver's errno.
    public func setControl(_ control: V4L2.Control, value: Int32) throws(CaptureError) {
        var s = V4L2Struct(size: V4L2.Layout.control)
        s.set(0, control.rawValue)
        s.set(4, value)
        try ioctl(V4L2.setControl, "VIDIOC_S_CTRL(\(control))", &s)
    }

    /// Reads a control (VIDIOC_G_CTRL).
    public func readControl(_ control: V4L2.Control) throws(CaptureError) -> Int32 {
        var s = V4L2Struct(size: V4L2.Layout.control)
        s.set(0, control.rawValue)
        try ioctl(V4L2.getControl, "VIDIOC_G_CTRL(\(control))", &s)
        return s.s32(4)
    }

    func require(_ control: V4L2.Control, _ what: String) throws(CaptureError) {
        guard controls[control]?.isWritable ?? false else { throw .unsupported("\(localizedName) has no \(what)") }
    }

    func syncTime() -> MediaTime { state.withLock { $0.syncTime(latencyFrames: configuration.controlLatencyFrames) } }

    // MARK: Focus

    /// Sets the focus mode: continuous autofocus (V4L2_CID_FOCUS_AUTO on), locked (off, the lens stays), or one
    /// autofocus scan (V4L2_CID_AUTO_FOCUS_START).
    public func setFocusMode(_ mode: FocusMode) throws(CaptureError) {
        guard controlCapabilities.focusModes.contains(mode) else {
            throw .unsupported("\(localizedName) has no \(mode.rawValue) focus mode")
        }
        switch mode {
        case .continuousAutoFocus: try setControl(.focusAuto, value: 1)
        case .locked: if controls[.focusAuto] != nil { try setControl(.focusAuto, value: 0) }
        case .autoFocus:
            if controls[.focusAuto] != nil { try setControl(.focusAuto, value: 0) }
            try setControl(.autoFocusStart, value: 1)
        }
        state.withLock { $0.focusMode = mode }
    }

    /// Locks focus at a lens position (V4L2_CID_FOCUS_ABSOLUTE, autofocus off).
    ///
    /// - Returns: The estimated sync time (see ``ControlCapabilities/syncTimesAreExact``).
    @discardableResult
    public func setFocusModeLocked(lensPosition: ControlValue<Float>) async throws(CaptureError) -> MediaTime {
        try require(.focusAbsolute, "manual focus control")
        if case .value(let p) = lensPosition {
            let value = try focusControlValue(for: p)
            if controls[.focusAuto] != nil { try setControl(.focusAuto, value: 0) }
            try setControl(.focusAbsolute, value: value)
            state.withLock { $0.lensPosition = p }
        } else if controls[.focusAuto] != nil {
            try setControl(.focusAuto, value: 0)
        }
        state.withLock { $0.focusMode = .locked }
        return syncTime()
    }

    // MARK: Exposure

    /// Sets the exposure mode: continuous (V4L2_EXPOSURE_AUTO, or aperture priority, as UVC cameras offer), or
    /// custom and locked (V4L2_EXPOSURE_MANUAL, keeping the current time and gain).
    public func setExposureMode(_ mode: ExposureMode) throws(CaptureError) {
        guard controlCapabilities.exposureModes.contains(mode) else {
            throw .unsupported("\(localizedName) has no \(mode.rawValue) exposure mode")
        }
        if let menu = controls[.exposureAuto] {
            let item =
                switch mode {
                case .continuousAutoExposure:
                    menu.menuItems[V4L2.ExposureAutoItem.auto] != nil
                        ? V4L2.ExposureAutoItem.auto : V4L2.ExposureAutoItem.aperturePriority
                case .custom, .locked: V4L2.ExposureAutoItem.manual
                }
            try setControl(.exposureAuto, value: item)
        }
        state.withLock { $0.exposureMode = mode }
    }

    /// Custom exposure: V4L2_EXPOSURE_MANUAL, then the absolute exposure time and the gain for the ISO.
    ///
    /// - Returns: The estimated sync time.
    /// - Throws: ``CaptureError/outOfRange(name:value:range:)`` outside the active format's ranges,
    ///   ``CaptureError/unsupported(_:)`` without manual exposure.
    @discardableResult
    public func setExposureModeCustom(duration: ControlValue<MediaTime>, iso: ControlValue<Float>)
        async throws(CaptureError) -> MediaTime
    {
        guard controlCapabilities.exposureModes.contains(.custom) else {
            throw .unsupported("\(localizedName) has no manual exposure control")
        }
        let f = activeFormat
        if case .value(let d) = duration, d < f.minExposureDuration || f.maxExposureDuration < d {
            throw .outOfRange(
                name: "exposure duration", value: d.seconds,
                range: f.minExposureDuration.seconds...f.maxExposureDuration.seconds)
        }
        if case .value(let i) = iso, i < f.minISO || i > f.maxISO {
            throw .outOfRange(name: "ISO", value: Double(i), range: Double(f.minISO)...Double(f.maxISO))
        }
        var exposure: Int32?
        var gain: Int32?
        if case .value(let d) = duration { exposure = try exposureControlValue(for: d) }
        if case .value(let i) = iso, controls[.gain] != nil { gain = try gainControlValue(forISO: i) }
        try setExposureMode(.custom)
        if let exposure { try setControl(.exposureAbsolute, value: exposure) }
        if let gain { try setControl(.gain, value: gain) }
        state.withLock { s in
            if let exposure { s.exposureDuration = MediaTime(value: Int64(exposure), timescale: 10_000) }
            if case .value(let i) = iso { s.iso = i }
        }
        return syncTime()
    }

    /// Biases auto exposure (V4L2_CID_AUTO_EXPOSURE_BIAS, the nearest item of its integer menu in 0.001 EV).
    ///
    /// - Returns: The estimated sync time.
    /// - Throws: ``CaptureError/outOfRange(name:value:range:)`` outside ``DeviceFormat/exposureTargetBiasRange`` (a
    ///   single 0 without the control).
    @discardableResult
    public func setExposureTargetBias(_ bias: Float) async throws(CaptureError) -> MediaTime {
        let range = activeFormat.exposureTargetBiasRange
        guard range.contains(bias) else {
            throw .outOfRange(
                name: "exposureTargetBias", value: Double(bias),
                range: Double(range.lowerBound)...Double(range.upperBound))
        }
        if let menu = controls[.exposureBias],
            let item = menu.integerMenuItems.min(by: {
                abs(Float($0.value) / 1000 - bias) < abs(Float($1.value) / 1000 - bias)
            })
        {
            try setControl(.exposureBias, value: item.key)
        }
        state.withLock { $0.bias = bias }
        return syncTime()
    }

    // MARK: White balance

    /// Sets the white-balance mode (V4L2_CID_AUTO_WHITE_BALANCE on for continuous, off for locked).
    public func setWhiteBalanceMode(_ mode: WhiteBalanceMode) throws(CaptureError) {
        guard controlCapabilities.whiteBalanceModes.contains(mode) else {
            throw .unsupported("\(localizedName) has no \(mode.rawValue) white-balance mode")
        }
        if controls[.autoWhiteBalance] != nil {
            try setControl(.autoWhiteBalance, value: mode == .continuousAutoWhiteBalance ? 1 : 0)
        }
        state.withLock { $0.whiteBalanceMode = mode }
    }

    /// Locks white balance; V4L2 cameras have no device-gain control, so only `.current` works.
    ///
    /// - Throws: ``CaptureError/unsupported(_:)`` for explicit gains.
    @discardableResult
    public func setWhiteBalanceModeLocked(gains: ControlValue<WhiteBalanceGains>) async throws(CaptureError)
        -> MediaTime
    {
        guard case .current = gains else {
            throw .unsupported("\(localizedName) cannot set white-balance gains; lock a temperature instead")
        }
        try setWhiteBalanceMode(.locked)
        return syncTime()
    }

    /// Locks white balance at a colour temperature (V4L2_CID_WHITE_BALANCE_TEMPERATURE, auto off).
    ///
    /// - Throws: ``CaptureError/outOfRange(name:value:range:)`` outside the driver's range,
    ///   ``CaptureError/unsupported(_:)`` without the control or for a tint other than 0.
    @discardableResult
    public func setWhiteBalanceModeLocked(temperatureAndTint: TemperatureAndTint) async throws(CaptureError)
        -> MediaTime
    {
        let value = try whiteBalanceControlValue(forTemperature: Float(temperatureAndTint.temperature))
        guard temperatureAndTint.tint == 0 else {
            throw .unsupported("\(localizedName) cannot set a white-balance tint")
        }
        if controls[.autoWhiteBalance] != nil { try setControl(.autoWhiteBalance, value: 0) }
        try setControl(.whiteBalanceTemperature, value: value)
        state.withLock { $0.whiteBalanceMode = .locked }
        return syncTime()
    }
}
