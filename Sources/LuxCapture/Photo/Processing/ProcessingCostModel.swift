import Synchronization

/// Predicts how long a photo takes, for ``ResolvedPhotoSettings/photoProcessingTimeRange``: from the moment the
/// request's turn comes (pre-capture metering, exposures) to its last photo.
///
/// The prediction is a sum of stage costs proportional to the pixels each stage touches — exposing (rendering
/// and reading out) each frame, merging, developing, scaling and encoding — with per-megapixel rates measured on
/// this machine: the exposure rate from the session's stream frames, the others from a calibration run of the
/// pipeline's own kernels. Every finished capture then refines it: the ratio of actual to predicted time is kept
/// per kind of capture, the prediction is scaled by its median, and the range spans the ratios seen (wide while
/// few have been seen).
final class ProcessingCostModel: Sendable {
    /// Seconds per megapixel of each stage.
    struct Rates: Sendable {
        var exposure = 0.25
        var develop = 0.05
        var developFused = 0.3
        var toneMap = 0.3
        var merge = 0.05
        var noiseReduction = 0.03
        var scale = 0.02
        var encode = 0.03
        var overhead = 0.002
    }

    /// A stage whose rate is measured as captures run.
    enum Stage: Sendable {
        case exposure, develop, developFused, toneMap, merge, noiseReduction, encode
    }

    struct Key: Hashable, Sendable {
        var method: PhotoProcessing.Method
        var usesStreamFrames: Bool
        var wantsRAW: Bool
        var wantsProcessed: Bool
        var codec: Bool
    }

    private struct State {
        var rates = Rates()
        var measured = Set<Stage>()
        var ratios: [Key: [Double]] = [:]
        var allRatios: [Double] = []
    }

    private let state = Mutex(State())
    static let history = 16

    /// What a request will cost, in seconds (before the learned correction).
    func baseEstimate(_ r: ResolvedPhotoSettings, settings: PhotoSettings) -> Double {
        let rates = state.withLock { $0.rates }
        let p = r.processing
        let photoMP = Double(r.photoDimensions.pixelCount) / 1e6
        let rawMP = Double(max(r.rawPhotoDimensions.pixelCount, 0)) / 1e6
        let sensorMP = max(photoMP, rawMP)
        let items = Double(max(r.bracket?.count ?? 1, 1))
        let frames = p.method == .bracket ? items : Double(p.frameCount)
        // The pre-capture metering frame (preview size for photo formats).
        var t = rates.overhead + r.meteringMegapixels * rates.exposure
        t += frames * sensorMP * (p.usesStreamFrames ? rates.exposure * 0.8 : rates.exposure)
        if p.frameCount > 1 { t += Double(p.frameCount) * sensorMP * rates.merge }
        if p.method == .singleFrame && settings.wantsProcessed { t += sensorMP * rates.noiseReduction }
        if settings.wantsProcessed {
            let fused = p.method == .fastMerge || p.method == .fullMerge
            t += items * sensorMP * ((fused ? rates.developFused : rates.develop) + rates.scale)
            if p.usesExposureFusion { t += sensorMP * rates.toneMap }
            if case .codec? = settings.processedFormat { t += items * photoMP * rates.encode }
        }
        if settings.wantsRAW {
            t += items * rawMP * 0.01  // copying the mosaic out of the device pool
            if !settings.wantsProcessed && r.previewDimensions != .zero {
                t += items * rawMP * (rates.develop + rates.scale)
            }
        }
        return t
    }

    static func key(_ r: ResolvedPhotoSettings, settings: PhotoSettings) -> Key {
        var codec = false
        if case .codec? = settings.processedFormat { codec = true }
        return Key(
            method: r.processing.method, usesStreamFrames: r.processing.usesStreamFrames, wantsRAW: settings.wantsRAW,
            wantsProcessed: settings.wantsProcessed, codec: codec)
    }

    /// The predicted range for a request.
    func range(_ r: ResolvedPhotoSettings, settings: PhotoSettings) -> ClosedRange<Duration> {
        let base = baseEstimate(r, settings: settings)
        let key = Self.key(r, settings: settings)
        let (own, all) = state.withLock { ($0.ratios[key] ?? [], $0.allRatios) }
        let lo: Double
        let hi: Double
        if own.count >= 2 {
            let m = Self.median(own)
            lo = base * m * max(0.25, own.min()! / m * 0.5)
            hi = base * m * min(4, own.max()! / m * 1.6)
        } else if !all.isEmpty {
            let m = Self.median(all)
            lo = base * m * 0.3
            hi = base * m * 3
        } else {
            lo = base * 0.1
            hi = base * 10
        }
        return .seconds(max(lo, 0))...(.seconds(max(hi, lo)))
    }

    /// Learns from a finished capture.
    func record(_ r: ResolvedPhotoSettings, settings: PhotoSettings, seconds: Double) {
        let base = baseEstimate(r, settings: settings)
        guard base > 0, seconds > 0 else { return }
        let ratio = seconds / base
        let key = Self.key(r, settings: settings)
        state.withLock { s in
            s.ratios[key, default: []].append(ratio)
            if s.ratios[key]!.count > Self.history { s.ratios[key]!.removeFirst() }
            s.allRatios.append(ratio)
            if s.allRatios.count > Self.history * 4 { s.allRatios.removeFirst() }
        }
    }

    /// Sets the exposure rate from a measured stream frame (seconds for `megapixels`).
    func observeExposure(seconds: Double, megapixels: Double) {
        observe(.exposure, seconds: seconds, megapixels: megapixels)
    }

    /// Updates a stage's rate from a measurement of `seconds` over `megapixels` (the first measurement replaces
    /// the prior; later ones are averaged in).
    func observe(_ stage: Stage, seconds: Double, megapixels: Double) {
        guard megapixels > 0.005, seconds > 0 else { return }
        let rate = seconds / megapixels
        state.withLock { s in
            let measured = s.measured.contains(stage)
            func blend(_ old: Double) -> Double { measured ? 0.7 * old + 0.3 * rate : rate }
            switch stage {
            case .exposure: s.rates.exposure = blend(s.rates.exposure)
            case .develop: s.rates.develop = blend(s.rates.develop)
            case .developFused: s.rates.developFused = blend(s.rates.developFused)
            case .toneMap: s.rates.toneMap = blend(s.rates.toneMap)
            case .merge: s.rates.merge = blend(s.rates.merge)
            case .noiseReduction: s.rates.noiseReduction = blend(s.rates.noiseReduction)
            case .encode: s.rates.encode = blend(s.rates.encode)
            }
            s.measured.insert(stage)
        }
    }

    var rates: Rates { state.withLock { $0.rates } }

    static func median(_ v: [Double]) -> Double {
        let s = v.sorted()
        return s.count % 2 == 1 ? s[s.count / 2] : 0.5 * (s[s.count / 2 - 1] + s[s.count / 2])
    }
}
