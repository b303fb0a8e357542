import LuxColor
import LuxPixels
import LuxRender
import LuxTestSupport
import Testing

@testable import LuxRAW

/// The studio's slider previews: the draft keeps the early stages at the preview's size, and the stages after them
/// follow every change.
@Suite struct PreviewDraftTests {
    static let context = RenderContext(options: RenderOptions(workingFormat: .rgbaFloat))

    static func preview(_ developer: RAWDeveloper, _ draft: RAWDeveloper.PreviewDraft) throws -> PixelBuffer {
        try context.createBuffer(
            try developer.previewImage(draft: draft, context: context), format: .rgbaFloat,
            colorSpace: .extendedLinearSRGB)
    }

    /// The ΔE00 of each patch of a half-size preview of the chart against the published ColorChecker values.
    static func deltas(_ out: PixelBuffer) -> [Double] {
        ColorChecker.classic24.map { patch in
            let r = SyntheticRaw.patchRect(patch.number)
            let half = Rect(x: r.minX / 2, y: r.minY / 2, width: r.width / 2, height: r.height / 2)
            return ColorDifference.deltaE2000(SyntheticRaw.lab(linearSRGB: SyntheticRaw.mean(out, half)), patch.lab)
        }
    }

    @Test(
        "a half-size preview whose draft was made at another exposure and then another white balance still develops the ColorChecker within ΔE00 mean 2, max 5"
    )
    func followsExposureAndWhiteBalance() throws {
        // Lit by D65, recorded at half its luminance, as-shot white illuminant A (wrong for the light).
        let raw = SyntheticRaw.colorChecker(illuminant: WhitePoint.d65, asShotWhite: WhitePoint.a)
        var developer = try RAWDeveloper(rawImage: raw).plain()
        developer.scaleFactor = 0.5
        let draft = RAWDeveloper.PreviewDraft()
        let stale = try Self.preview(developer, draft)
        #expect(stale.width == 120 && stale.height == 80)
        // The draft was made at exposure 0 and the as-shot white: exposure +1 reuses it, the white point does not.
        developer.exposure = 1
        let white = TemperatureAndTint(chromaticity: WhitePoint.d65)
        developer.neutralTemperature = white.temperature
        developer.neutralTint = white.tint
        let sensorGains = try #require(draft.sensor.value(for: developer.adjustments.sensorDraftKey)?.gains)
        let deltas = Self.deltas(try Self.preview(developer, draft))
        // The sensor stages were kept (made at the as-shot gains of illuminant A): the new white balance is a gain
        // per channel on them, then noise reduction and the colour transform run again.
        #expect(draft.sensor.value(for: developer.adjustments.sensorDraftKey)?.gains == sensorGains)
        let mean = deltas.reduce(0, +) / Double(deltas.count)
        #expect(mean < 2 && deltas.max()! < 5, "ΔE00 per patch \(deltas)")
        #expect(Self.deltas(stale).reduce(0, +) / 24 > 5, "the as-shot white of illuminant A under D65 is visibly off")
        // Exposure alone (the draft kept): one more stop doubles the linear values of the grey patches.
        let kept = try Self.preview(developer, draft)
        developer.exposure = 2
        let brighter = try Self.preview(developer, draft)
        for number in 20...23 {
            let r = SyntheticRaw.patchRect(number)
            let half = Rect(x: r.minX / 2, y: r.minY / 2, width: r.width / 2, height: r.height / 2)
            let ratio = SyntheticRaw.mean(brighter, half).y / SyntheticRaw.mean(kept, half).y
            #expect(abs(ratio - 2) < 0.01, "patch \(number): ×\(ratio)")
        }
    }

    @Test(
        "noise reduction re-runs on the kept sensor stages: a noisy flat grey gets smoother and keeps its level within 1 %"
    )
    func followsNoiseReduction() throws {
        // A flat grey at 18 % of the white level with ±6 % uniform noise per photosite (a fixed hash: repeatable).
        let raw = SyntheticRaw.field(width: 240, height: 160) { x, y in
            var h = UInt64(truncatingIfNeeded: x &* 73_856_093 ^ y &* 19_349_663)
            h = (h ^ (h >> 16)) &* 0x45D9_F3B
            h = (h ^ (h >> 16)) &* 0x45D9_F3B
            h ^= h >> 16
            return SIMD3(repeating: 0.18 * (1 + 0.12 * (Double(h % 1000) / 999 - 0.5)))
        }
        var developer = try RAWDeveloper(rawImage: raw).plain()
        developer.scaleFactor = 0.5
        let draft = RAWDeveloper.PreviewDraft()
        let noisy = try Self.preview(developer, draft)
        developer.luminanceNoiseReductionAmount = 1
        developer.colorNoiseReductionAmount = 1
        let smooth = try Self.preview(developer, draft)
        #expect(draft.sensor.value(for: developer.adjustments.sensorDraftKey) != nil, "the sensor stages kept")
        // Luma statistics inside a margin of 8 pixels (the filters' borders).
        func statistics(_ b: PixelBuffer) -> (mean: Double, deviation: Double) {
            let v = b.components(as: Float.self)
            var values: [Double] = []
            for y in 8..<(b.height - 8) {
                for x in 8..<(b.width - 8) {
                    let o = 4 * (y * b.width + x)
                    values.append(0.2126 * Double(v[o]) + 0.7152 * Double(v[o + 1]) + 0.0722 * Double(v[o + 2]))
                }
            }
            let mean = values.reduce(0, +) / Double(values.count)
            let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count)
            return (mean, variance.squareRoot())
        }
        let before = statistics(noisy)
        let after = statistics(smooth)
        #expect(after.deviation < 0.7 * before.deviation, "σ \(before.deviation) → \(after.deviation)")
        #expect(abs(after.mean / before.mean - 1) < 0.01, "mean \(before.mean) → \(after.mean)")
    }
}
