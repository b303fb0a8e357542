import Foundation
import LuxFusion
import LuxPixels
import LuxTestSupport
import Testing

/// Burst merges against the clean scene the test camera filmed (ALGORITHMS.md §3.1: the ideal gain of N frames is
/// 10·log10 N dB).
@Suite struct BurstMergeTests {
    static let scene: LinearScene? = try? LinearScene.photo(scale: 4).blurred(sigma: 0.7)
    static let w = 512
    static let h = 384
    static let base = SIMD2<Float>(240, 180)
    /// HDR+'s noise model at ISO 1600 (S = 5.2e-3, O = 1.1e-3).
    static let lowLight = TestSensor(scale: 5.2e-3, offset: 1.1e-3)

    /// A hand-held burst: jitter of up to ±3 photosites between frames, sub-pixel.
    static func burst(
        _ scene: LinearScene, count: Int, sensor: TestSensor, exposure: Float, seed: UInt64, discs: [MovingDisc] = []
    ) -> (frames: [PixelBuffer], clean: [[Float]]) {
        var rng = SplitMix(seed: seed)
        var frames: [PixelBuffer] = []
        var clean: [[Float]] = []
        for k in 0..<count {
            let jitter = k == 0 ? .zero : SIMD2<Float>(rng.unit() * 6 - 3, rng.unit() * 6 - 3)
            let shot = Shot(offset: base + jitter, exposure: exposure, discs: discs, frameIndex: k)
            let mosaic = scene.mosaic(width: w, height: h, pattern: .rggb, shot: shot)
            clean.append(mosaic)
            frames.append(sensor.capture(mosaic, width: w, height: h, pattern: .rggb, seed: seed &* 1000 &+ UInt64(k)))
        }
        return (frames, clean)
    }

    static func merged(_ result: BurstMerge.Result) -> [Float] {
        let model = result.rawModel!
        return Quality.normalised(result.output, black: model.blackLevels[0], white: model.whiteLevel)
    }

    /// The PSNR gain of the merge over the best single frame, each against its own clean mosaic.
    static func gain(_ result: BurstMerge.Result, frames: [PixelBuffer], clean: [[Float]], sensor: TestSensor)
        -> (gain: Double, merged: Double, single: Double)
    {
        let inside = Quality.interior(w, h, border: 16)
        let merged = Quality.psnr(Self.merged(result), clean[result.referenceIndex], where: inside)
        let single = frames.indices.map { k in
            Quality.psnr(
                Quality.normalised(frames[k], black: sensor.black, white: sensor.white), clean[k], where: inside)
        }.max()!
        return (merged - single, merged, single)
    }

    /// Static low-light scene, 8 hand-held frames, full merge: ≥ 7 dB over the best frame (ideal 9.03).
    @Test(.enabled(if: scene != nil, "needs djpeg and the test photograph"))
    func fullMergeOfEightFrames() throws {
        let scene = try #require(Self.scene)
        let (frames, clean) = Self.burst(scene, count: 8, sensor: Self.lowLight, exposure: 0.5, seed: 11)
        let result = try BurstMerge(settings: .quality).merge(frames, rawModel: Self.lowLight.rawModel)
        let g = Self.gain(result, frames: frames, clean: clean, sensor: Self.lowLight)
        print("full merge, 8 frames: \(g.merged) dB vs best single \(g.single) dB: gain \(g.gain) dB; rejected \(result.rejectedFraction), N_eff \(result.effectiveFrameCount)")
        #expect(result.output.format == .bayer16(.rggb))
        #expect(g.gain >= 7)
    }

    /// Same scene, 4 frames, fast merge: ≥ 4.5 dB (ideal 6.02).
    @Test(.enabled(if: scene != nil, "needs djpeg and the test photograph"))
    func fastMergeOfFourFrames() throws {
        let scene = try #require(Self.scene)
        let (frames, clean) = Self.burst(scene, count: 4, sensor: Self.lowLight, exposure: 0.5, seed: 12)
        let result = try BurstMerge(settings: .balanced).merge(frames, rawModel: Self.lowLight.rawModel)
        let g = Self.gain(result, frames: frames, clean: clean, sensor: Self.lowLight)
        print("fast merge, 4 frames: \(g.merged) dB vs best single \(g.single) dB: gain \(g.gain) dB; rejected \(result.rejectedFraction), N_eff \(result.effectiveFrameCount)")
        #expect(g.gain >= 4.5)
    }
}

extension BurstMergeTests {
    /// ISO 400-like light (S = 1.3e-3, O = 7e-5): motion is well above the noise.
    static let daylight = TestSensor(scale: 1.3e-3, offset: 7e-5)

