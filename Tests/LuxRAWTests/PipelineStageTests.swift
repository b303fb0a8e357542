import LuxCodecs
import LuxColor
import LuxPixels
import LuxRender
import LuxTestSupport
import RealModule
import Testing

@testable import LuxRAW

/// Stages 5–8 on synthetic raws whose scene is known: highlight recovery, noise reduction, exposure, the tone
/// curve, wide-gamut colour and the creative adjustments.
@Suite struct PipelineStages {
    static func grey(_ v: Double) -> SIMD3<Double> { LensCorrections.grey(v) }

    static func lab(_ b: PixelBuffer, _ rect: Rect) -> SIMD3<Double> {
        SyntheticRaw.lab(linearSRGB: SyntheticRaw.mean(b, rect))
    }

    @Test("clipped highlights are rebuilt neutral, not magenta (and are magenta with recovery off)")
    func highlights() throws {
        // Right half: every photosite at the white level. White balance then lifts red and blue above green.
        let raw = SyntheticRaw.field(width: 120, height: 80) { x, _ in x < 60 ? Self.grey(0.3) : SIMD3(1, 1, 1) }
        var d = try RAWDeveloper(rawImage: raw)
        #expect(d.asShotNeutral.min() < 0.9, "the test needs unequal white-balance gains: \(d.asShotNeutral)")
        let recovered = Self.lab(try ColorAccuracy.developLinear(d), Rect(x: 80, y: 20, width: 30, height: 40))
        d.isHighlightRecoveryEnabled = false
        let raw0 = Self.lab(try ColorAccuracy.developLinear(d), Rect(x: 80, y: 20, width: 30, height: 40))
        let chroma = { (lab: SIMD3<Double>) in (lab.y * lab.y + lab.z * lab.z).squareRoot() }
        #expect(chroma(recovered) < 1.5, "recovered \(recovered)")
        #expect(chroma(raw0) > 8 && raw0.y > 5, "unrecovered should be magenta: \(raw0)")
        #expect(recovered.x > 95, "recovered highlight lightness \(recovered.x)")
    }

    /// A noisy two-level field (0.2 left, 0.5 right) whose noise follows its NoiseProfile `σ² = S·x + O`.
    static func noisyField(seed: UInt64) -> RawImage {
        let s = 4e-4
        let o = 4e-6
        var rng = SplitMix(seed: seed)
        func gauss() -> Double {
            let u1 = max(Double(rng.unit()), 1e-9)
            let u2 = Double(rng.unit())
            return (-2 * Double.log(u1)).squareRoot() * Double.cos(2 * .pi * u2)
        }
        var raw = SyntheticRaw.field(width: 160, height: 96) { x, _ in
            let clean = Self.grey(x < 80 ? 0.2 : 0.5)
            return SIMD3((0..<3).map { c in clean[c] + gauss() * (s * clean[c] + o).squareRoot() })
        }
        raw.properties.noiseProfile = NoiseProfile(planes: [.init(scale: s, offset: o)])
        return raw
    }

    /// Standard deviations of luminance and of the two colour differences in `rect`.
    static func noise(_ b: PixelBuffer, _ rect: Rect) -> (luma: Double, chroma: Double, mean: Double) {
        let v = b.components(as: Float.self)
        var ys: [Double] = []
        var cs: [Double] = []
        for y in Int(rect.minY)..<Int(rect.maxY) {
            for x in Int(rect.minX)..<Int(rect.maxX) {
                let o = 4 * (y * b.width + x)
                let (r, g, bb) = (Double(v[o]), Double(v[o + 1]), Double(v[o + 2]))
                ys.append(0.2126 * r + 0.7152 * g + 0.0722 * bb)
                cs.append(r - g)
                cs.append(bb - g)
            }
        }
        func sd(_ a: [Double]) -> Double {
            let m = a.reduce(0, +) / Double(a.count)
            return (a.map { ($0 - m) * ($0 - m) }.reduce(0, +) / Double(a.count)).squareRoot()
        }
        return (sd(ys), sd(cs), ys.reduce(0, +) / Double(ys.count))
    }

