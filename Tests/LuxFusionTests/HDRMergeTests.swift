import Foundation
import LuxFusion
import LuxPixels
import LuxTestSupport
import Testing

/// HDR merge of a −2/0/+2 EV bracket of a "window" scene: a dim interior (the photo at 4 % of the 0 EV clip level)
/// with a bright window (the photo at 3× the clip level), filmed by the test camera with hand-held jitter.
@Suite struct HDRMergeTests {
    static let scene: LinearScene? = {
        guard let photo = try? LinearScene.photo(scale: 4).blurred(sigma: 0.7) else { return nil }
        var s = photo
        for c in 0..<3 {
            for y in 0..<photo.height {
                for x in 0..<photo.width {
                    let inWindow = x >= Self.window.x0 + 240 && x < Self.window.x1 + 240 && y >= Self.window.y0 + 180
                        && y < Self.window.y1 + 180
                    s.planes[c][y * photo.width + x] *= inWindow ? 3 : 0.04
                }
            }
        }
        return s
    }()
    /// The window in frame coordinates.
    static let window = (x0: 300, y0: 40, x1: 480, y1: 200)
    static let w = 512
    static let h = 384
    static let sensor = TestSensor(scale: 4e-4, offset: 1e-5)
    static let durations = [1.0 / 400, 1.0 / 100, 1.0 / 25]

    static func inWindow(_ i: Int) -> Bool {
        let x = i % w, y = i / w
        return x >= window.x0 + 6 && x < window.x1 - 6 && y >= window.y0 + 6 && y < window.y1 - 6
    }

    static func inInterior(_ i: Int) -> Bool {
        let x = i % w, y = i / w
        let outside = x < window.x0 - 6 || x >= window.x1 + 6 || y < window.y0 - 6 || y >= window.y1 + 6
        return outside && x >= 16 && y >= 16 && x < w - 16 && y < h - 16
    }

    static func psnr(_ v: [Float], _ t: [Float], _ mask: (Int) -> Bool) -> Double {
        var sum = 0.0
        var n = 0
        for i in v.indices where mask(i) {
            let d = Double(v[i]) - Double(t[i])
            sum += d * d
            n += 1
        }
        return 10 * log10(Double(n) / sum)
    }

    /// Films the bracket (−2, 0, +2 EV by exposure time at ISO 100); `handHeld` adds up to ±2 photosites of jitter to
    /// the −2 and +2 EV frames.
    static func bracket(handHeld: Bool, seed: UInt64) throws -> (brackets: [HDRMerge.Bracket], singles: [[Float]], truth: [Float]) {
        let scene = try #require(Self.scene)
        var rng = SplitMix(seed: seed)
        var brackets: [HDRMerge.Bracket] = []
        var singles: [[Float]] = []
        var truth: [Float] = []
        for (k, t) in Self.durations.enumerated() {
            let jitter = k == 1 || !handHeld ? SIMD2<Float>.zero : SIMD2(rng.unit() * 4 - 2, rng.unit() * 4 - 2)
            let exposure = Float(t * 100)
            let shot = Shot(offset: SIMD2(240, 180) + jitter, exposure: exposure)
            let clean = scene.mosaic(width: Self.w, height: Self.h, pattern: .rggb, shot: shot)
            if k == 1 { truth = clean }
            let frame = Self.sensor.capture(clean, width: Self.w, height: Self.h, pattern: .rggb, seed: seed &+ UInt64(k))
            brackets.append(HDRMerge.Bracket(frame: frame, exposureDuration: MediaTime(seconds: t), iso: 100))
            // What this exposure alone says about the scene, in the reference's units.
            singles.append(
                Quality.normalised(frame, black: Self.sensor.black, white: Self.sensor.white).map { $0 / exposure })
        }
        return (brackets, singles, truth)
    }

    /// The merge beats every single exposure against the scene truth in the window (where the 0 and +2 EV frames
    /// clip) and in the dim interior (where the −2 and 0 EV frames drown in noise), on a tripod and hand-held.
    @Test(.enabled(if: scene != nil, "needs djpeg and the test photograph"), arguments: [false, true])
    func bayerBracketBeatsEverySingleExposure(handHeld: Bool) throws {
        let (brackets, singles, truth) = try Self.bracket(handHeld: handHeld, seed: handHeld ? 40 : 50)
        let result = try HDRMerge().merge(brackets, rawModel: Self.sensor.rawModel)
        #expect(result.referenceIndex == 1)
        #expect(result.output.format == .grayFloat)
        #expect(result.cfaPattern == .rggb)
        let merged = result.output.components(as: Float.self)
        let mergedWindow = Self.psnr(merged, truth, Self.inWindow)
        let mergedInterior = Self.psnr(merged, truth, Self.inInterior)
        let singleWindow = singles.map { Self.psnr($0, truth, Self.inWindow) }
        let singleInterior = singles.map { Self.psnr($0, truth, Self.inInterior) }
        print(
            "HDR \(handHeld ? "hand-held" : "tripod") window: merged \(mergedWindow) dB, singles \(singleWindow); interior: merged \(mergedInterior) dB, singles \(singleInterior); clipped \(result.clippedFraction), rejected \(result.rejectedFractions)"
        )
        #expect(mergedWindow > singleWindow.max()!)
        #expect(mergedInterior > singleInterior.max()!)
        #expect(result.clippedFraction == 0)
    }
}
