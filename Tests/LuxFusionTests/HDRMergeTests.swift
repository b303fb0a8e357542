import Foundation
import LuxFusion
import LuxPixels
import LuxTestSupport
import Testing

/// HDR merge of a −2/0/+2 EV bracket of a "window" scene: a dim interior (the photo at 4 % of the 0 EV clip level)
/// with a bright window (the photo's sky and trees at 1.5×: the sky clips at 0 EV, the trees do not), filmed by the
/// test camera.
@Suite struct HDRMergeTests {
    static let scene: LinearScene? = {
        guard let photo = LinearScene.blurredPhoto else { return nil }
        var s = photo
        for c in 0..<3 {
            for y in 0..<photo.height {
                for x in 0..<photo.width {
                    let inWindow =
                        x >= Self.window.x0 + Int(origin.x) && x < Self.window.x1 + Int(origin.x)
                        && y >= Self.window.y0 + Int(origin.y) && y < Self.window.y1 + Int(origin.y)
                    s.planes[c][y * photo.width + x] *= inWindow ? 1.5 : 0.04
                }
            }
        }
        return s
    }()
    /// The window in frame coordinates: trees, the train and some sky.
    static let window = (x0: 250, y0: 120, x1: 470, y1: 300)
    /// Where the reference frame's origin lies in the scene.
    static let origin = SIMD2<Float>(240, 40)
    static let w = 512
    static let h = 384
    static let sensor = TestSensor(scale: 4e-4, offset: 1e-5)
    static let durations = [1.0 / 400, 1.0 / 100, 1.0 / 25]

    static func inWindow(_ i: Int) -> Bool {
        let x = i % w
        let y = i / w
        return x >= window.x0 + 6 && x < window.x1 - 6 && y >= window.y0 + 6 && y < window.y1 - 6
    }

    static func inInterior(_ i: Int) -> Bool {
        let x = i % w
        let y = i / w
        let outside = x < window.x0 - 6 || x >= window.x1 + 6 || y < window.y0 - 6 || y >= window.y1 + 6
        return outside && x >= 16 && y >= 16 && x < w - 16 && y < h - 16
    }

    /// Films the bracket (−2, 0, +2 EV by exposure time at ISO 100); `handHeld` adds up to ±2 photosites of jitter to
    /// the −2 and +2 EV frames.
    static func bracket(handHeld: Bool, seed: UInt64) throws -> (
        brackets: [HDRMerge.Bracket], singles: [[Float]], truth: [Float]
    ) {
        let scene = try #require(Self.scene)
        var rng = SplitMix(seed: seed)
        var brackets: [HDRMerge.Bracket] = []
        var singles: [[Float]] = []
        var truth: [Float] = []
        for (k, t) in Self.durations.enumerated() {
            let jitter = k == 1 || !handHeld ? SIMD2<Float>.zero : SIMD2(rng.unit() * 4 - 2, rng.unit() * 4 - 2)
            let exposure = Float(t * 100)
            let shot = Shot(offset: Self.origin + jitter, exposure: exposure)
            let clean = scene.mosaic(width: Self.w, height: Self.h, pattern: .rggb, shot: shot)
            if k == 1 { truth = clean }
            let frame = Self.sensor.capture(
                clean, width: Self.w, height: Self.h, pattern: .rggb, seed: seed &+ UInt64(k))
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
        let mergedWindow = psnr(merged, truth, where: Self.inWindow)
        let mergedInterior = psnr(merged, truth, where: Self.inInterior)
        let singleWindow = singles.map { psnr($0, truth, where: Self.inWindow) }
        let singleInterior = singles.map { psnr($0, truth, where: Self.inInterior) }
        print(
            "HDR \(handHeld ? "hand-held" : "tripod") window: merged \(mergedWindow) dB, singles \(singleWindow); interior: merged \(mergedInterior) dB, singles \(singleInterior); clipped \(result.clippedFraction), rejected \(result.rejectedFractions)"
        )
        #expect(mergedWindow > singleWindow.max()!)
        #expect(mergedInterior > singleInterior.max()!)
        #expect(result.clippedFraction == 0)
    }
}

extension HDRMergeTests {
    /// Linear RGB brackets of the same scene (RGBAf, clipped at 1), tripod.
    static func rgbBracket() throws -> (brackets: [HDRMerge.Bracket], truth: [[Float]], singles: [[[Float]]]) {
        let scene = try #require(Self.scene)
        var brackets: [HDRMerge.Bracket] = []
        var truth: [[Float]] = []
        var singles: [[[Float]]] = []
        for (k, t) in Self.durations.enumerated() {
            let exposure = Float(t * 100)
            let clean = scene.rgb(width: Self.w, height: Self.h, shot: Shot(offset: Self.origin, exposure: exposure))
            if k == 1 { truth = clean }
            var frame = Self.sensor.captureRGB(clean, width: Self.w, height: Self.h, seed: UInt64(60 + k))
            frame.colorSpace = .extendedLinearSRGB
            brackets.append(
                HDRMerge.Bracket(
                    frame: frame, exposureDuration: MediaTime(seconds: t), iso: 100, noise: Self.sensor.noise))
            let comps = frame.components(as: Float.self)
            singles.append((0..<3).map { c in (0..<(Self.w * Self.h)).map { comps[4 * $0 + c] / exposure } })
        }
        return (brackets, truth, singles)
    }