    /// The 10–90 % rise distance of the mean row profile across the edge at x = 80.
    static func edgeWidth(_ b: PixelBuffer) -> Double {
        let v = b.components(as: Float.self)
        var profile = [Double](repeating: 0, count: 24)
        for y in 20..<76 {
            for i in 0..<24 { profile[i] += Double(v[4 * (y * b.width + 68 + i) + 1]) / 56 }
        }
        let lo = profile[0]
        let hi = profile[23]
        func crossing(_ level: Double) -> Double {
            let t = lo + level * (hi - lo)
            for i in 1..<24 where profile[i] >= t {
                return Double(i - 1) + (t - profile[i - 1]) / (profile[i] - profile[i - 1])
            }
            return 24
        }
        return crossing(0.9) - crossing(0.1)
    }

    @Test("noise reduction lowers luminance and colour noise with its amounts, keeps levels and the edge")
    func noiseReduction() throws {
        var d = try RAWDeveloper(rawImage: Self.noisyField(seed: 11))
        #expect(
            d.luminanceNoiseReductionAmount > 0.3 && d.colorNoiseReductionAmount > 0.5,
            "defaults from the noise profile")
        let flat = Rect(x: 20, y: 20, width: 40, height: 56)
        var results: [(luma: Double, chroma: Double, mean: Double)] = []
        var widths: [Double] = []
        for amount in [0.0, 0.5, 1.0, 0.2] {
            d.luminanceNoiseReductionAmount = amount
            d.colorNoiseReductionAmount = amount
            var look = d
            look.sharpnessAmount = 0
            look.boostAmount = 0
            let out = try ColorAccuracy.render(look)
            results.append(Self.noise(out, flat))
            widths.append(Self.edgeWidth(out))
        }
        print("noise reduction (luma σ, chroma σ, mean, edge width) at 0, 0.5, 1, 0.2: \(results), \(widths)")
        // 0.2 is the one-scale luminance path.
        #expect(results[3].luma < 0.9 * results[0].luma && results[3].luma > results[1].luma)
        #expect(results[1].luma < 0.8 * results[0].luma && results[2].luma < 0.7 * results[1].luma)
        #expect(results[1].chroma < 0.6 * results[0].chroma && results[2].chroma < results[1].chroma)
        for r in results { #expect(abs(r.mean / results[0].mean - 1) < 0.01) }
        #expect(widths[2] < widths[0] + 1.0, "edge 10–90 % width \(widths)")
    }

    @Test("exposure is a gain of 2^EV on linear output, added to BaselineExposure")
    func exposure() throws {
        var raw = SyntheticRaw.field(width: 64, height: 48) { _, _ in Self.grey(0.1) }
        let rect = Rect(x: 16, y: 12, width: 32, height: 24)
        let base = SyntheticRaw.mean(try ColorAccuracy.developLinear(try RAWDeveloper(rawImage: raw)), rect)
        var d = try RAWDeveloper(rawImage: raw)
        d.exposure = 1.5
        let brighter = SyntheticRaw.mean(try ColorAccuracy.developLinear(d), rect)
        #expect(abs(brighter.y / base.y - Double.exp2(1.5)) < 0.01 * Double.exp2(1.5))
        raw.properties.baselineExposure = -1
        let baseline = SyntheticRaw.mean(try ColorAccuracy.developLinear(try RAWDeveloper(rawImage: raw)), rect)
        #expect(abs(baseline.y / base.y - 0.5) < 0.005)
        #expect(abs(base.y - 0.1) < 0.002, "white-balanced grey 0.1 develops to linear 0.1: \(base)")
    }

    @Test("the default tone curve maps scene grey as documented (T(x) = u/(1+u), u = x(2.531x + 0.855))")
    func toneCurve() throws {
        for level in [0.05, 0.18, 0.5] {
            let d = try RAWDeveloper(rawImage: SyntheticRaw.field(width: 32, height: 32) { _, _ in Self.grey(level) })
            let out = try ColorAccuracy.render(d.plain(toneCurve: true))
            let u = level * (2.531 * level + 0.855)
            let expected = u / (1 + u)
            let got = SyntheticRaw.mean(out, Rect(x: 8, y: 8, width: 16, height: 16))
            #expect(abs(got.y - expected) < 0.002, "\(level): \(got.y) vs \(expected)")
        }
    }

