import RealModule

/// Contrast-detect autofocus (ALGORITHMS.md §6.2): a full sweep with local refinement for one-shot focus, a hill climb
/// with re-trigger hysteresis for continuous focus.
///
/// It only sees focus scores and brightness of frames, never the scene's distances. Continuous focus sweeps the whole
/// range again when the scene's brightness moves by more than ``sceneChangeStops`` from the one it focused in (a new
/// scene), once auto exposure has settled on it: the normalised score of a new subject says nothing about the old
/// one's, so the score hysteresis alone can leave the lens where the previous scene put it. A climb only compares frames exposed
/// alike: while auto exposure moves, it waits (a noisier, underexposed frame scores higher than a sharp one).
struct AutoFocus: Sendable {
    enum Phase: Sendable, Equatable {
        case idle
        /// One-shot: visiting `positions`, scores gathered so far.
        case sweep(positions: [Double], next: Int, fine: Bool)
        /// Continuous: climbing with `step` (signed).
        case climb(step: Double, lastScore: Double)
        /// Continuous: holding focus, watching for the score to drop.
        case monitor(lockedScore: Double, lowFrames: Int)
        /// Continuous: a new scene (then a full sweep follows), or exposure moving under a climb (then the climb
        /// starts again); the search starts once exposure has settled.
        case awaitingExposure(sweep: Bool)
    }

    /// How far (stops) the scene's brightness moves from the one continuous focus searched in before it searches again.
    static let sceneChangeStops = 1.0

    var phase: Phase = .idle
    var samples: [(position: Double, score: Double)] = []
    var range: ClosedRange<Double> = 0...1
    var smooth = false
    /// The scene brightness (log2 of luminance, any fixed offset) continuous focus last searched in.
    var sceneBrightness: Double?
    /// Whether a finished sweep hands over to monitoring (continuous focus) instead of stopping (one-shot).
    var monitorsAfterSweep = false

    var isActive: Bool {
        switch phase {
        case .idle, .monitor: false
        default: true
        }
    }

    /// Starts a sweep over `range`: 13 coarse positions from the end nearer the lens, then a fine pass around the
    /// best from the side the lens is on.
    ///
    /// - Parameter monitors: Hand over to monitoring when the sweep ends (continuous focus) instead of stopping.
    mutating func startSweep(range: ClosedRange<Double>, thenMonitor monitors: Bool = false) {
        self.range = range
        samples = []
        monitorsAfterSweep = monitors
        let n = 13
        let positions = (0..<n).map {
            range.lowerBound + (range.upperBound - range.lowerBound) * Double($0) / Double(n - 1)
        }
        phase = .sweep(positions: positions, next: 0, fine: false)
    }

    /// Starts a continuous hill climb from `position`.
    mutating func startClimb(range: ClosedRange<Double>) {
        self.range = range
        samples = []
        phase = .climb(step: smooth ? 0.03 : 0.08, lastScore: -1)
    }

    /// The 3-point parabolic peak of log scores around the best sample (a Gaussian fit).
    static func refinedPeak(_ samples: [(position: Double, score: Double)]) -> Double {
        let sorted = samples.sorted { $0.position < $1.position }
        guard let best = sorted.indices.max(by: { sorted[$0].score < sorted[$1].score }) else { return 0.5 }
        guard best > 0, best < sorted.count - 1 else { return sorted[best].position }
        let a = sorted[best - 1]
        let b = sorted[best]
        let c = sorted[best + 1]
        let la = logScore(a.score)
        let lb = logScore(b.score)
        let lc = logScore(c.score)
        // Non-uniform three-point parabola vertex.
        let x0 = a.position
        let x1 = b.position
        let x2 = c.position
        let denom = (x0 - x1) * (x0 - x2) * (x1 - x2)
        guard denom != 0 else { return x1 }
        // The parabola's x² and x coefficients; its vertex is a peak only when the x² term is negative.
        let quadratic = (x2 * (lb - la) + x1 * (la - lc) + x0 * (lc - lb)) / denom
        let linear = (x2 * x2 * (la - lb) + x1 * x1 * (lc - la) + x0 * x0 * (lb - lc)) / denom
        guard quadratic < 0 else { return x1 }
        return min(max(-linear / (2 * quadratic), x0), x2)
    }

    static func logScore(_ s: Double) -> Double { s > 0 ? s.logApprox : -100 }

