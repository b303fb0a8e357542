import Foundation
import LuxColor
import LuxFilters
import LuxPixels
import LuxRender
import Testing

/// Colour adjustments against their formulas evaluated in Double on chosen and random pixels.
@Suite struct ColorAdjustmentTests {
    /// Translucent pixels with values in −0.2…1.3 (extended range).
    static let buffer = randomBuffer(width: 37, height: 23, seed: 81, alpha: true, range: -0.2...1.3)
    static let source = Image(buffer: buffer)
    static let pixels = buffer.components(as: Float.self)
    /// Translucent pixels in 0…1.
    static let unitBuffer = randomBuffer(width: 37, height: 23, seed: 82, alpha: true)
    static let unitPixels = unitBuffer.components(as: Float.self)

    @Test("ColorClamp clamps each straight component, alpha included")
    func colorClamp() throws {
        let lo = SIMD4<Double>(0.1, -0.1, 0.2, 0.5)
        let hi = SIMD4<Double>(0.9, 1.2, 0.6, 0.8)
        let out = try renderFloat(Self.source.colorClamp(min: lo, max: hi))
        expectPerPixel(out, Self.pixels) { p in p.clamped(lowerBound: lo, upperBound: hi) }
    }

    @Test(
        "ColorControls: saturation about Rec. 709 luma, then brightness, then contrast about 0.5",
        arguments: [(1.4, 0.1, 1.3), (0.0, -0.2, 0.5), (1.0, 0.0, 2.0)])
    func colorControls(s: Double, b: Double, k: Double) throws {
        let out = try renderFloat(Self.source.colorControls(saturation: s, brightness: b, contrast: k))
        expectPerPixel(out, Self.pixels, tolerance: 2e-5) { p in
            let y = luma(p)
            func f(_ c: Double) -> Double { ((y + (c - y) * s) + b - 0.5) * k + 0.5 }
            return SIMD4(f(p.x), f(p.y), f(p.z), p.w)
        }
    }

    @Test("ColorPolynomial evaluates a cubic per channel")
    func colorPolynomial() throws {
        let r: SIMD4<Double> = [0.1, 0.8, 0.3, -0.2]
        let g: SIMD4<Double> = [0, 1, 0, 0]
        let b: SIMD4<Double> = [-0.05, 1.2, -0.4, 0.25]
        let a: SIMD4<Double> = [0.1, 0.5, 0.2, 0]
        let out = try renderFloat(Self.source.colorPolynomial(red: r, green: g, blue: b, alpha: a))
        func poly(_ k: SIMD4<Double>, _ x: Double) -> Double { k.x + k.y * x + k.z * x * x + k.w * x * x * x }
        expectPerPixel(out, Self.pixels, tolerance: 2e-5) { p in
            SIMD4(poly(r, p.x), poly(g, p.y), poly(b, p.z), poly(a, p.w))
        }
    }

    @Test("ColorCrossPolynomial evaluates k·(r, g, b, r², g², b², rg, gb, br, 1)")
    func colorCrossPolynomial() throws {
        let kr: [Double] = [0.9, 0.1, 0, 0.05, 0, 0, 0.1, 0, -0.05, 0.02]
        let kg: [Double] = [0, 1, 0, 0, -0.1, 0, 0, 0.2, 0, 0]
        let kb: [Double] = [0.1, 0, 0.8, 0, 0, 0.1, 0, 0, 0.15, -0.01]
        let out = try renderFloat(Self.source.colorCrossPolynomial(red: kr, green: kg, blue: kb))
        func f(_ k: [Double], _ p: SIMD4<Double>) -> Double {
            let terms = [p.x, p.y, p.z, p.x * p.x, p.y * p.y, p.z * p.z, p.x * p.y, p.y * p.z, p.z * p.x, 1]
            return zip(k, terms).map(*).reduce(0, +)
        }
        expectPerPixel(out, Self.pixels, tolerance: 2e-5) { p in SIMD4(f(kr, p), f(kg, p), f(kb, p), p.w) }
    }

    @Test("GammaAdjust is the power law (mirrored below zero)", arguments: [0.45, 1 / 2.2, 2.2, 3.7])
    func gamma(power: Double) throws {
        let out = try renderFloat(Self.source.gammaAdjust(power: power))
        func f(_ x: Double) -> Double { x < 0 ? -Foundation.pow(-x, power) : Foundation.pow(x, power) }
        expectPerPixel(out, Self.pixels, tolerance: 5e-6) { p in SIMD4(f(p.x), f(p.y), f(p.z), p.w) }
    }

