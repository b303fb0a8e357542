public import LuxColor
public import LuxPixels
import RealModule

extension SimulatedCamera {
    /// The presentation time of the first frame that reflects a change made now.
    ///
    /// Changes apply at the next frame slot; the lens travels at a finite speed, so a focus change is reflected by the
    /// frame on which it arrives (assuming the frame duration does not change before then). Nothing waits: the time is
    /// known when the request is made, because the simulation is deterministic.
    func syncTime(lensTarget: Double? = nil) -> MediaTime {
        let speed = isSmoothAutoFocusEnabled ? configuration.lensSpeed.smooth : configuration.lensSpeed.normal
        return state.withLock { s in
            guard let target = lensTarget, s.isStreaming else { return s.nextTime }
            var p = s.lensPosition
            var frames = 1
            while true {
                let delta = target - p
                p = abs(delta) <= speed ? target : p + (delta > 0 ? speed : -speed)
                if p == target || frames > 1000 { break }
                frames += 1
            }
            return s.nextTime + s.slot(for: s.duration) * (frames - 1)
        }
    }

    // MARK: Focus

    /// Sets the focus mode: ``FocusMode/locked`` stops the lens where it is, ``FocusMode/autoFocus`` starts a
    /// one-shot sweep, ``FocusMode/continuousAutoFocus`` starts hill climbing.
    public func setFocusMode(_ mode: FocusMode) {
        state.withLock { s in
            s.focusMode = mode
            s.autoFocus.smooth = s.smoothAutoFocus
            switch mode {
            case .locked:
                s.autoFocus.phase = .idle
                s.lensTarget = s.lensPosition
            case .autoFocus:
                s.autoFocus.startSweep(range: s.rangeRestriction.lensPositions)
            case .continuousAutoFocus:
                s.autoFocus.startClimb(range: s.rangeRestriction.lensPositions)
                s.autoFocusNeedsStart = false
            }
        }
        publish()
    }

    /// Locks focus at a lens position (0 = closest, 1 = farthest), or where the lens is now with `.current`.
    ///
    /// - Returns: The presentation time of the first frame taken at that position (the lens travels at a
    ///   finite speed, so that may be a few frames later). Returns at once: the simulation knows that time.
    /// - Throws: ``CaptureError/outOfRange(name:value:range:)`` outside 0…1.
    @discardableResult
    public func setFocusModeLocked(lensPosition: ControlValue<Float>) async throws(CaptureError) -> MediaTime {
        if case .value(let p) = lensPosition, !(0...1).contains(p) {
            throw .outOfRange(name: "lensPosition", value: Double(p), range: 0...1)
        }
        let target = state.withLock { s -> Double in
            s.focusMode = .locked
            s.autoFocus.phase = .idle
            let t: Double
            if case .value(let p) = lensPosition { t = Double(p) } else { t = s.lensPosition }
            s.lensTarget = t
            if !s.isStreaming { s.lensPosition = t }
            return t
        }
        publish()
        return syncTime(lensTarget: target)
    }

    /// The point autofocus looks at, in normalised frame coordinates (0…1; (0.5, 0.5) is the centre).
    ///
    /// - Throws: ``CaptureError/outOfRange(name:value:range:)`` outside 0…1.
    public func setFocusPointOfInterest(_ point: Point) throws(CaptureError) {
        for (name, v) in [("focusPointOfInterest.x", point.x), ("focusPointOfInterest.y", point.y)]
        where !(0...1).contains(v) {
            throw .outOfRange(name: name, value: v, range: 0...1)
        }
        state.withLock { s in
            s.focusPoint = SIMD2(point.x, point.y)
            switch s.focusMode {
            case .autoFocus: s.autoFocus.startSweep(range: s.rangeRestriction.lensPositions)
            case .continuousAutoFocus: s.autoFocus.startClimb(range: s.rangeRestriction.lensPositions)
            case .locked: break
            }
        }
    }

    /// The autofocus point of interest.
    public var focusPointOfInterest: Point { state.withLock { Point(x: $0.focusPoint.x, y: $0.focusPoint.y) } }

