import LuxCodecs
import LuxColor
import LuxPixels
import LuxRender
import RealModule
import Testing

@testable import LuxRAW

@Suite struct ColorAccuracy {
    /// Develops to linear sRGB floats with every look stage off (the comparison ALGORITHMS.md §9.3 asks for:
    /// after white balance and camera → XYZ, before tone curve and creative adjustments).
    static func developLinear(_ developer: RAWDeveloper) throws -> PixelBuffer {
        try render(developer.plain())
    }

    /// Renders to extended linear sRGB floats as is.
    static func render(_ developer: RAWDeveloper) throws -> PixelBuffer {
        let context = RenderContext(options: RenderOptions(workingFormat: .rgbaFloat))
        return try context.createBuffer(try developer.outputImage, format: .rgbaFloat, colorSpace: .extendedLinearSRGB)
    }

    @Test("a synthetic ColorChecker DNG (known XYZ, known camera matrix) develops within ΔE00 mean 2, max 5")
    func colorChecker() throws {
        let raw = SyntheticRaw.colorChecker(illuminant: WhitePoint.d65, asShotWhite: WhitePoint.d65, scale: 0.5)
        let bytes = try DNG.encode(raw)  // through the file format, as a camera would hand it over
        var developer = try RAWDeveloper(data: bytes)
        developer.exposure = 1  // the scene was recorded at half its luminance
        let out = try Self.developLinear(developer)
        var deltas: [Double] = []
        for patch in ColorChecker.classic24 {
            let lab = SyntheticRaw.lab(linearSRGB: SyntheticRaw.mean(out, SyntheticRaw.patchRect(patch.number)))
            deltas.append(ColorDifference.deltaE2000(lab, patch.lab))
        }
        let mean = deltas.reduce(0, +) / Double(deltas.count)
        print("ColorChecker mean ΔE00 \(mean), max \(deltas.max()!)")
        #expect(mean < 2, "mean ΔE00 \(mean), per patch \(deltas)")
        #expect(deltas.max()! < 5, "max ΔE00 \(deltas.max()!)")
        #expect(deltas[18...].allSatisfy { $0 < 2 }, "neutrals \(deltas[18...])")
    }

    @Test("the in-memory Bayer-14 path (no file) develops the same chart", arguments: CFAPattern.allCases)
    func bayerBuffer(pattern: CFAPattern) throws {
        let raw = SyntheticRaw.colorChecker(
            illuminant: WhitePoint.d65, asShotWhite: WhitePoint.d65, scale: 0.5, pattern: pattern)
        var developer = try RAWDeveloper(pixels: raw.pixels, properties: raw.properties)
        developer.exposure = 1
        let out = try Self.developLinear(developer)
        let deltas = ColorChecker.classic24.map { patch in
            ColorDifference.deltaE2000(
                SyntheticRaw.lab(linearSRGB: SyntheticRaw.mean(out, SyntheticRaw.patchRect(patch.number))), patch.lab)
        }
        #expect(deltas.reduce(0, +) / 24 < 2 && deltas.max()! < 5, "\(pattern): \(deltas)")
    }

    @Test("two calibrations are interpolated by the scene's temperature: a tungsten scene uses the tungsten matrix")
    func dualIlluminant() throws {
        // A camera whose XYZ → camera relation differs under tungsten (CM1, illuminant A) and daylight (CM2, D65).
        let daylight = SyntheticRaw.cameraMatrix
        let tungsten = daylight * Matrix3x3([1.12, -0.1, -0.02, 0.06, 0.93, 0.01, -0.02, 0.14, 0.88])
        func develop(_ color: ColorCalibration) throws -> [Double] {
            var raw = SyntheticRaw.colorChecker(illuminant: WhitePoint.a, asShotWhite: WhitePoint.a, camera: tungsten)
            var c = color
            let n = tungsten * WhitePoint.a.xyz()
            c.asShotNeutral = (0..<3).map { n[$0] / n.max() }
            raw.properties.color = c
            var d = try RAWDeveloper(rawImage: raw)
            d.exposure = 1
            let out = try Self.developLinear(d)
            // The chart's reference colours are D50; the render adapts the scene white to D65 and the Lab
            // conversion back to D50, so a correct development reproduces them.
            return ColorChecker.classic24.map { patch in
                ColorDifference.deltaE2000(
                    SyntheticRaw.lab(linearSRGB: SyntheticRaw.mean(out, SyntheticRaw.patchRect(patch.number))),
                    patch.lab)
            }
        }
        let both = try develop(
            ColorCalibration(
                colorMatrix1: tungsten, calibrationIlluminant1: .standardA, colorMatrix2: daylight,
                calibrationIlluminant2: .d65))
        let daylightOnly = try develop(ColorCalibration(colorMatrix1: daylight, calibrationIlluminant1: .d65))
        let mean = both.reduce(0, +) / 24
        let control = daylightOnly.reduce(0, +) / 24
        print("dual illuminant: mean ΔE00 \(mean) (daylight matrix only: \(control))")
        #expect(mean < 1 && both.max()! < 3, "\(both)")
        #expect(control > mean + 1.5, "the daylight matrix alone should be visibly wrong: \(control)")
    }

