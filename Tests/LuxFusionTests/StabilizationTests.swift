import Foundation
import LuxFusion
import LuxPixels
import LuxTestSupport
import Testing

/// Stabilisation of a hand-held sequence filmed by the test camera: a slow pan plus random shake (translation and
/// rotation) of known size.
@Suite struct StabilizationTests {
    static let scene: LinearScene? = LinearScene.blurredPhoto
    static let w = 320
    static let h = 240
    static let count = 30
    static let pan = SIMD2<Float>(1.2, 0.4)
    static let sequence: (frames: [PixelBuffer], shots: [Shot])? = scene.map { frames($0) }
    /// The default stabiliser's plan of the sequence (measured once for all the tests).
    static let plan: VideoStabilizer.Plan? = sequence.flatMap { try? VideoStabilizer().plan($0.frames) }

    /// Frame `i`'s camera offset (pan + shake up to ±6 px) and rotation (±0.3°).
    static func shake(_ rng: inout SplitMix, frame i: Int) -> (SIMD2<Float>, Float) {
        let jitter = SIMD2(rng.unit() * 12 - 6, rng.unit() * 12 - 6)
        let angle = (rng.unit() * 0.6 - 0.3) * .pi / 180
        return (SIMD2(300, 250) + pan * Float(i) + jitter, angle)
    }

    static func frames(_ scene: LinearScene) -> (frames: [PixelBuffer], shots: [Shot]) {
        var rng = SplitMix(seed: 77)
        var frames: [PixelBuffer] = []
        var shots: [Shot] = []
        for i in 0..<count {
            let (offset, angle) = shake(&rng, frame: i)
            let shot = Shot(offset: offset, rotation: angle)
            let rgb = scene.rgb(width: w, height: h, shot: shot)
            var comps = [UInt8](repeating: 255, count: 4 * w * h)
            for p in 0..<(w * h) {
                for c in 0..<3 {
                    let l = Double(min(max(rgb[c][p], 0), 1))
                    let e = l <= 0.003_130_8 ? 12.92 * l : 1.055 * pow(l, 1 / 2.4) - 0.055
                    comps[4 * p + c] = UInt8((e * 255).rounded())
                }
            }
            frames.append(PixelBuffer(width: w, height: h, format: .rgba8, components: comps, colorSpace: .sRGB))
            shots.append(shot)
        }
        return (frames, shots)
    }

    /// Residual global motion after stabilisation < 0.5 px RMS: measured between consecutive stabilised frames by
    /// the test's own brute-force search (whole-pixel SSD over ±3 px plus a parabola), compared with the intended pan.
    @Test(.enabled(if: scene != nil, "needs djpeg and the test photograph"))
    func residualMotionBelowHalfPixel() throws {
        let (frames, shots) = try #require(Self.sequence)
        let plan = try #require(Self.plan)
        let steady = try VideoStabilizer().render(frames, plan: plan)
        #expect(steady.count == Self.count)
        #expect(steady[0].width == plan.outputWidth && plan.outputWidth == 288)
        // The input's frame-to-frame content motion (from the known camera offsets: content moves opposite).
        let raw = (1..<Self.count).map { i in
            let d = shots[i - 1].offset - shots[i].offset
            return SIMD2(Double(d.x), Double(d.y))
        }
        let residual = (1..<Self.count).map { Self.measureShift(steady[$0 - 1], steady[$0]) }
        func rms(_ v: [SIMD2<Double>]) -> Double {
            (v.map { d in
                // The camera pans by +pan per frame, so the content moves by −pan.
                let e = d + SIMD2(Double(Self.pan.x), Double(Self.pan.y))
                return (e * e).sum()
            }.reduce(0, +) / Double(v.count)).squareRoot()
        }
        print(
            "frame-to-frame motion beyond the pan: input \(rms(raw)) px RMS, stabilised \(rms(residual)) px RMS; correction kept \(plan.correctionKept.min()!)"
        )
        #expect(rms(raw) > 4)
        #expect(rms(residual) < 0.5)
    }

