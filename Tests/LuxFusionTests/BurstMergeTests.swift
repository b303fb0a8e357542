import Foundation
import LuxFusion
import LuxPixels
import LuxTestSupport
import Testing

/// Burst merges against the clean scene the test camera filmed (ALGORITHMS.md §3.1: the ideal gain of N frames is
/// 10·log10 N dB).
@Suite struct BurstMergeTests {
    static let scene: LinearScene? = LinearScene.blurredPhoto
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
        print(
            "full merge, 8 frames: \(g.merged) dB vs best single \(g.single) dB: gain \(g.gain) dB; rejected \(result.rejectedFraction), N_eff \(result.effectiveFrameCount)"
        )
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
        print(
            "fast merge, 4 frames: \(g.merged) dB vs best single \(g.single) dB: gain \(g.gain) dB; rejected \(result.rejectedFraction), N_eff \(result.effectiveFrameCount)"
        )
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

    /// Box-filtered (5×5 per CFA site, so 9×9 photosites of the same colour) residual energy over `mask`.
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
        let movingMask = (0..<(w * h)).map { i in (0..<count).contains { Self.inDisc(i, frame: $0, pad: 2) } }
        let ghostMask = (0..<(w * h)).map { i in movingMask[i] && !Self.inDisc(i, frame: r, pad: 4) }
        let moving: (Int) -> Bool = { movingMask[$0] }
        let ghost: (Int) -> Bool = { ghostMask[$0] }
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
        let staticPSNR = Quality.psnr(
            merged, truth, where: { i in !moving(i) && Quality.interior(w, h, border: 16)(i) })
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

extension BurstMergeTests {
    /// Six hand-held low-light RGBAh frames of 320 × 240 and their clean values (shared by the RGB tests).
    static let rgbBurst: (frames: [PixelBuffer], clean: [[[Float]]])? = scene.map { scene in
        let sensor = Self.lowLight
        var rng = SplitMix(seed: 91)
        var frames: [PixelBuffer] = []
        var clean: [[[Float]]] = []
        for k in 0..<6 {
            let jitter = k == 0 ? .zero : SIMD2<Float>(rng.unit() * 6 - 3, rng.unit() * 6 - 3)
            let rgb = scene.rgb(width: 320, height: 240, shot: Shot(offset: Self.base + jitter, exposure: 0.5))
            clean.append(rgb)
            frames.append(
                sensor.captureRGB(rgb, width: 320, height: 240, seed: UInt64(500 + k)).converted(to: .rgbaHalf))
        }
        return (frames, clean)
    }

    /// Linear RGB bursts: the full merge of 6 frames gains ≥ 5.5 dB (ideal 7.78) per channel on the hand-held
    /// low-light burst, with the noise given or estimated from the frames.
    @Test(.enabled(if: scene != nil, "needs djpeg and the test photograph"), arguments: [true, false])
    func rgbMerge(noiseGiven: Bool) throws {
        let (frames, clean) = try #require(Self.rgbBurst)
        let sensor = Self.lowLight
        let result = try BurstMerge(settings: .quality).merge(frames, noise: noiseGiven ? sensor.noise : nil)
        #expect(result.output.format == .rgbaHalf)
        // The noise the merge worked with (reported ÷ the effective frame count) is the sensor's, estimated or not.
        let s = result.noise.green.scale * result.effectiveFrameCount
        let o = result.noise.green.offset * result.effectiveFrameCount
        print(
            "noise \(noiseGiven ? "given" : "estimated"): S \(s) (true \(sensor.scale)), O \(o) (true \(sensor.offset))"
        )
        // S and O trade off against each other over the data's range (and values clipped at 0 hide some noise at
        // the bottom), so compare the variance they predict at mid levels.
        for x in [0.1, 0.3] {
            #expect(abs((s * x + o) / (sensor.scale * x + sensor.offset) - 1) < 0.25)
        }
        let out = result.output.converted(to: .rgbaFloat).components(as: Float.self)
        let inside = Quality.interior(320, 240, border: 12)
        let singles = frames.map { $0.converted(to: .rgbaFloat).components(as: Float.self) }
        for c in 0..<3 {
            let merged = (0..<(320 * 240)).map { out[4 * $0 + c] }
            let truth = clean[result.referenceIndex][c]
            let best = frames.indices.map { k in
                let f = singles[k]
                return Quality.psnr((0..<(320 * 240)).map { f[4 * $0 + c] }, clean[k][c], where: inside)
            }.max()!
            let gain = Quality.psnr(merged, truth, where: inside) - best
            print("RGB merge (noise \(noiseGiven ? "given" : "estimated")) channel \(c): gain \(gain) dB")
            #expect(gain >= 5.5)
        }
    }

