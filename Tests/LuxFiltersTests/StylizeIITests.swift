import Foundation
import LuxFilters
import LuxPixels
import LuxRender
import LuxTestSupport
import Testing

/// SpotColor against its formula evaluated here and hand-computed pixels; DepthOfField as the documented mix of its
/// sharp and blurred parts.
@Suite struct StylizeIITests {
    static let spots = Filters.SpotColor {
        $0.centerColor1 = Color(red: 0.2, green: 0.2, blue: 0.2)
        $0.replacementColor1 = Color(red: 1, green: 0, blue: 0)
        $0.closeness1 = 0.3
        $0.contrast1 = 0.5
        $0.centerColor2 = Color(red: 0.8, green: 0.8, blue: 0.8)
        $0.replacementColor2 = Color(red: 0, green: 0, blue: 1)
        $0.closeness2 = 0.2
        $0.contrast2 = 1
        $0.centerColor3 = Color(red: 0.3, green: 0.6, blue: 0.3)
        $0.replacementColor3 = Color(red: 0, green: 1, blue: 0)
        $0.closeness3 = 0.4
        $0.contrast3 = 0.25
    }

    @Test("SpotColor hand-computed: half-way through the first range's soft edge, inside the hard second, outside all")
    func spotColorPixels() throws {
        // (0.2, 0.2, 0.425) is 0.225 from centre 1: weight (0.3 − 0.225)/(0.3·0.5) = ½, half-way to red.
        // (0.8, 0.8, 0.9) is 0.1 from centre 2, inside its hard edge: blue. (0.9, 0.1, 0.9) is near none.
        // A half-transparent pixel at centre 1 becomes half-transparent red (colours read back unpremultiplied).
        let input = PixelBuffer(
            width: 4, height: 1, format: .rgbaFloat,
            components: [0.2, 0.2, 0.425, 1, 0.8, 0.8, 0.9, 1, 0.9, 0.1, 0.9, 1, 0.2, 0.2, 0.2, 0.5] as [Float])
        let out = try renderFloat(Image(buffer: input).applyingFilter(Self.spots))
        let expected: [SIMD4<Double>] = [[0.6, 0.1, 0.2125, 1], [0, 0, 1, 1], [0.9, 0.1, 0.9, 1], [1, 0, 0, 0.5]]
        for (i, e) in expected.enumerated() {
            let p = pixel(out, i)
            #expect(largest(p - e) < 1e-5, "pixel \(i): \(p), expected \(e)")
        }
    }

    @Test(
        "SpotColor: every pixel mixes towards the replacement of its largest weight clamp((closeness − d)/edge, 0, 1)")
    func spotColorFormula() throws {
        let input = randomBuffer(width: 48, height: 32, seed: 27, alpha: true)
        let image = Image(buffer: input)
        let centers: [SIMD3<Double>] = [[0.2, 0.2, 0.2], [0.8, 0.8, 0.8], [0.3, 0.6, 0.3]]
        let replacements: [SIMD3<Double>] = [[1, 0, 0], [0, 0, 1], [0, 1, 0]]
        let closeness = [0.3, 0.2, 0.4]
        let contrast = [0.5, 1, 0.25]
        let out = try renderFloat(image.applyingFilter(Self.spots))
        let straight = try renderFloat(image)
        expectPerPixel(out, straight, tolerance: 1e-5) { p in
            let rgb = SIMD3(p.x, p.y, p.z)
            var best = (weight: 0.0, target: rgb)
            for k in 0..<3 {
                let d = ((rgb - centers[k]) * (rgb - centers[k])).sum().squareRoot()
                let edge = max(closeness[k] * (1 - contrast[k]), 1e-6)
                let w = min(max((closeness[k] - d) / edge, 0), 1)
                if w > best.weight { best = (w, replacements[k]) }
            }
            let mixed = rgb + (best.target - rgb) * best.weight
            return SIMD4(mixed.x, mixed.y, mixed.z, p.w)
        }
    }

    @Test(
        "DepthOfField mixes its sharpened and blurred copies by smoothstep(distance / falloff); parts equal the whole")
    func depthOfField() throws {
        let photo = Image(buffer: try TestPhoto.crop(width: 96, height: 64))
        let (p0, p1) = (Point(x: 10.5, y: 20.5), Point(x: 50.5, y: 40.5))
        let image = photo.depthOfField(point0: p0, point1: p1, saturation: 1.3, radius: 4)
        let out = try renderFloat(image)
        let saturated = photo.colorControls(saturation: 1.3)
        let sharp = try renderFloat(saturated.unsharpMask(radius: 2.5, intensity: 0.5))
        let blurred = try renderFloat(saturated.clampedToExtent().gaussianBlur(radius: 4).cropped(to: photo.extent))
        // The line through (10.5, 20.5) and (50.5, 40.5) (pixel centres); the fall-off is half their distance, √500.
        let falloff = (40.0 * 40 + 20 * 20).squareRoot() / 2
        var worst = 0.0
        for y in 0..<64 {
            for x in 0..<96 {
                let (px, py) = (Double(x) + 0.5 - 10.5, Double(y) + 0.5 - 20.5)
                let d = abs(px * 20 - py * 40) / (40.0 * 40 + 20 * 20).squareRoot()
                let t = min(d / falloff, 1)
                let m = t * t * (3 - 2 * t)
                let i = y * 96 + x
                let e = pixel(sharp, i) + m * (pixel(blurred, i) - pixel(sharp, i))
                worst = max(worst, largest(pixel(out, i) - e))
            }
        }
        #expect(worst < 1e-4, "worst \(worst)")
        // On the line the sharp copy shows, far from it the blurred one.
        #expect(largest(pixel(out, 30 * 96 + 30) - pixel(sharp, 30 * 96 + 30)) < 1e-4)
        #expect(largest(pixel(out, 60 * 96 + 5) - pixel(blurred, 60 * 96 + 5)) < 1e-5)
        // A part renders as the same part of the whole.
        let part = try renderFloat(image, Rect(x: 40, y: 10, width: 16, height: 16))
        for y in 0..<16 {
            for x in 0..<16 { #expect(pixel(part, y * 16 + x) == pixel(out, (y + 10) * 96 + x + 40)) }
        }
    }
}

/// The largest magnitude among `v`'s components.
private func largest(_ v: SIMD4<Double>) -> Double { max(abs(v.x), abs(v.y), abs(v.z), abs(v.w)) }