    /// The frame pairs are measured in runs side by side: the motions are the same, bit for bit, whichever runs the
    /// pairs fall into (one thread measures them in one run; three threads in six runs).
    @Test(.enabled(if: scene != nil, "needs djpeg and the test photograph"))
    func motionsDoNotDependOnTheSplit() throws {
        let (frames, _) = try #require(Self.sequence)
        let plan = try #require(Self.plan)
        for threads in [1, 3] {
            let other = try VideoStabilizer(settings: .init(threads: threads)).plan(frames)
            #expect(other.frameMotions.map(\.transform) == plan.frameMotions.map(\.transform))
            #expect(other.transforms == plan.transforms)
        }
    }

    /// With almost no crop the correction is cut back where it would reveal the frame's edge, and every crop corner
    /// stays inside its frame (re-planned from the measured motions).
    @Test(.enabled(if: scene != nil, "needs djpeg and the test photograph"))
    func correctionStaysInsideTheFrame() throws {
        let (frames, _) = try #require(Self.sequence)
        var settings = VideoStabilizer.Settings()
        settings.crop = 0.02
        let measured = try #require(Self.plan)
        let plan = try VideoStabilizer(settings: settings).plan(
            motions: measured.frameMotions, width: Self.w, height: Self.h)
        #expect(plan.cameraPath == measured.cameraPath)
        #expect(plan.outputWidth == 314 && plan.transforms.count == Self.count)
        #expect(plan.correctionKept.min()! < 0.9)
        for t in plan.transforms {
            for (x, y) in [
                (0.0, 0.0), (Double(plan.outputWidth), 0), (0, Double(plan.outputHeight)),
                (Double(plan.outputWidth), Double(plan.outputHeight)),
            ] {
                let p = t.apply(to: Point(x: x, y: y))
                #expect(
                    p.x >= -1e-6 && p.y >= -1e-6 && p.x <= Double(Self.w - 1) + 1e-6 && p.y <= Double(Self.h - 1) + 1e-6
                )
            }
        }
        #expect(throws: FusionError.self) { try VideoStabilizer().plan([]) }
        #expect(throws: FusionError.self) {
            try VideoStabilizer().plan([frames[0], PixelBuffer(width: 100, height: 100, format: .rgba8)])
        }
    }

    /// The shift (in pixels) that moves `b`'s content onto `a`'s, from the luma of their central region.
    static func measureShift(_ a: PixelBuffer, _ b: PixelBuffer) -> SIMD2<Double> {
        let la = Quality.luma(a)
        let lb = Quality.luma(b)
        let w = a.width
        let h = a.height
        let r = 3
        let m = 24
        func ssd(_ dx: Int, _ dy: Int) -> Double {
            var s = 0.0
            for y in stride(from: m, to: h - m, by: 2) {
                for x in stride(from: m, to: w - m, by: 2) {
                    let d = la[y * w + x] - lb[(y + dy) * w + x + dx]
                    s += d * d
                }
            }
            return s
        }
        var best = (0, 0)
        var bestCost = Double.infinity
        var costs = [[Double]](repeating: [Double](repeating: 0, count: 2 * r + 1), count: 2 * r + 1)
        for dy in -r...r {
            for dx in -r...r {
                let c = ssd(dx, dy)
                costs[dy + r][dx + r] = c
                if c < bestCost {
                    bestCost = c
                    best = (dx, dy)
                }
            }
        }
        let (bx, by) = (best.0 + r, best.1 + r)
        var sub = SIMD2<Double>(0, 0)
        if bx > 0 && bx < 2 * r {
            let (l, c, rr) = (costs[by][bx - 1], costs[by][bx], costs[by][bx + 1])
            sub.x = (l - rr) / (2 * (l - 2 * c + rr))
        }
        if by > 0 && by < 2 * r {
            let (u, c, d) = (costs[by - 1][bx], costs[by][bx], costs[by + 1][bx])
            sub.y = (u - d) / (2 * (u - 2 * c + d))
        }
        return SIMD2(Double(best.0), Double(best.1)) + sub
    }
}
