import LuxColor
import LuxPixels
import LuxRender
import LuxTestSupport
import Testing

@testable import LuxRAW

/// The half-size develop (2×2 superpixels, the pipeline at a quarter of the pixels) and draft mode (that render
/// enlarged back to the full size) against the full develop.
@Suite struct ReducedDevelop {
    /// The red samples of the first row of `image` (linear) rendered as linear `.rgbaFloat`.
    static func firstRedRow(_ image: Image) throws -> [Float] {
        let out = try RenderContext(options: RenderOptions(workingFormat: .rgbaFloat)).createBuffer(
            image, format: .rgbaFloat, colorSpace: .extendedLinearSRGB)
        return (0..<out.width).map { out.components(as: Float.self)[4 * $0] }
    }

    @Test(
        "a whole-factor enlargement samples pixel centres bilinearly and repeats the edges (hand-computed)",
        arguments: [(2, [0, 0.25, 0.75, 1]), (3, [0, 0, 1.0 / 3, 2.0 / 3, 1, 1])] as [(Int, [Float])])
    func enlargement(factor: Int, expected: [Float]) throws {
        // Two pixels, red 0 and 1: output X samples input (X + ½)/factor − ½.
        let input = PixelBuffer(
            width: 2, height: 1, format: .rgbaFloat, components: [0, 0, 0, 1, 1, 0, 0, 1] as [Float])
        let image = Resample(width: 2 * factor, height: factor).apply(
            to: Image(buffer: input, colorSpace: .extendedLinearSRGB))
        #expect(image.extent == Rect(width: 2 * factor, height: factor))
        let row = try Self.firstRedRow(image)
        #expect(zip(row, expected).allSatisfy { abs($0 - $1) < 1e-6 }, "\(row)")
    }

    /// The mean ΔE*ab between two linear-sRGB `.rgbaFloat` buffers of the same size, pixel by pixel.
    static func meanDeltaE(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
        let va = a.components(as: Float.self)
        let vb = b.components(as: Float.self)
        var sum = 0.0
        for i in 0..<(a.width * a.height) {
            let la = SyntheticRaw.lab(
                linearSRGB: SIMD3(Double(va[4 * i]), Double(va[4 * i + 1]), Double(va[4 * i + 2])))
            let lb = SyntheticRaw.lab(
                linearSRGB: SIMD3(Double(vb[4 * i]), Double(vb[4 * i + 1]), Double(vb[4 * i + 2])))
            let d = la - lb
            sum += (d * d).sum().squareRoot()
        }
        return sum / Double(a.width * a.height)
    }

    @Test(
        "the half-size develop matches the full develop averaged over 2×2 blocks: every patch within 1 ΔE*ab, the pixels within 1.5 on average"
    )
    func halfSizeColour() throws {
        let raw = SyntheticRaw.colorChecker(illuminant: WhitePoint.d65, asShotWhite: WhitePoint.d65)
        var d = try RAWDeveloper(rawImage: raw).plain(toneCurve: true)
        let full = try ColorAccuracy.render(d)
        d.scaleFactor = 0.5
        #expect(d.binning == 2)
        let half = try ColorAccuracy.render(d)
        #expect(half.width == full.width / 2 && half.height == full.height / 2)
        // The full render averaged over 2×2 blocks, here.
        let f = full.components(as: Float.self)
        var reduced = [Float](repeating: 1, count: 4 * half.width * half.height)
        for y in 0..<half.height {
            for x in 0..<half.width {
                for c in 0..<3 {
                    let s = [(0, 0), (1, 0), (0, 1), (1, 1)].reduce(Float(0)) { acc, o in
                        acc + f[4 * ((2 * y + o.1) * full.width + 2 * x + o.0) + c]
                    }
                    reduced[4 * (y * half.width + x) + c] = s / 4
                }
            }
        }
        let oracle = PixelBuffer(width: half.width, height: half.height, format: .rgbaFloat, components: reduced)
        let delta = Self.meanDeltaE(half, oracle)
        #expect(delta < 1.5, "mean ΔE*ab \(delta) per pixel")
        // The colour of each patch (its inside, away from the edges where 2×2 blocks straddle two patches).
        var worst = 0.0
        for number in 1...24 {
            let r = SyntheticRaw.patchRect(number)
            let inside = Rect(x: r.minX / 2, y: r.minY / 2, width: r.width / 2, height: r.height / 2)
            let d =
                SyntheticRaw.lab(linearSRGB: SyntheticRaw.mean(half, inside))
                - SyntheticRaw.lab(linearSRGB: SyntheticRaw.mean(oracle, inside))
            worst = max(worst, (d * d).sum().squareRoot())
        }
        #expect(worst < 1, "largest patch difference ΔE*ab \(worst)")
    }

    @Test("draft mode matches the full develop at the same size (mean ΔE*ab < 1.5 per pixel)")
    func draftColour() throws {
        let raw = SyntheticRaw.colorChecker(illuminant: WhitePoint.d65, asShotWhite: WhitePoint.d65)
        var d = try RAWDeveloper(rawImage: raw).plain(toneCurve: true)
        let full = try ColorAccuracy.render(d)
        d.isDraftModeEnabled = true
        let draft = try ColorAccuracy.render(d)
        #expect(draft.width == full.width && draft.height == full.height)
        let delta = Self.meanDeltaE(draft, full)
        #expect(delta < 1.5, "mean ΔE*ab \(delta)")
    }
}