    @Test("a colour outside sRGB survives unclipped: extended linear sRGB goes negative, Display P3 holds it")
    func wideGamut() throws {
        // 70 % of Display P3's green primary with a little red and blue, as XYZ (D65).
        let p3 = SIMD3<Double>(0.08, 0.7, 0.05)
        let xyz = ColorSpace.displayP3.linearized(name: "linear P3").matrixToXYZ! * p3
        // The developer maps the camera's white at its clip (the neutral, largest channel 1) to Y = 1.
        let camera = SyntheticRaw.cameraMatrix * xyz / (SyntheticRaw.cameraMatrix * WhitePoint.d65.xyz()).max()
        try #require(
            camera.min() > 0.02 && camera.max() < 1, "the synthetic camera must record it unclipped: \(camera)")
        let image = try RAWDeveloper(rawImage: SyntheticRaw.field(width: 48, height: 48) { _, _ in camera }).plain()
            .outputImage
        let context = RenderContext(options: RenderOptions(workingFormat: .rgbaFloat))
        let rect = Rect(x: 12, y: 12, width: 24, height: 24)
        let srgb = SyntheticRaw.mean(
            try context.createBuffer(image, format: .rgbaFloat, colorSpace: .extendedLinearSRGB), rect)
        let expected = ColorSpace.linearSRGB.matrixToXYZ!.inverse! * xyz
        #expect(expected.x < -0.05 || expected.z < -0.05, "the colour must be outside sRGB: \(expected)")
        for c in 0..<3 { #expect(abs(srgb[c] - expected[c]) < 0.005, "linear sRGB \(srgb) vs \(expected)") }
        let linearP3 = ColorSpace.displayP3.linearized(name: "linear P3")
        let p3Out = SyntheticRaw.mean(try context.createBuffer(image, format: .rgbaFloat, colorSpace: linearP3), rect)
        for c in 0..<3 { #expect(abs(p3Out[c] - p3[c]) < 0.005, "linear P3 \(p3Out) vs \(p3)") }
    }

    /// The xy chromaticity of a linear-sRGB colour.
    static func xy(linearSRGB rgb: SIMD3<Double>) -> SIMD2<Double> {
        let xyz = ColorSpace.linearSRGB.matrixToXYZ! * rgb
        return SIMD2(xyz.x, xyz.y) / xyz.sum()
    }

    @Test("saturation −1 gives greys; +0.5 moves colours away from white along their dominant wavelength")
    func saturation() throws {
        let raw = SyntheticRaw.colorChecker(illuminant: WhitePoint.d65, asShotWhite: WhitePoint.d65)
        var d = try RAWDeveloper(rawImage: raw)
        let white = SIMD2(WhitePoint.d65.x, WhitePoint.d65.y)
        let patches = [2, 13, 14, 15, 16]  // light skin, blue, green, red, yellow
        let base = try ColorAccuracy.developLinear(d)
        d.saturationAmount = -1
        let grey = try ColorAccuracy.developLinear(d)
        d.saturationAmount = 0.5
        let more = try ColorAccuracy.developLinear(d)
        for patch in patches {
            let g = Self.lab(grey, SyntheticRaw.patchRect(patch))
            #expect(abs(g.y) < 1 && abs(g.z) < 1, "patch \(patch) at −1: \(g)")
            let v0 = Self.xy(linearSRGB: SyntheticRaw.mean(base, SyntheticRaw.patchRect(patch))) - white
            let v1 = Self.xy(linearSRGB: SyntheticRaw.mean(more, SyntheticRaw.patchRect(patch))) - white
            let len0 = (v0 * v0).sum().squareRoot()
            let len1 = (v1 * v1).sum().squareRoot()
            let angle = Double.acos(min(1, (v0 * v1).sum() / (len0 * len1)))
            #expect(len1 > 1.1 * len0, "patch \(patch): excitation \(len0) → \(len1)")
            #expect(angle < 0.01, "patch \(patch): dominant wavelength turned by \(angle) rad")
        }
    }

    @Test(
        "contrast follows its S-curve on grey luminances from 0.0001 to 0.99 within 0.1 % (q′ = q + c·q·(1 − q)·(q − 0.46), q = y^(1/2.4), c = 1.8·amount)",
        arguments: [0.6, -0.6, 1] as [Float])
    func contrastCurve(amount: Float) throws {
        let greys: [Float] = [0.0001, 0.001, 0.01, 0.05, 0.1, 0.18, 0.3, 0.5, 0.7, 0.9, 0.99]
        let input = PixelBuffer(
            width: greys.count, height: 1, format: .rgbaFloat, components: greys.flatMap { [$0, $0, $0, 1] })
        let image = ColorAdjustments(contrast: amount).applyingContrast(to: Image(buffer: input))
        let out = try RenderContext(options: RenderOptions(workingFormat: .rgbaFloat)).createBuffer(
            image, format: .rgbaFloat, colorSpace: nil
        ).components(as: Float.self)
        let c = 1.8 * Double(amount)
        for (i, y) in greys.enumerated() {
            let q = Double.pow(Double(y), 1 / 2.4)
            let expected = Double.pow(q + c * q * (1 - q) * (q - 0.46), 2.4)
            #expect(
                abs(Double(out[4 * i]) - expected) <= 1e-3 * expected, "y \(y): \(out[4 * i]), expected \(expected)")
        }
    }

