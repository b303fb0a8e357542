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
        if writable(.redBalance), writable(.blueBalance) {
            c.whiteBalanceModes.insert(.locked)
            c.supportsWhiteBalanceGains = true
        }
        if writable(.lock3A) {
            let lock = controls[.lock3A]?.maximum ?? 0
            if lock & V4L2.LockBit.focus != 0, !c.focusModes.isEmpty { c.focusModes.insert(.locked) }
            if lock & V4L2.LockBit.exposure != 0, c.exposureModes.contains(.continuousAutoExposure) {
                c.exposureModes.insert(.locked)
            }
            if lock & V4L2.LockBit.whiteBalance != 0, c.whiteBalanceModes.contains(.continuousAutoWhiteBalance) {
                c.whiteBalanceModes.insert(.locked)
            }
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

    /// The V4L2_CID_RED_BALANCE and V4L2_CID_BLUE_BALANCE values for device white-balance gains.
    ///
    /// The units of these controls are the driver's; the driver's default value is taken as gain 1, and the red and
    /// blue gains are set relative to green (the device has no green balance).
    ///
    /// - Throws: ``CaptureError/unsupported(_:)`` without both controls,
    ///   ``CaptureError/whiteBalanceGainsOutOfRange(red:green:blue:maximum:)`` for gains outside
    ///   1…``DeviceFormat/maxWhiteBalanceGain`` or beyond a control's range.
    public func whiteBalanceControlValues(for gains: WhiteBalanceGains) throws(CaptureError) -> (
        red: Int32, blue: Int32
    ) {
        guard let red = controls[.redBalance], let blue = controls[.blueBalance] else {
            throw .unsupported("\(localizedName) cannot set white-balance gains; lock a temperature instead")
        }
        let maximum = Double(activeFormat.maxWhiteBalanceGain)
        let outOfRange = CaptureError.whiteBalanceGainsOutOfRange(
            red: gains.red, green: gains.green, blue: gains.blue, maximum: maximum)
        guard (try? gains.validated(maxGain: maximum)) != nil else { throw outOfRange }
        func value(_ c: V4L2ControlInfo, _ gain: Double) throws(CaptureError) -> Int32 {
            let v = (ControlRanges.unityBalance(c) * gain / gains.green).rounded()
            guard v >= Double(c.minimum), v <= Double(c.maximum) else { throw outOfRange }
            return Int32(v)
        }
        return (try value(red, gains.red), try value(blue, gains.blue))
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

    /// Whether a lock goes through V4L2_CID_3A_LOCK: the device has the control with this bit, and the matching
    /// automatic mode is on (a lock holds what the automatic loop reached).
    func usesLock(_ bit: Int32) -> Bool {
        guard let lock = controls[.lock3A], lock.isWritable, lock.maximum & bit != 0 else { return false }
        let mode = status
        switch bit {
        case V4L2.LockBit.focus: return mode.focusMode == .continuousAutoFocus
        case V4L2.LockBit.exposure: return mode.exposureMode == .continuousAutoExposure
        default: return mode.whiteBalanceMode == .continuousAutoWhiteBalance
        }
    }

    /// Sets or clears a bit of V4L2_CID_3A_LOCK when the device has it.
    func setLock(_ bit: Int32, _ on: Bool) throws(CaptureError) {
        guard let lock = controls[.lock3A], lock.isWritable, lock.maximum & bit != 0 else { return }
        let current = (try? readControl(.lock3A)) ?? 0
        let next = on ? current | bit : current & ~bit
        if next != current { try setControl(.lock3A, value: next) }
    }

    func syncTime() -> MediaTime { state.withLock { $0.syncTime(latencyFrames: configuration.controlLatencyFrames) } }

    // MARK: Focus

    /// Sets the focus mode: continuous autofocus (V4L2_CID_FOCUS_AUTO on), locked (the focus bit of V4L2_CID_3A_LOCK
    /// while autofocus runs, else V4L2_CID_AUTO_FOCUS_STOP and autofocus off: the lens stays), or one autofocus scan
    /// (V4L2_CID_AUTO_FOCUS_START).
    public func setFocusMode(_ mode: FocusMode) throws(CaptureError) {
        guard controlCapabilities.focusModes.contains(mode) else {
            throw .unsupported("\(localizedName) has no \(mode.rawValue) focus mode")
        }
        switch mode {
        case .continuousAutoFocus:
            try setLock(V4L2.LockBit.focus, false)
            try setControl(.focusAuto, value: 1)
        case .locked:
            if usesLock(V4L2.LockBit.focus) {
                try setLock(V4L2.LockBit.focus, true)
            } else {
                if controls[.autoFocusStop]?.isWritable ?? false { try setControl(.autoFocusStop, value: 1) }
                if controls[.focusAuto] != nil { try setControl(.focusAuto, value: 0) }
            }
        case .autoFocus:
            try setLock(V4L2.LockBit.focus, false)
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
            try setLock(V4L2.LockBit.focus, false)
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

    /// Sets the exposure mode: continuous (V4L2_EXPOSURE_AUTO, or aperture priority, as UVC cameras offer), locked
    /// (the exposure bit of V4L2_CID_3A_LOCK while auto exposure runs, else V4L2_EXPOSURE_MANUAL), or custom
    /// (V4L2_EXPOSURE_MANUAL, keeping the current time and gain).
    public func setExposureMode(_ mode: ExposureMode) throws(CaptureError) {
        guard controlCapabilities.exposureModes.contains(mode) else {
            throw .unsupported("\(localizedName) has no \(mode.rawValue) exposure mode")
        }
        if mode == .locked, usesLock(V4L2.LockBit.exposure) {
            try setLock(V4L2.LockBit.exposure, true)
        } else {
            try setLock(V4L2.LockBit.exposure, false)
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
        if mode == .locked, usesLock(V4L2.LockBit.whiteBalance) {
            try setLock(V4L2.LockBit.whiteBalance, true)
        } else {
            try setLock(V4L2.LockBit.whiteBalance, false)
            if controls[.autoWhiteBalance] != nil {
                try setControl(.autoWhiteBalance, value: mode == .continuousAutoWhiteBalance ? 1 : 0)
            }
        }
        state.withLock { $0.whiteBalanceMode = mode }
    }

    /// Locks white balance at the current gains (`.current`) or at device gains written to V4L2_CID_RED_BALANCE
    /// and V4L2_CID_BLUE_BALANCE (see ``whiteBalanceControlValues(for:)``), with auto white balance off.
    ///
    /// - Returns: The estimated sync time.
    /// - Throws: ``CaptureError/unsupported(_:)`` for explicit gains without the balance controls,
    ///   ``CaptureError/whiteBalanceGainsOutOfRange(red:green:blue:maximum:)`` outside their range.
    @discardableResult
    public func setWhiteBalanceModeLocked(gains: ControlValue<WhiteBalanceGains>) async throws(CaptureError)
        -> MediaTime
    {
        guard case .value(let g) = gains else {
            try setWhiteBalanceMode(.locked)
            return syncTime()
        }
        let values = try whiteBalanceControlValues(for: g)
        try setLock(V4L2.LockBit.whiteBalance, false)
        if controls[.autoWhiteBalance] != nil { try setControl(.autoWhiteBalance, value: 0) }
        try setControl(.redBalance, value: values.red)
        try setControl(.blueBalance, value: values.blue)
        state.withLock { $0.whiteBalanceMode = .locked }
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
        try setLock(V4L2.LockBit.whiteBalance, false)
        if controls[.autoWhiteBalance] != nil { try setControl(.autoWhiteBalance, value: 0) }
        try setControl(.whiteBalanceTemperature, value: value)
        state.withLock { $0.whiteBalanceMode = .locked }
        return syncTime()
    }
}