    /// The RGB path: same comparison per channel.
    @Test(.enabled(if: scene != nil, "needs djpeg and the test photograph"))
    func rgbBracketBeatsEverySingleExposure() throws {
        let (brackets, truth, singles) = try Self.rgbBracket()
        var settings = HDRMerge.Settings()
        settings.alignment = nil  // tripod
        let result = try HDRMerge(settings: settings).merge(brackets)
        #expect(result.output.format == .rgbaFloat)
        let out = result.output.components(as: Float.self)
        for c in 0..<3 {
            let merged = (0..<(Self.w * Self.h)).map { out[4 * $0 + c] }
            let mw = psnr(merged, truth[c], where: Self.inWindow)
            let mi = psnr(merged, truth[c], where: Self.inInterior)
            let sw = singles.map { psnr($0[c], truth[c], where: Self.inWindow) }
            let si = singles.map { psnr($0[c], truth[c], where: Self.inInterior) }
            print("RGB HDR channel \(c): window \(mw) vs \(sw); interior \(mi) vs \(si)")
            #expect(mw > sw.max()!)
            #expect(mi > si.max()!)
        }
    }

    /// Tone mapping the merged radiance keeps the scene's detail where the 0 EV frame clips and where it is dark and
    /// noisy.
    ///
    /// Highlights (the window where 0 EV clips in every channel): the display luma follows the true log-luminance
    /// (correlation > 0.4 with noise and cloud texture of a few percent; the clipped rendering is flat). Interior: the
    /// local structure of the display luma (its difference from the 5×5 mean) correlates with the truth's clearly
    /// better than the 0 EV rendering's.
    @Test(.enabled(if: scene != nil, "needs djpeg and the test photograph"))
    func toneMappingKeepsHighlightAndShadowDetail() throws {
        let (brackets, truth, _) = try Self.rgbBracket()
        var settings = HDRMerge.Settings()
        settings.alignment = nil
        let hdr = try HDRMerge(settings: settings).merge(brackets).output
        func highPass(_ v: [Double]) -> [Double] {
            var out = [Double](repeating: 0, count: v.count)
            for y in 2..<(Self.h - 2) {
                for x in 2..<(Self.w - 2) {
                    var m = 0.0
                    for j in -2...2 { for i in -2...2 { m += v[(y + j) * Self.w + x + i] } }
                    out[y * Self.w + x] = v[y * Self.w + x] - m / 25
                }
            }
            return out
        }
        let logY = highPass(
            (0..<(Self.w * Self.h)).map {
                log(
                    0.2126 * Double(truth[0][$0]) + 0.7152 * Double(truth[1][$0]) + 0.0722 * Double(truth[2][$0]) + 1e-4
                )
            })
        func correlation(_ image: PixelBuffer, _ mask: (Int) -> Bool) -> Double {
            let l = highPass(Quality.luma(image))
            var sab = 0.0
            var saa = 0.0
            var sbb = 0.0
            for i in l.indices where mask(i) {
                sab += l[i] * logY[i]
                saa += l[i] * l[i]
                sbb += logY[i] * logY[i]
            }
            return saa > 0 ? sab / (saa * sbb).squareRoot() : 0
        }
        // The highlights: the window where the 0 EV frame clips in every channel (within 2 pixels).
        let clipped = (0..<(Self.w * Self.h)).map { i in (0..<3).allSatisfy { truth[$0][i] >= 1.05 } }
        let highlight: (Int) -> Bool = { i in
            let x = i % Self.w
            let y = i / Self.w
            guard Self.inWindow(i), x >= 2, y >= 2, x < Self.w - 2, y < Self.h - 2 else { return false }
            for j in -2...2 { for k in -2...2 where !clipped[(y + j) * Self.w + x + k] { return false } }
            return true
        }
        let trueLog = (0..<(Self.w * Self.h)).map {
            log(0.2126 * Double(truth[0][$0]) + 0.7152 * Double(truth[1][$0]) + 0.0722 * Double(truth[2][$0]) + 1e-4)
        }
        // How well the display luma follows the true log-luminance there (a clipped rendering is flat: 0).
        func tonalCorrelation(_ image: PixelBuffer) -> Double {
            let l = Quality.luma(image)
            let idx = l.indices.filter(highlight)
            let n = Double(idx.count)
            let ma = idx.reduce(0) { $0 + l[$1] } / n
            let mb = idx.reduce(0) { $0 + trueLog[$1] } / n
            var sab = 0.0
            var saa = 0.0
            var sbb = 0.0
            for i in idx {
                sab += (l[i] - ma) * (trueLog[i] - mb)
                saa += (l[i] - ma) * (l[i] - ma)
                sbb += (trueLog[i] - mb) * (trueLog[i] - mb)
            }
            return saa > 0 ? sab / (saa * sbb).squareRoot() : 0
        }
        #expect(clipped.indices.filter(highlight).count > 2000)
        // The 0 EV frame rendered as is (sRGB encoding of its clipped linear values).
        let normal = try HDRToneMapper(settings: .init(method: .exposureFusion(stops: [0]), exposure: 0)).map(
            brackets[1].frame)
        let (nw, ni) = (tonalCorrelation(normal), correlation(normal, Self.inInterior))
        for method in [HDRToneMapper.Operator.exposureFusion(), .reinhard()] {
            let display = try HDRToneMapper(settings: .init(method: method)).map(hdr)
            #expect(display.format == .rgba8)
            #expect(display.colorSpace == .sRGB)
            let (dw, di) = (tonalCorrelation(display), correlation(display, Self.inInterior))
            print(
                "\(method): highlights follow log-luminance with correlation \(dw) (0 EV: \(nw)); interior detail correlation \(di) (0 EV: \(ni))"
            )
            #expect(dw > 0.4 && nw < 0.1)
            #expect(di > ni + 0.05)
        }
    }