    /// Limits the autofocus search to near or far distances.
    public var autoFocusRangeRestriction: AutoFocusRangeRestriction {
        get { state.withLock { $0.rangeRestriction } }
        set { state.withLock { $0.rangeRestriction = newValue } }
    }

    /// Slower, smaller autofocus steps for video (no visible focus hunting).
    public var isSmoothAutoFocusEnabled: Bool {
        get { state.withLock { $0.smoothAutoFocus } }
        set { state.withLock { $0.smoothAutoFocus = newValue } }
    }

    /// The lens position of the last frame (0 = closest focus, 1 = farthest).
    public var lensPosition: Float { state.withLock { Float($0.lensPosition) } }

    /// The focus mode.
    public var focusMode: FocusMode { state.withLock { $0.focusMode } }

    // MARK: Exposure

    /// Sets the exposure mode.
    ///
    /// ``ExposureMode/custom`` keeps the current duration and ISO (use ``setExposureModeCustom(duration:iso:)`` to set
    /// them).
    public func setExposureMode(_ mode: ExposureMode) {
        state.withLock { $0.exposureMode = mode }
        publish()
    }

    /// Custom exposure: sets duration and ISO together (`.current` keeps either).
    ///
    /// - Returns: The presentation time of the first frame exposed with the new settings.
    /// - Throws: ``CaptureError/outOfRange(name:value:range:)`` outside the active format's
    ///   `minExposureDuration…maxExposureDuration` or `minISO…maxISO`.
    @discardableResult
    public func setExposureModeCustom(duration: ControlValue<MediaTime>, iso: ControlValue<Float>)
        async throws(CaptureError)
        -> MediaTime
    {
        let f = activeFormat
        var d: MediaTime? = nil
        var i: Float? = nil
        if case .value(let v) = duration { d = v }
        if case .value(let v) = iso { i = v }
        try validateExposure(duration: d, iso: i, format: f)
        state.withLock { s in
            s.exposureMode = .custom
            if let d { s.duration = d }
            if let i { s.iso = i }
            s.adjustingExposure = false
        }
        publish()
        return syncTime()
    }

    /// Biases the auto-exposure target by `bias` EV (exposure compensation).
    ///
    /// In continuous and locked modes it changes the exposure; in custom mode only the meter
    /// (``DeviceStatus/exposureTargetOffset``).
    ///
    /// - Returns: The presentation time of the first frame using the new target.
    /// - Throws: ``CaptureError/outOfRange(name:value:range:)`` outside the format's bias range (−8…8).
    @discardableResult
    public func setExposureTargetBias(_ bias: Float) async throws(CaptureError) -> MediaTime {
        let f = activeFormat
        guard f.exposureTargetBiasRange.contains(bias) else {
            throw .outOfRange(
                name: "exposureTargetBias", value: Double(bias),
                range: Double(f.exposureTargetBiasRange.lowerBound)...Double(f.exposureTargetBiasRange.upperBound))
        }
        state.withLock { s in
            if s.exposureMode == .locked {
                // Metering is disconnected: move the exposure by exactly the change of target.
                let p = s.product(baseISO: sensor.baseISO) * Double.exp2(Double(bias - s.bias))
                s.applyProduct(p, sensor: sensor)
            }
            s.offset += s.bias - bias
            s.bias = bias
        }
        publish()
        return syncTime()
    }

    /// The point auto exposure weights most, in normalised frame coordinates.
    ///
    /// - Throws: ``CaptureError/outOfRange(name:value:range:)`` outside 0…1.
    public func setExposurePointOfInterest(_ point: Point) throws(CaptureError) {
        for (name, v) in [("exposurePointOfInterest.x", point.x), ("exposurePointOfInterest.y", point.y)]
        where !(0...1).contains(v) {
            throw .outOfRange(name: name, value: v, range: 0...1)
        }
        state.withLock { $0.exposurePoint = SIMD2(point.x, point.y) }
    }