    /// Watches a continuous search's scene: `brightness` is the frame's scene brightness in stops (independent of
    /// its exposure), `exposureSettled` whether auto exposure has stopped moving.
    ///
    /// A change of more than ``sceneChangeStops`` starts a sweep once exposure has settled; a climb whose exposure
    /// starts moving starts again once it has.
    mutating func observeScene(brightness: Double, exposureSettled: Bool) {
        switch phase {
        case .idle, .sweep:
            return
        case .awaitingExposure(let sweep):
            guard exposureSettled else { return }
            sceneBrightness = brightness
            if sweep {
                // A new subject's focus curve can have several peaks (a deep subject, its background): a climb from
                // where the last scene left the lens stops at the nearest one, a sweep finds the highest.
                startSweep(range: range, thenMonitor: true)
            } else {
                startClimb(range: range)
            }
        case .climb where !exposureSettled:
            // The normalised score still rises with noise and falls with clipping: frames exposed differently
            // cannot be compared, so the climb starts again once exposure holds still.
            phase = .awaitingExposure(sweep: false)
        case .climb, .monitor:
            guard let reference = sceneBrightness else {
                if exposureSettled { sceneBrightness = brightness }
                return
            }
            if abs(brightness - reference) > Self.sceneChangeStops { phase = .awaitingExposure(sweep: true) }
        }
    }

    /// Feeds the score of a frame taken at `position`; returns the lens target for the next frame, or nil to stay.
    ///
    /// When a one-shot sweep finishes, `finished` becomes true.
    mutating func update(position: Double, score: Double) -> (target: Double?, finished: Bool) {
        switch phase {
        case .idle, .awaitingExposure:
            return (nil, false)
        case .sweep(var positions, let next, let fine):
            if next > 0 {
                samples.append((position, score))
            } else if let first = positions.first, let last = positions.last,
                abs(last - position) < abs(first - position)
            {
                // The sweep starts at its end nearer the lens: the lens does not cross the range before it begins.
                positions.reverse()
            }
            if next < positions.count {
                phase = .sweep(positions: positions, next: next + 1, fine: fine)
                return (positions[next], false)
            }
            if !fine {
                // Fine pass: ±1 coarse step around the best coarse position, in steps of 1/4 of it.
                let coarse = (positions.count > 1 ? positions[1] - positions[0] : 0.1)
                let best = samples.max { $0.score < $1.score }?.position ?? position
                let fineStep = coarse / 4
                // From the side the lens is on: it crosses the best position once.
                let side = position < best ? 1.0 : -1.0
                let fines = (-4...4).map { best + side * Double($0) * fineStep }.filter {
                    range.contains($0) && $0 != best
                }
                phase = .sweep(positions: fines, next: 0, fine: true)
                return update(position: position, score: score)
            }
            let peak = Self.refinedPeak(samples)
            phase = monitorsAfterSweep ? .monitor(lockedScore: 0, lowFrames: 0) : .idle
            return (peak, true)
        case .climb(let step, let last):
            samples.append((position, score))
            if last >= 0, score < last {
                // Passed the peak: reverse and halve.
                let newStep = -step / 2
                if abs(newStep) < 0.005 {
                    let peak = Self.refinedPeak(samples)
                    phase = .monitor(lockedScore: score, lowFrames: 0)
                    return (peak, false)
                }
                phase = .climb(step: newStep, lastScore: score)
                return (clamp(position + newStep), false)
            }
            var s = step
            let next = position + s
            if !range.contains(next) {
                s = -s / 2
                phase = .climb(step: s, lastScore: score)
                return (clamp(position + s), false)
            }
            phase = .climb(step: s, lastScore: score)
            return (next, false)
        case .monitor(let locked, let low):
            if locked <= 0 {
                phase = .monitor(lockedScore: score, lowFrames: 0)
                return (nil, false)
            }
            if score < 0.8 * locked {
                if low + 1 >= 3 {
                    startClimb(range: range)
                    return (nil, false)
                }
                phase = .monitor(lockedScore: locked, lowFrames: low + 1)
            } else {
                phase = .monitor(lockedScore: max(locked, score * 0.5 + locked * 0.5), lowFrames: 0)
            }
            return (nil, false)
        }
    }

    func clamp(_ p: Double) -> Double { min(max(p, range.lowerBound), range.upperBound) }
}

extension Double {
    var logApprox: Double { Double.log(self) }
}