    @Test("contrast spreads the greys around mid-grey (and −contrast pulls them in); vibrance favours dull colours")
    func contrastAndVibrance() throws {
        let raw = SyntheticRaw.colorChecker(illuminant: WhitePoint.d65, asShotWhite: WhitePoint.d65)
        var d = try RAWDeveloper(rawImage: raw).plain(toneCurve: true)
        let render = ColorAccuracy.render
        let base = try render(d)
        d.contrastAmount = 0.6
        let more = try render(d)
        d.contrastAmount = -0.6
        let less = try render(d)
        // Patch 20 (light grey) and 23 (dark grey): the light one brighter and the dark one darker with more
        // contrast, the other way round with less.
        let l = { (b: PixelBuffer, n: Int) in Self.lab(b, SyntheticRaw.patchRect(n)).x }
        #expect(l(more, 20) > l(base, 20) + 1 && l(more, 23) < l(base, 23) - 1, "more contrast")
        #expect(l(less, 20) < l(base, 20) - 1 && l(less, 23) > l(base, 23) + 1, "less contrast")
        for n in [20, 23] {
            let lab = Self.lab(more, SyntheticRaw.patchRect(n))
            #expect(abs(lab.y) < 1 && abs(lab.z) < 1, "greys stay grey: \(lab)")
        }
        d.contrastAmount = 0
        d.vibranceAmount = 0.8
        let vivid = try render(d)
        let chroma = { (b: PixelBuffer, n: Int) -> Double in
            let lab = Self.lab(b, SyntheticRaw.patchRect(n))
            return (lab.y * lab.y + lab.z * lab.z).squareRoot()
        }
        let dull = chroma(vivid, 2) / chroma(base, 2)  // light skin
        let saturated = chroma(vivid, 15) / chroma(base, 15)  // red
        #expect(dull > saturated + 0.05 && dull > 1.1, "vibrance gain: dull ×\(dull), saturated ×\(saturated)")
    }

    @Test("sharpening steepens an edge and leaves flat areas alone")
    func sharpening() throws {
        let raw = SyntheticRaw.field(width: 160, height: 96) { x, _ in Self.grey(x < 80 ? 0.2 : 0.5) }
        var d = try RAWDeveloper(rawImage: raw)
        d.sharpnessAmount = 0
        let soft = try ColorAccuracy.developLinear(d)
        d.sharpnessAmount = 1.5
        // developLinear turns sharpening off; render this one with only the tone curve off.
        var look = d.plain()
        look.sharpnessAmount = 1.5
        let sharp = try ColorAccuracy.render(look)
        let flat = Rect(x: 20, y: 20, width: 30, height: 50)
        #expect(abs(SyntheticRaw.mean(sharp, flat).y - SyntheticRaw.mean(soft, flat).y) < 1e-3)
        let row = { (b: PixelBuffer, x: Int) in Double(b.components(as: Float.self)[4 * (48 * b.width + x) + 1]) }
        #expect(row(sharp, 80) - row(sharp, 79) > row(soft, 80) - row(soft, 79), "edge gradient")
        #expect(row(sharp, 81) > 0.5 && row(sharp, 78) < 0.2, "overshoot on both sides of the edge")
    }
}