    @Test("setting the neutral from a grey patch makes it neutral under tungsten (|a*|, |b*| < 1)")
    func neutralFromPatch() throws {
        // Lit by illuminant A but tagged as shot under D65: the as-shot render is orange.
        let raw = SyntheticRaw.colorChecker(illuminant: WhitePoint.a, asShotWhite: WhitePoint.d65, scale: 0.5)
        var developer = try RAWDeveloper(rawImage: raw)
        let before = SyntheticRaw.lab(
            linearSRGB: SyntheticRaw.mean(try Self.developLinear(developer), SyntheticRaw.patchRect(22)))
        #expect(before.y.magnitude + before.z.magnitude > 10, "as-shot render should be off-neutral: \(before)")
        try developer.setNeutral(sampling: SyntheticRaw.patchRect(22))
        #expect(abs(developer.neutralTemperature - 2856) < 100, "temperature \(developer.neutralTemperature)")
        for number in [20, 21, 22, 23] {
            let lab = SyntheticRaw.lab(
                linearSRGB: SyntheticRaw.mean(try Self.developLinear(developer), SyntheticRaw.patchRect(number)))
            #expect(abs(lab.y) < 1 && abs(lab.z) < 1, "patch \(number): \(lab)")
        }
    }
}

/// The Adobe DNG SDK's way to a temperature: NeutralToXY iteration, then Robertson isotherms (table from
/// FORMATS.md §2.5, Wyszecki & Stiles) — written here independently of LuxColor's Planckian method.
enum AdobeTemperature {
    static let table: [(Double, Double, Double, Double)] = [
        (0, 0.18006, 0.26352, -0.24341), (10, 0.18066, 0.26589, -0.25479), (20, 0.18133, 0.26846, -0.26876),
        (30, 0.18208, 0.27119, -0.28539), (40, 0.18293, 0.27407, -0.30470), (50, 0.18388, 0.27709, -0.32675),
        (60, 0.18494, 0.28021, -0.35156), (70, 0.18611, 0.28342, -0.37915), (80, 0.18740, 0.28668, -0.40955),
        (90, 0.18880, 0.28997, -0.44278), (100, 0.19032, 0.29326, -0.47888), (125, 0.19462, 0.30141, -0.58204),
        (150, 0.19962, 0.30921, -0.70471), (175, 0.20525, 0.31647, -0.84901), (200, 0.21142, 0.32312, -1.0182),
        (225, 0.21807, 0.32909, -1.2168), (250, 0.22511, 0.33439, -1.4512), (275, 0.23247, 0.33904, -1.7298),
        (300, 0.24010, 0.34308, -2.0637), (325, 0.24702, 0.34655, -2.4681), (350, 0.25591, 0.34951, -2.9641),
        (375, 0.26400, 0.35200, -3.5814), (400, 0.27218, 0.35407, -4.3633), (425, 0.28039, 0.35577, -5.3762),
        (450, 0.28863, 0.35714, -6.7262), (475, 0.29685, 0.35823, -8.5955), (500, 0.30505, 0.35907, -11.324),
        (525, 0.31320, 0.35968, -15.628), (550, 0.32129, 0.36011, -23.325), (575, 0.32931, 0.36038, -40.770),
        (600, 0.33724, 0.36051, -116.45),
    ]

    static func temperature(x: Double, y: Double) -> Double {
        let u = 2 * x / (1.5 - x + 6 * y)
        let v = 3 * y / (1.5 - x + 6 * y)
        var lastDt = 0.0
        for i in 1..<table.count {
            let (r, ui, vi, t) = table[i]
            let len = (1 + t * t).squareRoot()
            let du = 1 / len
            let dv = t / len
            var dt = -(u - ui) * dv + (v - vi) * du
            if dt <= 0 || i == table.count - 1 {
                dt = -dt
                let f = i == 1 ? 0 : dt / (lastDt + dt)
                return 1e6 / (table[i - 1].0 * f + r * (1 - f))
            }
            lastDt = dt
        }
        return 0
    }

    /// NeutralToXY for a single colour matrix (no interpolation needed).
    static func temperature(neutral: SIMD3<Double>, colorMatrix: Matrix3x3) -> Double {
        let inv = colorMatrix.inverse!
        let xyz = inv * neutral
        let s = xyz.x + xyz.y + xyz.z
        return temperature(x: xyz.x / s, y: xyz.y / s)
    }
}

@Suite struct WhiteBalance {
    @Test("as-shot temperature of the Canon 550D DNG agrees with the Adobe SDK method within 50 K")
    func canonTemperature() throws {
        let path = TestFiles.canon550D
        let developer = try RAWDeveloper(data: [UInt8](try TestFiles.data(path)))
        let cm = try #require(developer.properties.color.colorMatrix1)
        let expected = AdobeTemperature.temperature(neutral: developer.asShotNeutral, colorMatrix: cm)
        print("550D: Lux \(developer.neutralTemperature) K tint \(developer.neutralTint), Adobe-style \(expected) K")
        #expect(
            abs(developer.neutralTemperature - expected) < 50,
            "Lux \(developer.neutralTemperature) K, Adobe-style \(expected) K")
    }

    @Test("synthetic as-shot whites read back as their temperature", arguments: [2856.0, 4000, 5003, 6504, 7500])
    func syntheticTemperature(kelvin: Double) throws {
        let white = TemperatureAndTint(temperature: kelvin, tint: 0).chromaticity
        let raw = SyntheticRaw.colorChecker(illuminant: white, asShotWhite: white)
        let developer = try RAWDeveloper(rawImage: raw)
        let expected = AdobeTemperature.temperature(
            neutral: developer.asShotNeutral, colorMatrix: SyntheticRaw.cameraMatrix)
        #expect(abs(developer.neutralTemperature - expected) < 50, "\(developer.neutralTemperature) vs \(expected)")
        #expect(abs(developer.neutralTemperature - kelvin) < 50)
    }
}
