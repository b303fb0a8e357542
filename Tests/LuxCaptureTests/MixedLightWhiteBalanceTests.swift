import Foundation
import LuxColor
import LuxPixels
import LuxScene
import LuxTestSupport
import Testing

@testable import LuxCapture

/// Auto white balance and exposure in a lamp-lit room with a daylight window four stops brighter (`photo-indoor`).
@Suite struct MixedLightWhiteBalanceTests {
    /// The centres of the ColorChecker's neutral row in `photo-indoor` (white to black), as fractions of the frame.
    static let neutralRow = [0.394, 0.464, 0.534, 0.609, 0.680, 0.750].map { SIMD2($0, 0.802) }

    /// CIE L*a*b* (D65) of a Display P3 colour (encoded), by the published P3-D65 primaries and the sRGB curve.
    static func lab(displayP3 c: SIMD3<Double>) -> SIMD3<Double> {
        func linear(_ v: Double) -> Double { v <= 0.04045 ? v / 12.92 : Foundation.pow((v + 0.055) / 1.055, 2.4) }
        let (r, g, b) = (linear(c.x), linear(c.y), linear(c.z))
        let x = (0.486571 * r + 0.265668 * g + 0.198217 * b) / 0.950456
        let y = 0.228975 * r + 0.691739 * g + 0.079287 * b
        let z = (0.045113 * g + 1.043944 * b) / 1.089058
        func f(_ t: Double) -> Double { t > 216.0 / 24389 ? Foundation.cbrt(t) : (24389.0 / 27 * t + 16) / 116 }
        return SIMD3(116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))
    }

    /// The mean encoded colour of the 5 × 5 pixels around `centre` (fractions of the frame).
    static func patch(_ image: PixelBuffer, at centre: SIMD2<Double>) -> SIMD3<Double> {
        let row = UnsafeMutablePointer<Float>.allocate(capacity: 4 * image.width)
        defer { row.deallocate() }
        let cx = Int(centre.x * Double(image.width))
        let cy = Int(centre.y * Double(image.height))
        var sum = SIMD3<Double>.zero
        for y in (cy - 2)...(cy + 2) {
            image.readRGBAFloat(row: y, into: row)
            for x in (cx - 2)...(cx + 2) {
                sum += SIMD3(Double(row[4 * x]), Double(row[4 * x + 1]), Double(row[4 * x + 2]))
            }
        }
        return sum / 25
    }

    /// A processed photo of `photo-indoor` focused on the chart (0.55 m away: lens position
    /// (1/0.1 − 1/0.55) / (1/0.1 − 1/5)) after 12 stream frames of auto exposure and white balance, and the scene's
    /// ground truth at its size.
    static func captureChart() async throws -> (photo: PixelBuffer, truth: PixelBuffer) {
        let scene = try Scene.photographic(named: "photo-indoor")
        let rig = try await CaptureRig.make(scene: scene, sensor: .small(width: 320, height: 240))
        try await rig.camera.setFocusModeLocked(lensPosition: 0.835)
        _ = try await rig.camera.run(12)
        let events = try await collect(try rig.photo.capturePhoto(PhotoSettings()))
        let photo = try #require(events.photos.first?.pixelBuffer)
        #expect(photo.colorSpace == .displayP3)
        let truth = try scene.groundTruth(width: photo.width, height: photo.height, colorSpace: .displayP3)
        return (photo, truth)
    }

    @Test(
        "In photo-indoor the chart's four lighter greys come out in the room's colour, not the window's nor the blue table's: ΔE00 of each grey's chromaticity against the ground truth's ≤ 4 and b* within 2.5 of the truth's (measured: ΔE00 ≤ 3.2, b* ≤ 1.9 off; shades of grey made them b* +5…+9 and ΔE00 up to 6.4, the window alone b* +44)"
    )
    func greyRowUnderMixedLight() async throws {
        let (photo, truth) = try await Self.captureChart()
        var report: [String] = []
        var worst = 0.0
        var worstB = 0.0
        for centre in Self.neutralRow.dropLast(2) {
            let captured = Self.lab(displayP3: Self.patch(photo, at: centre))
            let expected = Self.lab(displayP3: Self.patch(truth, at: centre))
            // The tone curve makes lightness differ from the scene's: the colour is compared at the truth's L*.
            let d = ColorDifference.deltaE2000(SIMD3(expected.x, captured.y, captured.z), expected)
            worst = max(worst, d)
            worstB = max(worstB, abs(captured.z - expected.z))
            report.append(
                String(
                    format: "L %.1f a %.1f b %.1f vs %.1f %.1f %.1f: %.1f", captured.x, captured.y, captured.z,
                    expected.x, expected.y, expected.z, d))
        }
        #expect(worst <= 4 && worstB <= 2.5, "\(report)")
    }

    @Test(
        "Auto exposure meters photo-indoor for the room and lets the window clip, as a phone does: the chart's mid-grey (neutral 5) comes out within L* ±4 of the ground truth's (measured: 51.2 against 50.4; with the window pulling the meter and the highlight guard it was 43.0, −0.6 EV), and the white patch below clipping; brackets and exposure fusion still start from the highlight meter (HDRCommandTests)"
    )
    func roomExposedUnderWindow() async throws {
        let (photo, truth) = try await Self.captureChart()
        let grey = Self.lab(displayP3: Self.patch(photo, at: Self.neutralRow[3]))
        let expected = Self.lab(displayP3: Self.patch(truth, at: Self.neutralRow[3]))
        let white = Self.lab(displayP3: Self.patch(photo, at: Self.neutralRow[0]))
        let report = String(format: "neutral 5 L* %.1f (truth %.1f), white L* %.1f", grey.x, expected.x, white.x)
        #expect(abs(grey.x - expected.x) <= 4, "\(report)")
        #expect(white.x > 55 && white.x < 97, "\(report)")
    }
}