    /// One exposure fused alone is that exposure rendered: each pixel's linear value times 2^EV, clipped and
    /// sRGB-encoded (IEC 61966-2-1), whether the display image is returned or handed over band by band.
    @Test func singleExposureFusionIsTheSRGBRendering() throws {
        let (w, h) = (40, 300)
        var comps: [Float] = []
        for y in 0..<h {
            for x in 0..<w {
                let v = Float(x + w * y) / Float(w * h) * 3  // 0…3: a third of the image clips at +0 EV
                comps += [v, v * 0.5, v * 0.25, 1]
            }
        }
        let input = PixelBuffer(
            width: w, height: h, format: .rgbaFloat, components: comps, colorSpace: .extendedLinearSRGB)
        let mapper = HDRToneMapper(
            settings: .init(method: .exposureFusion(stops: [0]), exposure: -1, outputFormat: .rgbaFloat))
        func srgb(_ v: Float) -> Float {
            let c = Double(min(max(v * 0.5, 0), 1))
            return Float(c <= 0.003_130_8 ? 12.92 * c : 1.055 * Foundation.pow(c, 1 / 2.4) - 0.055)
        }
        let whole = try mapper.map(input).components(as: Float.self)
        var banded = [Float](repeating: -1, count: 4 * w * h)
        try mapper.map(input) { band, y in
            let c = band.components(as: Float.self)
            for i in c.indices { banded[4 * w * y + i] = c[i] }
        }
        var worst: Float = 0
        for i in 0..<(w * h) {
            for c in 0..<3 {
                worst = max(worst, abs(whole[4 * i + c] - srgb(comps[4 * i + c])))
                #expect(banded[4 * i + c] == whole[4 * i + c])
            }
        }
        print("single-exposure fusion vs sRGB rendering: max |Δ| \(worst)")
        #expect(worst < 1e-3)
    }

    /// Reinhard's operator: the white point maps to 1, values keep their order, black stays black.
    @Test func reinhardCurve() throws {
        let values: [Float] = [0, 0.01, 0.1, 0.5, 1, 2, 4, 8]
        var comps: [Float] = []
        for v in values { comps += [v, v, v, 1] }
        let input = PixelBuffer(
            width: values.count, height: 1, format: .rgbaFloat, components: comps, colorSpace: .extendedLinearSRGB)
        let out = try HDRToneMapper(
            settings: .init(method: .reinhard(whitePoint: 4), exposure: 0, outputFormat: .rgbaFloat)
        ).map(input, to: .linearSRGB).components(as: Float.self)
        let mapped = (0..<values.count).map { out[4 * $0] }
        print("Reinhard w=4:", mapped)
        #expect(mapped[0] == 0)
        #expect(abs(mapped[6] - 1) < 1e-5)  // L = w → 1
        #expect(abs(mapped[3] - 0.5 * (1 + 0.5 / 16) / 1.5) < 1e-5)
        #expect(zip(mapped, mapped.dropFirst()).allSatisfy { $0 <= $1 })
    }
}