    /// The same frames give the same bits on one thread and on several, and the output can come from a pool.
    @Test(.enabled(if: scene != nil, "needs djpeg and the test photograph"))
    func deterministicAndPooled() throws {
        let scene = try #require(Self.scene)
        // A 256 × 192 corner of a moving-object burst: the rejection logic runs, the size keeps debug builds quick.
        let frames = try Self.burst(scene, count: 3, sensor: Self.daylight, exposure: 1, seed: 5, discs: Self.discs)
            .frames
            .map { try $0.view(x: 0, y: 0, width: 256, height: 192) }
        var one = BurstMerge.Settings.quality
        one.threads = 1
        var four = BurstMerge.Settings.quality
        four.threads = 4
        let pool = BufferPool(capacityPerKey: 1)
        let a = try BurstMerge(settings: one).merge(frames, rawModel: Self.daylight.rawModel)
        let b = try BurstMerge(settings: four).merge(frames, rawModel: Self.daylight.rawModel, pool: pool)
        #expect(a.output.components(as: UInt16.self) == b.output.components(as: UInt16.self))
        #expect(a.rejectedFractions == b.rejectedFractions)
        #expect(pool.outstandingCount == 1)
        // The pool's cap holds: a second merge while the first output is alive fails with a typed error.
        #expect(throws: FusionError.self) {
            try BurstMerge(settings: four).merge(frames, rawModel: Self.daylight.rawModel, pool: pool)
        }
        // HDR and exposure fusion are thread-count independent too.
        let brackets = frames.enumerated().map { k, f in
            HDRMerge.Bracket(frame: f, exposureDuration: MediaTime(seconds: 0.01 * Double(k + 1)), iso: 100)
        }
        var h1 = HDRMerge.Settings()
        h1.threads = 1
        var h4 = HDRMerge.Settings()
        h4.threads = 4
        #expect(
            try HDRMerge(settings: h1).merge(brackets, rawModel: Self.daylight.rawModel).output.components(
                as: Float.self)
                == HDRMerge(settings: h4).merge(brackets, rawModel: Self.daylight.rawModel).output.components(
                    as: Float.self))
    }

    @Test func badInputThrows() throws {
        let model = TestSensor(scale: 1e-3, offset: 1e-5).rawModel
        let raw = PixelBuffer(width: 64, height: 64, format: .bayer14(.rggb))
        let rgb = PixelBuffer(width: 64, height: 64, format: .rgbaFloat)
        #expect(throws: FusionError.notEnoughFrames(count: 0, minimum: 1)) {
            try BurstMerge().merge([], rawModel: model)
        }
        #expect(throws: FusionError.self) { try BurstMerge().merge([rgb], rawModel: model) }  // RGB to the Bayer call
        #expect(throws: FusionError.self) { try BurstMerge().merge([raw]) }  // Bayer to the RGB call
        #expect(throws: FusionError.self) {
            try BurstMerge().merge([raw, PixelBuffer(width: 64, height: 64, format: .bayer14(.bggr))], rawModel: model)
        }
        #expect(throws: FusionError.self) {
            try BurstMerge().merge([PixelBuffer(width: 63, height: 64, format: .bayer14(.rggb))], rawModel: model)
        }
        var settings = BurstMerge.Settings.balanced
        settings.reference = .index(3)
        #expect(throws: FusionError.self) { try BurstMerge(settings: settings).merge([raw, raw], rawModel: model) }
        settings = .balanced
        settings.robustness = .nan
        #expect(throws: FusionError.self) { try BurstMerge(settings: settings).merge([raw], rawModel: model) }
        let noNoise = RawNoiseModel(blackLevel: 64, whiteLevel: 16383, noise: NoiseProfile(scale: -1, offset: 0))
        #expect(throws: FusionError.self) { try BurstMerge().merge([raw], rawModel: noNoise) }
        // A single frame passes through (levels rescaled to the output's).
        var flat = raw
        flat.withUnsafeMutablePlane { p in for y in 0..<64 { for x in 0..<64 { p.row(y, as: UInt16.self)[x] = 8192 } } }
        let single = try BurstMerge().merge([flat], rawModel: model)
        let expected = UInt16((Double(8192 - 512) / Double(16383 - 512) * (65535 - 4096) + 4096).rounded())
        #expect(single.output.components(as: UInt16.self).allSatisfy { abs(Int($0) - Int(expected)) <= 1 })
        #expect(single.effectiveFrameCount == 1)
        // HDR and exposure fusion reject bad brackets.
        let b = HDRMerge.Bracket(frame: raw, exposureDuration: .zero, iso: 100)
        #expect(throws: FusionError.self) { try HDRMerge().merge([b], rawModel: model) }
        #expect(throws: FusionError.self) {
            try ExposureFusion().fuse([PixelBuffer(width: 64, height: 64, format: .gray8)])
        }
        #expect(throws: FusionError.self) { try ExposureFusion().fuse([] as [PixelBuffer]) }
        #expect(throws: FusionError.self) {
            try ExposureFusion(settings: .init(exposureSigma: 0)).fuse([
                PixelBuffer(width: 64, height: 64, format: .rgba8)
            ])
        }
    }
}
