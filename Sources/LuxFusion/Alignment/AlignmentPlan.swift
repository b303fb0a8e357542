import LuxPixels

/// The pyramid an alignment works on, fitted to a reference frame: each level's size, tiles, blocks and search
/// radius, and how a noisy reference is handled.
struct AlignmentPlan: Sendable {
    /// The levels, finest first.
    let levels: [AlignmentLevelPlan]
    /// Whether the finest level is smoothed (noisy frames).
    let prefilter: Bool
    /// The radius in blocks over which the sub-pixel field is averaged (noisy frames), 0 for none.
    let smoothingRadius: Int
    /// The variance of a central-difference gradient of the finest level per unit of pixel noise variance.
    let gradientNoiseFactor: Float

    /// The plan for aligning frames to `grey` (a reference's grey image) with `settings`.
    init(grey: PlanarBuffer<Float>, settings: TileAligner.Settings, noise: GreyNoise) {
        // The plan: stop before a level gets smaller than its tile.
        var plan: [AlignmentLevelPlan] = []
        var w = grey.width
        var h = grey.height
        var total = 1
        for (k, l) in settings.levels.enumerated() {
            if k > 0 {
                var (nw, nh) = (w, h)
                for _ in 0..<(l.downsampling == 4 ? 2 : 1) {
                    nw = (nw + 1) / 2
                    nh = (nh + 1) / 2
                }
                if nw < l.tileSize || nh < l.tileSize { break }
                (w, h) = (nw, nh)
                total *= l.downsampling
            }
            plan.append(
                AlignmentLevelPlan(
                    downsampling: l.downsampling, tileSize: l.tileSize,
                    blockSize: k == 0 && settings.finestTilesOverlap ? l.tileSize / 2 : l.tileSize,
                    searchRadius: l.searchRadius, width: w, height: h))
        }
        // Noisy frames: smooth the finest level, enlarge its tiles (the block grid stays) and average the field.
        var smooth = false
        var fieldRadius = 0
        if settings.isNoiseAdaptive {
            let snr = Self.signalToNoise(grey, noise: noise)
            if snr < 12.6 {  // 22 dB
                smooth = true
                let t = plan[0].tileSize
                plan[0].tileSize = snr < 5 ? 2 * t : t + ((t / 2 + 1) & ~1)
                fieldRadius = snr < 5 ? 2 : 1
            }
        }
        prefilter = smooth
        smoothingRadius = fieldRadius
        // Central difference [−½ 0 ½]: σ²/2; after the 5×5 binomial: 84/1024 · 70/256 of σ².
        gradientNoiseFactor = smooth ? 0.022_43 : 0.5
        // The coarsest search must reach the largest expected displacement.
        let reach = Int((settings.maximumDisplacement * Double(grey.width) / Double(total)).rounded(.up)) + 1
        plan[plan.count - 1].searchRadius = min(max(plan[plan.count - 1].searchRadius, reach), 64)
        levels = plan
    }

    /// The pyramid of a frame's grey image on this plan, finest level first.
    func pyramid(of grey: PlanarBuffer<Float>, threads: Int) -> [PlanarBuffer<Float>] {
        var out = [grey]
        for l in levels.dropFirst() {
            var image = out[out.count - 1].reducedBinomial(threads: threads)
            if l.downsampling == 4 { image = image.reducedBinomial(threads: threads) }
            out.append(image)
        }
        if prefilter { out[0] = grey.smoothedBinomial(threads: threads) }
        return out
    }

    /// The ratio of the median grey level to the noise there (from a sample of rows).
    static func signalToNoise(_ grey: PlanarBuffer<Float>, noise: GreyNoise) -> Float {
        var samples: [Float] = []
        let step = max(1, grey.height / 64)
        for y in stride(from: 0, to: grey.height, by: step) {
            let r = grey.row(0, y)
            for x in stride(from: 0, to: grey.width, by: 4) { samples.append(r[x]) }
        }
        let k = samples.count / 2
        samples.withUnsafeMutableBufferPointer { NoiseEstimate.select($0, k) }
        let m = max(samples[k], 0)
        return m / max(noise.variance(at: m).squareRoot(), 1e-12)
    }
}