    @Test("HueAdjust by 120° permutes red → green → blue; grays stay, r+g+b and chroma length are kept")
    func hueAdjust() throws {
        let colors: [Float] = [1, 0, 0, 1, 0, 1, 0, 1, 0.3, 0.3, 0.3, 1, 0.8, 0.2, 0.5, 0.5]
        let image = Image(buffer: PixelBuffer(width: 4, height: 1, format: .rgbaFloat, components: colors))
        let out = try renderFloat(image.hueAdjust(angle: 2 * Double.pi / 3))
        let expected: [Float] = [0, 1, 0, 1, 0, 0, 1, 1, 0.3, 0.3, 0.3, 1]
        for i in 0..<12 { #expect(abs(out[i] - expected[i]) < 1e-6, "component \(i): \(out[i])") }

        let angle = 0.7
        let rotated = try renderFloat(Self.source.hueAdjust(angle: angle))
        expectPerPixel(rotated, Self.pixels, tolerance: 1e-5) { p in
            // Rotation about the gray axis: the projection on (1,1,1) stays, the orthogonal part turns by angle.
            let u = SIMD3<Double>(repeating: 1 / 3.0.squareRoot())
            let v = SIMD3(p.x, p.y, p.z)
            let along = (v * u).sum() * u
            let w = v - along
            let cross = SIMD3(u.y * w.z - u.z * w.y, u.z * w.x - u.x * w.z, u.x * w.y - u.y * w.x)
            let r = along + w * Foundation.cos(angle) + cross * Foundation.sin(angle)
            return SIMD4(r.x, r.y, r.z, p.w)
        }
        let back = try renderFloat(Self.source.hueAdjust(angle: angle).hueAdjust(angle: -angle))
        expectPerPixel(back, Self.pixels, tolerance: 1e-5) { $0 }
    }

    @Test("the sRGB tone curves follow IEC 61966-2-1 and invert each other")
    func srgbCurves() throws {
        let encoded = try renderFloat(Self.source.linearToSRGBToneCurve())
        expectPerPixel(encoded, Self.pixels, tolerance: 3e-6) { p in
            SIMD4(srgbEncoded(p.x), srgbEncoded(p.y), srgbEncoded(p.z), p.w)
        }
        let decoded = try renderFloat(Self.source.srgbToneCurveToLinear())
        expectPerPixel(decoded, Self.pixels, tolerance: 3e-6) { p in
            SIMD4(srgbDecoded(p.x), srgbDecoded(p.y), srgbDecoded(p.z), p.w)
        }
        let roundTrip = try renderFloat(Self.source.linearToSRGBToneCurve().srgbToneCurveToLinear())
        expectPerPixel(roundTrip, Self.pixels, tolerance: 3e-6) { $0 }
    }

    @Test("TemperatureAndTint turns the colour of the source light into a neutral of the same luminance")
    func temperatureAndTint() throws {
        let d65 = LuxColor.TemperatureAndTint(chromaticity: WhitePoint.d65)
        let target = SIMD2(d65.temperature, d65.tint)
        for (k, tint) in [(3200.0, 0.0), (4500, 12), (9000, -20)] {
            // The linear-sRGB colour of that light, at luminance 0.5.
            let xyz = LuxColor.TemperatureAndTint(temperature: k, tint: tint).chromaticity.xyz(luminance: 0.5)
            let rgb = (ColorSpace.linearSRGB.matrixToXYZ!.inverse!) * xyz
            let image = Image(
                buffer: PixelBuffer(
                    width: 1, height: 1, format: .rgbaFloat, components: [Float(rgb.x), Float(rgb.y), Float(rgb.z), 1]))
            let out = try renderFloat(image.temperatureAndTint(neutral: [k, tint], targetNeutral: target))
            #expect(abs(out[0] - 0.5) < 2e-4 && abs(out[1] - 0.5) < 2e-4 && abs(out[2] - 0.5) < 2e-4, "\(k) K: \(out)")
        }
        let same = try renderFloat(Self.source.temperatureAndTint(neutral: [5000, 10], targetNeutral: [5000, 10]))
        expectPerPixel(same, Self.pixels, tolerance: 0) { $0 }
        // Warm light corrected to daylight makes a gray picture bluer.
        let gray = Image(color: Color(gray: 0.5, colorSpace: .linearSRGB)).cropped(to: Rect(width: 1, height: 1))
        let cooled = try renderFloat(gray.temperatureAndTint(neutral: [3000, 0], targetNeutral: [6500, 0]))
        #expect(cooled[2] > cooled[0])
    }

    @Test("ToneCurve passes through its points, is monotone and smooth, and is the identity on the diagonal")
    func toneCurve() throws {
        let points = [
            Point(x: 0, y: 0.05), Point(x: 0.2, y: 0.1), Point(x: 0.5, y: 0.6), Point(x: 0.8, y: 0.85),
            Point(x: 1, y: 0.9),
        ]
        let n = 1001
        let ramp = (0..<n).flatMap { i -> [Float] in
            let v = Float(i) / Float(n - 1)
            return [v, v, v, 1]
        }
        let image = Image(buffer: PixelBuffer(width: n, height: 1, format: .rgbaFloat, components: ramp))
        let out = try renderFloat(image.toneCurve(points: points))
        for p in points {
            let i = Int((p.x * Double(n - 1)).rounded())
            #expect(abs(Double(out[4 * i]) - p.y) < 1e-5, "at \(p.x): \(out[4 * i])")
        }
        for i in 1..<n { #expect(out[4 * i] >= out[4 * (i - 1)] - 1e-7, "not monotone at \(i)") }
        // Continuous slope: the finite-difference slope changes little across each interior knot.
        for p in points.dropFirst().dropLast() {
            let i = Int((p.x * Double(n - 1)).rounded())
            let left = out[4 * i] - out[4 * (i - 1)]
            let right = out[4 * (i + 1)] - out[4 * i]
            #expect(abs(left - right) < 2e-4, "slope jump at \(p.x)")
        }
        // Collinear points give the line itself, also beyond the ends.
        let line = [0.0, 0.25, 0.5, 0.75, 1].map { Point(x: $0, y: 0.1 + 0.6 * $0) }
        let linear = try renderFloat(Self.source.toneCurve(points: line))
        expectPerPixel(linear, Self.pixels, tolerance: 1e-5) { p in
            SIMD4(0.1 + 0.6 * p.x, 0.1 + 0.6 * p.y, 0.1 + 0.6 * p.z, p.w)
        }
        #expect(try renderFloat(Self.source.toneCurve(points: Filters.ToneCurve.identityPoints)) == Self.pixels)
    }

    @Test("Vibrance scales chroma by 1 + amount·(1 − saturation)", arguments: [0.8, -0.6])
    func vibrance(amount: Double) throws {
        let out = try renderFloat(Self.source.vibrance(amount: amount))
        expectPerPixel(out, Self.pixels, tolerance: 2e-5) { p in
            let y = luma(p)
            let s = min(max(max(p.x, p.y, p.z) - min(p.x, p.y, p.z), 0), 1)
            let f = 1 + amount * (1 - s)
            return SIMD4(y + (p.x - y) * f, y + (p.y - y) * f, y + (p.z - y) * f, p.w)
        }
    }

    @Test("WhitePointAdjust maps white to the colour and scales every colour alike")
    func whitePoint() throws {
        let color = Color(red: 0.9, green: 0.8, blue: 0.6, colorSpace: .linearSRGB)
        let out = try renderFloat(Self.source.whitePointAdjust(color: color))
        expectPerPixel(out, Self.pixels, tolerance: 1e-6) { p in SIMD4(p.x * 0.9, p.y * 0.8, p.z * 0.6, p.w) }
    }

    @Test("HighlightShadowAdjust: the gain formula per pixel; a local radius on a flat image changes nothing")
    func highlightShadow() throws {
        let image = Image(buffer: Self.unitBuffer)
        let out = try renderFloat(image.highlightShadowAdjust(shadowAmount: 0.6, highlightAmount: 0.5))
        expectPerPixel(out, Self.unitPixels, tolerance: 1e-5) { p in
            let l = min(max(luma(p), 0), 1)
            let g = (1 + 0.6 * (1 - l) * (1 - l)) * (1 - 0.5 * l * l)
            return SIMD4(p.x * g, p.y * g, p.z * g, p.w)
        }
        #expect(try renderFloat(image.highlightShadowAdjust()) == Self.unitPixels)
        let flat = Image(color: Color(red: 0.2, green: 0.3, blue: 0.1)).cropped(to: Rect(width: 30, height: 20))
        let local = try renderFloat(flat.highlightShadowAdjust(radius: 3, shadowAmount: 0.5, highlightAmount: 0.7))
        let global = try renderFloat(flat.highlightShadowAdjust(radius: 0, shadowAmount: 0.5, highlightAmount: 0.7))
        for i in 0..<local.count { #expect(abs(local[i] - global[i]) < 1e-5) }
    }

    @Test("colour adjustments chained by name stay one fused program")
    func fused() throws {
        let chain = try FilterChain(
            parsing:
                "ColorControls saturation=1.2 contrast=1.1 | Vibrance amount=0.3 | HueAdjust angle=0.2 | GammaAdjust power=1.1 | ColorClamp | ToneCurve point2=0.5,0.55 | ExposureAdjust ev=0.3"
        )
        let image = try chain.apply(to: Self.source, registry: .builtIn) { _ in .empty }
        var out = PixelBuffer(width: 37, height: 23, format: .rgbaHalf)
        let stats = try RenderContext().render(image, to: &out, colorSpace: .sRGB)
        #expect(stats.programs == 1)
    }
}
