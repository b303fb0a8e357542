extension PhotoOutput {
    /// The settings whose flash mode and stabilisation the output monitors the scene for (`nil` by default:
    /// no monitoring, and ``isFlashScene`` and ``isStillImageStabilizationScene`` stay `false`).
    ///
    /// Monitor what you intend to capture: with ``FlashMode/off`` the scene is never a flash scene.
    public var photoSettingsForSceneMonitoring: PhotoSettings? {
        get { state.withLock { $0.photoSettingsForSceneMonitoring } }
        set {
            let metering = state.withLock { s -> SceneMetering? in
                s.photoSettingsForSceneMonitoring = newValue
                return s.lastMetering
            }
            publishSceneFlags(metering: metering)
        }
    }

    /// Whether the live scene warrants the flash for the monitored settings.
    public var isFlashScene: Bool { state.withLock { $0.isFlashScene } }

    /// Whether the live scene warrants multi-frame fusion (still-image stabilisation) for the monitored settings.
    public var isStillImageStabilizationScene: Bool { state.withLock { $0.isStillImageStabilizationScene } }

    /// A scene-monitoring flag of ``PhotoOutput`` that can be observed.
    public enum SceneMonitoringProperty: Sendable, Hashable {
        /// ``PhotoOutput/isFlashScene``.
        case isFlashScene
        /// ``PhotoOutput/isStillImageStabilizationScene``.
        case isStillImageStabilizationScene
    }

    /// The values of a scene-monitoring flag: the current value, then each change.
    ///
    /// ```swift
    /// for await flash in photoOutput.values(of: .isFlashScene) { flashBadge.isHidden = !flash }
    /// ```
    public func values(of property: SceneMonitoringProperty) -> AsyncStream<Bool> {
        switch property {
        case .isFlashScene: flashSceneBroadcaster.subscribe(initial: isFlashScene)
        case .isStillImageStabilizationScene:
            stabilizationSceneBroadcaster.subscribe(initial: isStillImageStabilizationScene)
        }
    }

    /// Whether the session needs to meter frames for this output.
    var isMonitoringScene: Bool { state.withLock { $0.photoSettingsForSceneMonitoring != nil } }

    /// A new stream frame was metered.
    func updateSceneMonitoring(_ metering: SceneMetering) {
        state.withLock { $0.lastMetering = metering }
        publishSceneFlags(metering: metering)
    }

    func publishSceneFlags(metering: SceneMetering?) {
        let (flashChanged, flash, sisChanged, sis) = state.withLock { s -> (Bool, Bool, Bool, Bool) in
            var flash = false
            var sis = false
            if let m = metering, let settings = s.photoSettingsForSceneMonitoring {
                flash = settings.flashMode != .off && m.ev100 < QualityPlanner.lowLightEV100
                sis =
                    settings.isAutoStillImageStabilizationEnabled && !settings.wantsRAW
                    && m.ev100 < QualityPlanner.stabilizationEV100
            }
            let fc = flash != s.isFlashScene
            let sc = sis != s.isStillImageStabilizationScene
            s.isFlashScene = flash
            s.isStillImageStabilizationScene = sis
            return (fc, flash, sc, sis)
        }
        if flashChanged { flashSceneBroadcaster.send(flash) }
        if sisChanged { stabilizationSceneBroadcaster.send(sis) }
    }
}