    static let discs = [
        MovingDisc(center: SIMD2(150, 190), velocity: SIMD2(9, 2), radius: 34, color: SIMD3(0.9, 0.35, 0.15)),
        MovingDisc(center: SIMD2(380, 120), velocity: SIMD2(-4, 7), radius: 26, color: SIMD3(0.1, 0.3, 0.6)),
    ]

    /// Whether photosite `i` is inside a disc at frame `t` (dilated by `pad`).
    static func inDisc(_ i: Int, frame t: Int, pad: Float = 0) -> Bool {
        let p = SIMD2(Float(i % w), Float(i / w))
        return discs.contains { d in
            let q = p - (d.center + d.velocity * Float(t))
            return (q * q).sum() <= (d.radius + pad) * (d.radius + pad)
        }
    }

    /// Box-filtered (5×5 per CFA site, i.e. 9×9 photosites of the same colour) residual energy over `mask`.
    static func lowPassEnergy(_ values: [Float], _ truth: [Float], mask: (Int) -> Bool) -> Double {
        var sum = 0.0
        var n = 0
        for y in 8..<(h - 8) {
            for x in 8..<(w - 8) where mask(y * w + x) {
                var s = 0.0
                for v in -2...2 {
                    for u in -2...2 {
                        let k = (y + 2 * v) * w + x + 2 * u
                        s += Double(values[k] - truth[k])
                    }
                }
                sum += (s / 25) * (s / 25)
                n += 1
            }
        }
        return sum / Double(max(n, 1))
    }

    static func checkMotion(_ settings: BurstMerge.Settings, count: Int, seed: UInt64) throws {
        let scene = try #require(Self.scene)
        let sensor = Self.daylight
        let (frames, clean) = Self.burst(scene, count: count, sensor: sensor, exposure: 1, seed: seed, discs: discs)
        let result = try BurstMerge(settings: settings).merge(frames, rawModel: sensor.rawModel)
        let r = result.referenceIndex
        let truth = clean[r]
        let merged = Self.merged(result)
        let reference = Quality.normalised(frames[r], black: sensor.black, white: sensor.white)
        let moving: (Int) -> Bool = { i in (0..<count).contains { Self.inDisc(i, frame: $0, pad: 2) } }
        let ghost: (Int) -> Bool = { i in moving(i) && !Self.inDisc(i, frame: r, pad: 4) }
        let mergedPSNR = Quality.psnr(merged, truth, where: moving)
        let singlePSNR = Quality.psnr(reference, truth, where: moving)
        // The naive average (what ghosts look like): every frame's raw data averaged without alignment rejection.
        var average = [Float](repeating: 0, count: w * h)
        for f in frames {
            let v = Quality.normalised(f, black: sensor.black, white: sensor.white)
            for i in average.indices { average[i] += v[i] / Float(count) }
        }
        let ghostMerged = Self.lowPassEnergy(merged, truth, mask: ghost)
        let ghostReference = Self.lowPassEnergy(reference, truth, mask: ghost)
        let ghostAverage = Self.lowPassEnergy(average, truth, mask: ghost)
        let staticPSNR = Quality.psnr(merged, truth, where: { i in !moving(i) && Quality.interior(w, h, border: 16)(i) })
        print(
            "\(settings.variant) motion: moving region \(mergedPSNR) dB vs reference \(singlePSNR) dB; static \(staticPSNR) dB; ghost energy merged \(ghostMerged), reference \(ghostReference), naive average \(ghostAverage); rejected \(result.rejectedFraction)"
        )
        #expect(mergedPSNR >= singlePSNR)
        // Where an object passed, the merge may have had to keep the reference alone (all other frames rejected), so
        // its noise there is the reference's; a ghost of even 1/N of an object's contrast is ~1000× that level.
        #expect(ghostMerged <= 1.25 * ghostReference)
        #expect(ghostAverage > 20 * ghostReference)  // the scene really would ghost
        #expect(result.rejectedFraction > 0.01)
    }

    /// Moving objects, full merge of 8: the moving region is no worse than the reference frame alone, and the
    /// low-pass residual (what a ghost would leave) where the objects were in other frames stays at the reference
    /// frame's noise level, while a naive average of the same frames ghosts badly.
    @Test(.enabled(if: scene != nil, "needs djpeg and the test photograph"))
    func fullMergeRejectsMotion() throws {
        try Self.checkMotion(.quality, count: 8, seed: 21)
    }

    /// The same for the fast merge of 4.
    @Test(.enabled(if: scene != nil, "needs djpeg and the test photograph"))
    func fastMergeRejectsMotion() throws {
        try Self.checkMotion(.balanced, count: 4, seed: 22)

    }
}
