import LuxPixels
import RealModule

/// The auto-exposure block (ALGORITHMS.md §5): metering, target offset, and a first-order log-domain loop that
/// splits the exposure product between duration and ISO.
struct AutoExposure: Sendable {
    /// Metered linear level that counts as correctly exposed (12.8 % of saturation, ISO 12232).
    static let target = 0.128
    /// Changes smaller than this (EV) are ignored, so the loop settles instead of hunting.
    static let deadband = 1.0 / 6
    /// Fraction of the error corrected per frame.
    static let loopGain = 0.5
    /// Largest error (EV) the loop acts on at once; with the gain it limits a step to 1 EV.
    static let errorClamp = 2.0

    /// One frame's meter readings, with the exposure it was taken at.
    struct Reading: Sendable {
        /// ``meter(_:pointOfInterest:)`` (before bias): what the stream and single photos are exposed by.
        var photo: Double
        /// ``highlightMeter(_:pointOfInterest:)`` (before bias): what brackets and exposure fusion start from.
        var highlights: Double
        /// The fraction of the frame's photosites that clipped.
        var clippedFraction: Double
        /// The frame's exposure product (duration × analog gain, seconds at unity gain).
        var product: Double
        /// The frame's index.
        var frameIndex: Int
        /// The product at which ``highlights`` reads 0, once found (``SimulatedCamera`` fills it in).
        var highlightProduct: Double? = nil

        init(_ stats: FrameStatistics, pointOfInterest: SIMD2<Double>, product: Double, frameIndex: Int) {
            photo = AutoExposure.meter(stats, pointOfInterest: pointOfInterest)
            highlights = AutoExposure.highlightMeter(stats, pointOfInterest: pointOfInterest)
            clippedFraction = AutoExposure.clippedFraction(stats)
            self.product = product
            self.frameIndex = frameIndex
        }
    }

    /// How far above the frame's median cell (EV) a cell counts in ``meter(_:pointOfInterest:)``: a brighter cell (a
    /// window, a lamp, the sky) counts as this bright.
    static let highlightCeiling = 0.5

    /// The photo meter: the centre-weighted log-average of the green channel with each cell capped at
    /// ``highlightCeiling`` above the frame's median cell, as an EV offset from the target before bias:
    /// `log2(Y / target)`.
    ///
    /// A phone meters a backlit room for the room: a window four stops above the room that fills a quarter of the
    /// frame moves this meter by an eighth of a stop instead of a whole one, and the window is let clip rather than
    /// leave the room dark. The stream and single photos are exposed by it; brackets and exposure fusion start from
    /// ``highlightMeter(_:pointOfInterest:)`` instead.
    static func meter(_ stats: FrameStatistics, pointOfInterest: SIMD2<Double>) -> Double {
        let logs = greenLogs(stats)
        guard !logs.isEmpty else { return 0 }
        let ceiling = logs.sorted()[logs.count / 2] + highlightCeiling * Double.log(2)
        return Double.log2(
            Double.exp(centreWeightedMean(logs.map { min($0, ceiling) }, stats, pointOfInterest)) / target)
    }

    /// The highlight meter: the centre-weighted log-average of the green channel with a highlight guard, as an EV
    /// offset from the target before bias: `log2(Y / target) + guard`.
    ///
    /// The guard gives up at most 1 EV of the scene to keep clipped highlights down, and no cell is capped: the base
    /// of an auto-exposure bracket or an exposure-fusion burst, whose darker frames must still hold a window that the
    /// photo meter lets clip (hdr-window's façade, 800 times its skirting, within a −2 EV frame).
    static func highlightMeter(_ stats: FrameStatistics, pointOfInterest: SIMD2<Double>) -> Double {
        let logs = greenLogs(stats)
        guard !logs.isEmpty else { return 0 }
        let y = Double.exp(centreWeightedMean(logs, stats, pointOfInterest))
        let guardEV = min(1, max(0, clippedFraction(stats) - 0.02) * 20)
        return Double.log2(y / target) + guardEV
    }

    /// The natural logarithm of each cell's mean green (floored just above zero), what both meters average.
    static func greenLogs(_ stats: FrameStatistics) -> [Double] {
        stats.means.map { Double.log(Double(max($0.y, 0)) + 1e-4) }
    }

    /// The fraction of the frame's photosites that clipped (the mean over the cells).
    static func clippedFraction(_ stats: FrameStatistics) -> Double {
        stats.clippedFractions.reduce(0) { $0 + Double($1) } / Double(max(stats.clippedFractions.count, 1))
    }

    /// The mean of one value per cell, weighted by a Gaussian (σ = 0.25 of the normalised diagonal) around
    /// `pointOfInterest`.
    static func centreWeightedMean(_ values: [Double], _ stats: FrameStatistics, _ pointOfInterest: SIMD2<Double>)
        -> Double
    {
        var wsum = 0.0
        var sum = 0.0
        let sigma2 = 0.25 * 0.25 * 2  // σ = 0.25 of the normalised diagonal (√2)
        for i in values.indices {
            let c = stats.cellCenter(i) - pointOfInterest
            let w = Double.exp(-(c * c).sum() / (2 * sigma2))
            sum += w * values[i]
            wsum += w
        }
        return sum / wsum
    }

    /// The exposure change (EV) the loop makes after measuring `offset` (already including bias), or nil when
    /// inside the deadband.
    static func step(offset: Double) -> Double? {
        guard abs(offset) >= deadband else { return nil }
        return -loopGain * min(max(offset, -errorClamp), errorClamp)
    }

    /// Splits an exposure product `t × gain` (seconds at unity gain) into a duration and an ISO: duration
    /// first up to `handheldLimit`, then gain up to the maximum, then duration up to `absoluteLimit`.
    static func split(
        product: Double, baseISO: Float, minISO: Float, maxISO: Float, minDuration: Double, handheldLimit: Double,
        absoluteLimit: Double
    ) -> (duration: Double, iso: Float) {
        let minGain = Double(minISO / baseISO)
        let maxGain = Double(maxISO / baseISO)
        var t = min(max(product / minGain, minDuration), handheldLimit)
        var g = product / t
        if g > maxGain {
            t = min(product / maxGain, absoluteLimit)
            g = product / t
        }
        g = min(max(g, minGain), maxGain)
        return (t, Float(g) * baseISO)
    }
}
