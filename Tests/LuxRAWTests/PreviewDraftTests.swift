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
        let deltas = Self.deltas(try Self.preview(developer, draft))
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
}
