import Foundation
import LuxCodecs
import LuxColor
import LuxPixels
import LuxRender
import LuxTestSupport
import Testing

@testable import LuxRAW

/// Linear Raw DNGs (PhotometricInterpretation LinearRaw, three samples per pixel: what iPhone ProRAW and Adobe's
/// converter write) develop through the same stages as Bayer raws.
@Suite struct LinearRawDevelopment {
    static let script = TestData.root + "/reference/linear_raw_dng.py"

    /// Whether python3 with the writer's modules is installed (pip: numpy tifffile colour-demosaicing).
    static let hasWriter: Bool = {
        guard ExternalTool.isAvailable("python3"),
            let r = try? ExternalTool.capture("python3", ["-c", "import numpy, tifffile, colour_demosaicing"])
        else { return false }
        return r.status == 0
    }()

    @Test(
        "a Linear Raw DNG written by tifffile from a Bayer DNG develops like the Bayer DNG (24 patches, ΔE*ab < 1.5)",
        .enabled(if: hasWriter, "needs python3 with numpy, tifffile and colour-demosaicing (pip)"))
    func matchesBayer() throws {
        let dir = try ExternalTool.temporaryFolder("lux-linear-raw")
        defer { try? FileManager.default.removeItem(at: dir) }
        var raw = SyntheticRaw.colorChecker(illuminant: WhitePoint.d65, asShotWhite: WhitePoint.d65, scale: 0.5)
        raw.properties.baselineExposure = 0.5
        let bayer = dir.appendingPathComponent("bayer.dng")
        let linear = dir.appendingPathComponent("linear.dng")
        try ImageFile.write(
            raw, to: bayer, options: EncodingOptions(dng: DNGEncodingOptions(compression: .uncompressed)))
        let run = try ExternalTool.capture("python3", [Self.script, bayer.path, linear.path])
        try #require(run.status == 0, "\(run.errorText)")

        let fromLinear = try RAWDeveloper(url: linear)
        #expect(fromLinear.rawImage.properties.photometric == .linearRaw)
        #expect(fromLinear.nativeSize == Size(width: 240, height: 160))
        #expect(fromLinear.baselineExposure == 0.5)
        let a = try ColorAccuracy.render(try RAWDeveloper(url: bayer).plain(toneCurve: true))
        let b = try ColorAccuracy.render(fromLinear.plain(toneCurve: true))
        #expect(a.width == b.width && a.height == b.height)
        var worst = 0.0
        for number in 1...24 {
            let la = SyntheticRaw.lab(linearSRGB: SyntheticRaw.mean(a, SyntheticRaw.patchRect(number)))
            let lb = SyntheticRaw.lab(linearSRGB: SyntheticRaw.mean(b, SyntheticRaw.patchRect(number)))
            let d = la - lb
            worst = max(worst, (d * d).sum().squareRoot())
        }
        #expect(worst < 1.5, "largest patch difference ΔE*ab \(worst)")

        // The controls apply: +1 EV doubles the linear output of a patch.
        var plain = fromLinear.plain()
        let before = SyntheticRaw.mean(try ColorAccuracy.render(plain), SyntheticRaw.patchRect(22))
        plain.exposure = 1
        let after = SyntheticRaw.mean(try ColorAccuracy.render(plain), SyntheticRaw.patchRect(22))
        #expect(abs(after.y / before.y - 2) < 0.02)
        // A half-size Linear Raw render averages 2×2 pixels.
        plain.scaleFactor = 0.5
        #expect(try plain.outputImage.extent.size == Size(width: 120, height: 80))
    }
}
