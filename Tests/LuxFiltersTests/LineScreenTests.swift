import Foundation
import LuxFilters
import LuxPixels
import LuxRender
import Testing

/// The halftone screens (line, dot, circular, hatched) against their formulas evaluated in Double at every pixel.
@Suite struct LineScreenTests {
    /// The screen value at tile coordinates `(u, v)` (periods along and across the angle).
    static func screen(_ name: String, _ u: Double, _ v: Double) -> Double {
        let wave = { (t: Double) in 0.5 + 0.5 * cos(2 * Double.pi * t) }
        switch name {
        case "DotScreen": return 0.5 + 0.25 * (cos(2 * Double.pi * u) + cos(2 * Double.pi * v))
        case "CircularScreen": return wave((u * u + v * v).squareRoot())
        case "HatchedScreen": return max(wave(u), wave(v))
        default: return wave(u)
        }
    }

    @Test(
        "output equals ½ + (L − screen)/(1 − sharpness), clamped, for a luminance ramp",
        arguments: ["LineScreen", "DotScreen", "CircularScreen", "HatchedScreen"], [0.0, 0.7, 1.0])
    func formula(name: String, sharpness: Double) throws {
        let (w, h) = (48, 32)
        var values = [Float](repeating: 1, count: w * h * 4)
        for y in 0..<h {
            for x in 0..<w {
                let o = 4 * (y * w + x)
                values[o] = Float(x) / Float(w - 1)
                values[o + 1] = Float(y) / Float(h - 1)
                values[o + 2] = 0.25
            }
        }
        let input = Image(buffer: PixelBuffer(width: w, height: h, format: .rgbaFloat, components: values))
        let center = Point(x: 17.5, y: 9)
        let angle = name == "CircularScreen" ? 0 : 0.6
        let width = 7.0
        let output = try RenderContext().createBuffer(
            try input.applyingFilter(
                name,
                parameters: [
                    "center": .vector([center.x, center.y]), "width": .number(width), "sharpness": .number(sharpness),
                ].merging(name == "CircularScreen" ? [:] : ["angle": .number(angle)]) { a, _ in a }),
            format: .rgbaFloat, colorSpace: nil
        ).components(as: Float.self)
        var worst = 0.0
        for y in 0..<h {
            for x in 0..<w {
                let o = 4 * (y * w + x)
                let l = min(max(0.2126 * Double(values[o]) + 0.7152 * Double(values[o + 1]) + 0.0722 * 0.25, 0), 1)
                let dx = Double(x) + 0.5 - center.x
                let dy = Double(y) + 0.5 - center.y
                let s = Self.screen(
                    name, (dx * cos(angle) + dy * sin(angle)) / width, (-dx * sin(angle) + dy * cos(angle)) / width)
                let v = min(max(0.5 + (l - s) / max(1 - sharpness, 1e-3), 0), 1)
                // With a (nearly) hard threshold, half-float rounding may flip pixels sitting on an edge.
                if sharpness == 1, abs(l - s) < 0.003 { continue }
                worst = max(
                    worst, abs(Double(output[o]) - v), abs(Double(output[o + 1]) - v), abs(Double(output[o + 3]) - 1))
            }
        }
        #expect(worst < 2e-3, "\(name)")  // half-float intermediates
    }

    @Test("A screen value's fields (center, width, sharpness) read and write as its own")
    func screenFieldsAsTheFiltersOwn() {
        let dots = Filters.DotScreen {
            $0.width = 9
            $0.sharpness = 0.5
            $0.angle = 0.3
        }
        #expect(dots.screen == Filters.Screen(center: Point(x: 150, y: 150), width: 9, sharpness: 0.5))
        #expect(dots.width == 9 && dots.angle == 0.3)
    }
}

/// CMYKHalftone's dots cover the fraction of each cell that the ink's coverage asks for.
@Suite struct CMYKHalftoneTests {
    static func flat(_ r: Float, _ g: Float, _ b: Float) -> Image {
        Image(
            buffer: PixelBuffer(
                width: 240, height: 240, format: .rgbaFloat,
                components: [Float](
                    (0..<(240 * 240)).flatMap { _ in [r, g, b, 1] })))
    }

    static func means(_ image: Image) throws -> SIMD3<Double> {
        let out = try renderFloat(image)
        var sum = SIMD3<Double>()
        for p in 0..<(240 * 240) { sum += SIMD3(Double(out[4 * p]), Double(out[4 * p + 1]), Double(out[4 * p + 2])) }
        return sum / Double(240 * 240)
    }

    @Test("without black, each channel's mean is 1 − its ink's coverage (small dots and large ones)")
    // The screens are turned and their period is not a whole number of pixels, so pixel centres sample the dots at
    // every phase.
    func coverage() throws {
        let m = try Self.means(
            Self.flat(0.7, 0.35, 0.9).cmykHalftone(
                center: Point(x: 3.3, y: 7.1), angle: 0.1, width: 7.3, sharpness: 1, gcr: 0, ucr: 0))
        #expect(abs(m.x - 0.7) < 0.01 && abs(m.y - 0.35) < 0.01 && abs(m.z - 0.9) < 0.01, "\(m)")
    }

    @Test("with full grey replacement a grey is black ink alone: r = g = b = 1 − K at every pixel, mean 1 − K")
    func grayReplacement() throws {
        let image = Self.flat(0.4, 0.4, 0.4).cmykHalftone(
            center: .zero, angle: 0.2, width: 10, sharpness: 1, gcr: 1, ucr: 1)
        let out = try renderFloat(image)
        for p in stride(from: 0, to: 240 * 240, by: 7) {
            #expect(out[4 * p] == out[4 * p + 1] && out[4 * p] == out[4 * p + 2])
        }
        let m = try Self.means(image)
        #expect(abs(m.x - 0.4) < 0.01, "\(m)")
    }

    @Test("white stays white and black black")
    func extremes() throws {
        #expect(try Self.means(Self.flat(1, 1, 1).cmykHalftone(center: .zero)) == SIMD3(1, 1, 1))
        #expect(try Self.means(Self.flat(0, 0, 0).cmykHalftone(center: .zero)) == SIMD3(0, 0, 0))
    }
}
