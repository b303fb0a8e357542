import LuxColor
import LuxPixels
import LuxScene
import RealModule

extension SimulatedCamera {
    /// What one frame slot is exposed with.
    struct FramePlan {
        var index: Int
        var time: MediaTime
        var scene: Scene
        var format: DeviceFormat
        var colorSpace: CaptureColorSpace
        var duration: MediaTime
        var iso: Float
        var lensPosition: Double
        var gains: WhiteBalanceGains
        var bias: Float
        var measureFocus: Bool
        var focusPoint: SIMD2<Double>
        var exposurePoint: SIMD2<Double>
        var flash: Flash?
        /// Identifies `scene` for the radiance cache: it changes whenever the device's scene is replaced.
        var sceneID: UInt64 = 0
    }

    /// Everything mutable about the device.
    struct State {
        var scene: Scene {
            didSet {
                sceneID &+= 1
                // A new scene is a change of light no frame has metered yet: the loops adjust until one has.
                if exposureMode == .continuousAutoExposure { adjustingExposure = true }
                if whiteBalanceMode == .continuousAutoWhiteBalance { adjustingWhiteBalance = true }
            }
        }
        var sceneID: UInt64 = 0
        var format: DeviceFormat
        var colorSpace: CaptureColorSpace = .sRGB
        var frameDuration: MediaTime
        var maxAutoExposureDuration: MediaTime
        var flash = Flash()
        // Focus
        var focusMode: FocusMode = .continuousAutoFocus
        var focusPoint = SIMD2(0.5, 0.5)
        var rangeRestriction: AutoFocusRangeRestriction = .none
        var smoothAutoFocus = false
        var lensPosition = 0.8
        var lensTarget = 0.8
        var autoFocus = AutoFocus()
        var autoFocusNeedsStart = true
        // Exposure
        var exposureMode: ExposureMode = .continuousAutoExposure
        var exposurePoint = SIMD2(0.5, 0.5)
        var duration = MediaTime(value: 1, timescale: 60)
        var iso: Float = 100
        var bias: Float = 0
        var offset: Float = 0
        var metered: AutoExposure.Reading?
        var adjustingExposure = false
        // White balance
        var whiteBalanceMode: WhiteBalanceMode = .continuousAutoWhiteBalance
        var gains = WhiteBalanceGains.identity
        var grayWorldGains = WhiteBalanceGains.identity
        var adjustingWhiteBalance = false
        var autoWhiteBalanceState: SIMD2<Double>?  // (mired, tint), smoothed
        // Clock
        var nextIndex = 0
        var nextTime = MediaTime.zero
        var lastFrameTime = MediaTime.zero
        var isStreaming = false

        init(scene: Scene, format: DeviceFormat, sensor: SensorModel) {
            self.scene = scene
            self.format = format
            frameDuration = Self.defaultFrameDuration(format)
            maxAutoExposureDuration = Self.defaultMaxAutoExposureDuration(format)
        }

        static func defaultFrameDuration(_ f: DeviceFormat) -> MediaTime {
            DeviceFormat.frameDuration(fps: min(30, f.frameRateRange.upperBound))
        }

        /// Photo formats let auto exposure slow to 15 fps in low light; video formats keep their frame rate.
        static func defaultMaxAutoExposureDuration(_ f: DeviceFormat) -> MediaTime {
            f.isPhotoFormat ? MediaTime(value: 1, timescale: 15) : defaultFrameDuration(f)
        }

        static func initialGains(calibration: CameraCalibration) -> WhiteBalanceGains {
            (try? calibration.colorCalibration.whiteBalanceGains(for: WhitePoint.d65)) ?? .identity
        }

        func status(aperture: Float) -> DeviceStatus {
            DeviceStatus(
                focusMode: focusMode, lensPosition: Float(lensPosition),
                isAdjustingFocus: autoFocus.isActive || lensPosition != lensTarget, exposureMode: exposureMode,
                exposureDuration: duration, iso: iso, exposureTargetOffset: offset, exposureTargetBias: bias,
                isAdjustingExposure: adjustingExposure, whiteBalanceMode: whiteBalanceMode,
                deviceWhiteBalanceGains: gains, grayWorldWhiteBalanceGains: grayWorldGains,
                isAdjustingWhiteBalance: adjustingWhiteBalance, lensAperture: aperture, lastFrameTime: lastFrameTime,
                frameCount: nextIndex)
        }

        /// The exposure product t × analog gain for the current settings.
        func product(baseISO: Float) -> Double { duration.seconds * Double(iso / baseISO) }

        /// The slot a frame with exposure `d` occupies: the frame duration, or longer for long exposures.
        func slot(for d: MediaTime) -> MediaTime { d > frameDuration ? d : frameDuration }