    /// The longest exposure auto exposure may choose (slowing the stream): 1/15 s for photo formats, the frame
    /// duration for video formats by default.
    public var maxAutoExposureDuration: MediaTime {
        get { state.withLock { $0.maxAutoExposureDuration } }
        set { state.withLock { $0.maxAutoExposureDuration = newValue } }
    }

    // MARK: White balance

    /// Sets the white-balance mode.
    public func setWhiteBalanceMode(_ mode: WhiteBalanceMode) {
        state.withLock { s in
            s.whiteBalanceMode = mode
            if mode == .continuousAutoWhiteBalance { s.autoWhiteBalanceState = nil }
        }
        publish()
    }

    /// Locks white balance at device gains (or the current ones with `.current`).
    ///
    /// - Returns: The presentation time of the first frame processed with them.
    /// - Throws: ``CaptureError/whiteBalanceGainsOutOfRange(red:green:blue:maximum:)`` when a gain is outside
    ///   1…``DeviceFormat/maxWhiteBalanceGain``.
    @discardableResult
    public func setWhiteBalanceModeLocked(gains: ControlValue<WhiteBalanceGains>) async throws(CaptureError)
        -> MediaTime
    {
        let maximum = Double(activeFormat.maxWhiteBalanceGain)
        if case .value(let g) = gains, (try? g.validated(maxGain: maximum)) == nil {
            throw .whiteBalanceGainsOutOfRange(red: g.red, green: g.green, blue: g.blue, maximum: maximum)
        }
        state.withLock { s in
            s.whiteBalanceMode = .locked
            s.adjustingWhiteBalance = false
            if case .value(let g) = gains { s.gains = g }
        }
        publish()
        return syncTime()
    }

    /// Locks white balance for a light of `temperatureAndTint`, converted to device gains through the camera's
    /// calibration.
    ///
    /// - Returns: The presentation time of the first frame processed with them.
    /// - Throws: ``CaptureError/whiteBalanceGainsOutOfRange(red:green:blue:maximum:)`` when the light needs gains
    ///   outside 1…``DeviceFormat/maxWhiteBalanceGain``.
    @discardableResult
    public func setWhiteBalanceModeLocked(temperatureAndTint: TemperatureAndTint) async throws(CaptureError)
        -> MediaTime
    {
        try await setWhiteBalanceModeLocked(gains: .value(try deviceWhiteBalanceGains(for: temperatureAndTint)))
    }

    /// Every manual control, with exact sync times.
    public var controlCapabilities: ControlCapabilities { .all }

    /// The largest white-balance gain of the active format (4.0).
    public var maxWhiteBalanceGain: Float { activeFormat.maxWhiteBalanceGain }

    /// The white chromaticity that device gains correct for (not clamped; any positive gains work).
    ///
    /// - Throws: ``CaptureError/unsupported(_:)`` for gains that are not positive and finite.
    public func chromaticity(for gains: WhiteBalanceGains) throws(CaptureError) -> Chromaticity {
        do { return try calibration.colorCalibration.chromaticity(for: gains) } catch { throw .unsupported("\(error)") }
    }

    /// The device gains that make a white of chromaticity `xy` neutral, smallest gain 1.
    ///
    /// Not clamped: check the result against ``maxWhiteBalanceGain`` before locking with it.
    ///
    /// - Throws: ``CaptureError/unsupported(_:)`` for a white the camera cannot see.
    public func deviceWhiteBalanceGains(for xy: Chromaticity) throws(CaptureError) -> WhiteBalanceGains {
        do { return try calibration.colorCalibration.whiteBalanceGains(for: xy) } catch {
            throw .unsupported("\(error)")
        }
    }

    /// The temperature and tint of the white that device gains correct for.
    public func temperatureAndTint(for gains: WhiteBalanceGains) throws(CaptureError) -> TemperatureAndTint {
        TemperatureAndTint(chromaticity: try chromaticity(for: gains))
    }

    /// The device gains for a temperature and tint (not clamped).
    public func deviceWhiteBalanceGains(for values: TemperatureAndTint) throws(CaptureError) -> WhiteBalanceGains {
        try deviceWhiteBalanceGains(for: values.chromaticity)
    }
}
