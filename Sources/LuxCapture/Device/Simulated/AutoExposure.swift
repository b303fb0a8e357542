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

    /// The centre-weighted log-average of the green channel with a highlight guard, as an EV offset from the
    /// target before bias: `log2(Y / target) + guard`.
    ///
    /// The guard gives up at most 1 EV of the scene to keep clipped highlights down: as a phone does, a window far
    /// brighter than the room it lights is let clip rather than leave the room dark.
    static func meter(_ stats: FrameStatistics, pointOfInterest: SIMD2<Double>) -> Double {
        var wsum = 0.0
        var lsum = 0.0
        var clipped = 0.0
        let sigma2 = 0.25 * 0.25 * 2  // σ = 0.25 of the normalised diagonal (√2)
        for i in 0..<stats.means.count {
            let c = stats.cellCenter(i) - pointOfInterest
            let w = Double.exp(-(c * c).sum() / (2 * sigma2))
            let y = Double(stats.means[i].y)
            lsum += w * Double.log(max(y, 0) + 1e-4)
            wsum += w
            clipped += Double(stats.clippedFractions[i])
        }
        let y = Double.exp(lsum / wsum)
        let clippedFraction = clipped / Double(stats.means.count)
        let guardEV = min(1, max(0, clippedFraction - 0.02) * 20)
        return Double.log2(y / target) + guardEV
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