        /// Moves the lens toward its target and describes the next frame.
        mutating func beginFrame(lensSpeed: Double) -> FramePlan {
            if focusMode == .continuousAutoFocus, autoFocusNeedsStart {
                autoFocus.smooth = smoothAutoFocus
                autoFocus.startClimb(range: rangeRestriction.lensPositions)
                autoFocusNeedsStart = false
            }
            let delta = lensTarget - lensPosition
            lensPosition = abs(delta) <= lensSpeed ? lensTarget : lensPosition + (delta > 0 ? lensSpeed : -lensSpeed)
            let measure = focusMode != .locked && lensPosition == lensTarget
            return FramePlan(
                index: nextIndex, time: nextTime, scene: scene, format: format, colorSpace: colorSpace,
                duration: duration, iso: iso, lensPosition: lensPosition, gains: gains, bias: bias,
                measureFocus: measure, focusPoint: focusPoint, exposurePoint: exposurePoint, flash: nil,
                sceneID: sceneID)
        }

        /// Runs the 3A loops on a finished frame and advances the clock.
        mutating func endFrame(
            _ plan: FramePlan, statistics stats: FrameStatistics, focusScore: Double?, sensor: SensorModel,
            calibration: CameraCalibration
        ) {
            // Auto exposure: meter this frame (exposed with plan's settings).
            let product = plan.duration.seconds * Double(plan.iso / sensor.baseISO)
            let reading = AutoExposure.Reading(
                stats, pointOfInterest: plan.exposurePoint, product: product, frameIndex: plan.index)
            metered = reading
            let ev = reading.photo
            let off = ev - Double(bias)
            offset = Float(off)
            if exposureMode == .continuousAutoExposure {
                if let step = AutoExposure.step(offset: off) {
                    applyProduct(product * Double.exp2(step), sensor: sensor)
                    // At the end of the exposure range the loop cannot follow: it is not adjusting any more.
                    adjustingExposure = duration != plan.duration || iso != plan.iso
                } else {
                    adjustingExposure = false
                }
            } else {
                adjustingExposure = false
            }
            // White balance.
            let maxGain = Double(format.maxWhiteBalanceGain)
            if let g = AutoWhiteBalance.grayWorldGains(stats) {
                grayWorldGains = WhiteBalanceGains(clamping: g, maximum: maxGain)
            }
            if whiteBalanceMode == .continuousAutoWhiteBalance, let n = AutoWhiteBalance.illuminantNeutral(stats) {
                let xy = calibration.chromaticity(ofCameraNeutral: n)
                let kelvin = min(max(TemperatureAndTint(chromaticity: xy).temperature, 2000), 10000)
                let estimate = SIMD2(1e6 / kelvin, AutoWhiteBalance.naturalTint(kelvin: kelvin))
                let smoothed: SIMD2<Double>
                if let previous = autoWhiteBalanceState {
                    smoothed = previous + 0.5 * (estimate - previous)
                    adjustingWhiteBalance = abs(smoothed.x - previous.x) > 0.5 || abs(smoothed.y - previous.y) > 0.2
                } else {
                    smoothed = estimate
                    adjustingWhiteBalance = true
                }
                autoWhiteBalanceState = smoothed
                let white = TemperatureAndTint(temperature: 1e6 / smoothed.x, tint: smoothed.y).chromaticity
                if let g = try? calibration.colorCalibration.whiteBalanceGains(for: white) {
                    gains = WhiteBalanceGains(clamping: g.vector, maximum: maxGain)
                }
            } else {
                adjustingWhiteBalance = false
            }
            // Autofocus: a new scene (its brightness, independent of exposure) or moving exposure restarts a search.
            if focusMode == .continuousAutoFocus {
                autoFocus.observeScene(
                    brightness: reading.photo - Double.log2(product), exposureSettled: !adjustingExposure)
            }
            if let score = focusScore, focusMode != .locked {
                let r = autoFocus.update(position: plan.lensPosition, score: score)
                if let t = r.target { lensTarget = min(max(t, 0), 1) }
                if r.finished, focusMode == .autoFocus { focusMode = .locked }
            }
            // Clock.
            lastFrameTime = plan.time
            nextTime = plan.time + slot(for: plan.duration)
            nextIndex = plan.index + 1
        }

        /// Sets duration and ISO for an exposure product t × gain, within the format and auto-exposure limits.
        mutating func applyProduct(_ product: Double, sensor: SensorModel) {
            let handheld = min(1.0 / 30, maxAutoExposureDuration.seconds)
            let split = AutoExposure.split(
                product: product, baseISO: sensor.baseISO, minISO: format.minISO, maxISO: format.maxISO,
                minDuration: format.minExposureDuration.seconds, handheldLimit: handheld,
                absoluteLimit: maxAutoExposureDuration.seconds)
            duration = MediaTime(seconds: split.duration, preferredTimescale: 1_000_000_000)
            iso = split.iso
        }
    }
}
