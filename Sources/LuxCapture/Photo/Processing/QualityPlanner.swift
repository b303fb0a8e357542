/// Chooses the processing for a request: the quality prioritisation level, the format kind (photo, video,
/// video with high photo quality) and the metered scene (low light or well lit) decide it (seed 003).
///
/// This is the one place that maps levels to algorithms; ``PhotoFusion`` carries them out.
enum QualityPlanner {
    /// Below this EV100 the scene is low light: flash is warranted, bursts get longer.
    static let lowLightEV100 = 5.0
    /// Below this EV100 multi-frame fusion helps against blur and noise (a still-image-stabilisation scene).
    static let stabilizationEV100 = 7.5
    /// Above this clipped fraction at the metered exposure, the quality level adds exposure fusion.
    static let highDynamicRangeClipping = 0.004

    /// Frames of the balanced level's fast merge.
    static func balancedFrames(lowLight: Bool) -> Int { lowLight ? 4 : 3 }
    /// Frames of the quality level's full merge.
    static func qualityFrames(lowLight: Bool) -> Int { lowLight ? 8 : 4 }

    static func plan(
        _ settings: PhotoSettings, capabilities c: PhotoCapabilities, metering m: SceneMetering?, flash: Bool
    ) -> PhotoProcessing {
        let ev = m?.ev100 ?? 10
        let lowLight = ev < lowLightEV100
        let clipped = m?.clippedFraction ?? 0
        var p = PhotoProcessing(
            method: .singleFrame, frameCount: 1, usesExposureFusion: false, usesStreamFrames: false, sceneEV100: ev,
            isLowLight: lowLight, clippedFraction: clipped)
        let isVideoFormat = !(c.format?.isPhotoFormat ?? true)
        if settings.bracket != nil {
            p.method = .bracket
            return p
        }
        // RAW, flash and a turned-off stabilisation all mean one exposure.
        let canFuse = !settings.wantsRAW && !flash && settings.isAutoStillImageStabilizationEnabled
        if isVideoFormat {
            // Video formats: the light path at every level unless the format supports high photo quality.
            p.usesStreamFrames = true
            guard c.format?.supportsHighPhotoQuality == true else { return p }
        }
        guard canFuse else { return p }
        switch settings.qualityPrioritization {
        case .speed: break
        case .balanced:
            // On video formats fused from stream frames: no frame is taken from the video.
            p.method = .fastMerge
            p.frameCount = balancedFrames(lowLight: lowLight)
        case .quality:
            // On video formats separate full-resolution exposures: better, but the video stream has a gap.
            p.method = .fullMerge
            p.frameCount = qualityFrames(lowLight: lowLight)
            p.usesStreamFrames = false
            p.usesExposureFusion =
                !isVideoFormat && PhotoFusion.supportsExposureFusion && clipped > highDynamicRangeClipping
        }
        return p
    }

    /// The exposure bias of an exposure-fusion burst: one stop under for a little clipping, two for more.
    static func exposureFusionBias(_ p: PhotoProcessing) -> Float { p.clippedFraction > 0.03 ? -2 : -1 }

    /// Whether the flash fires for `mode` in a scene metered at `metering`.
    static func flashFires(_ mode: FlashMode, metering: SceneMetering?, isBracket: Bool) -> Bool {
        guard !isBracket else { return false }
        switch mode {
        case .off: return false
        case .on: return true
        case .auto: return (metering?.ev100 ?? 10) < lowLightEV100
        }
    }
}
