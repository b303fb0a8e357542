import Foundation
import LuxColor
import LuxFilters
import LuxPixels
import LuxRender
import LuxTestSupport
import Testing

/// Colour effects against their formulas, trilinear interpolation and ImageMagick.
@Suite struct ColorEffectTests {
    static let buffer = randomBuffer(width: 31, height: 19, seed: 91, alpha: true)
    static let source = Image(buffer: buffer)
    static let pixels = buffer.components(as: Float.self)

    @Test("ColorInvert, ColorPosterize, Max/MinimumComponent follow their formulas")
    func pointwise() throws {
        expectPerPixel(try renderFloat(Self.source.colorInvert()), Self.pixels) { p in
            SIMD4(1 - p.x, 1 - p.y, 1 - p.z, p.w)
        }
        expectPerPixel(try renderFloat(Self.source.colorPosterize(levels: 4)), Self.pixels) { p in
            func f(_ x: Double) -> Double { (x * 3).rounded() / 3 }
            return SIMD4(f(p.x), f(p.y), f(p.z), p.w)
        }
        expectPerPixel(try renderFloat(Self.source.maximumComponent()), Self.pixels) { p in
            let m = max(p.x, p.y, p.z)
            return SIMD4(m, m, m, p.w)
        }
        expectPerPixel(try renderFloat(Self.source.minimumComponent()), Self.pixels) { p in
            let m = min(p.x, p.y, p.z)
            return SIMD4(m, m, m, p.w)
        }
    }

    @Test("ColorMonochrome, FalseColor and MaskToAlpha follow their formulas")
    func lumaBased() throws {
        let tint = Color(red: 0.6, green: 0.45, blue: 0.3)
        expectPerPixel(try renderFloat(Self.source.colorMonochrome(color: tint, intensity: 0.7)), Self.pixels) { p in
            let y = luma(p)
            let t = SIMD3(0.6, 0.45, 0.3) * y * 0.7 + SIMD3(p.x, p.y, p.z) * 0.3
            return SIMD4(t.x, t.y, t.z, p.w)
        }
        let c0 = Color(red: 0.3, green: 0, blue: 0.1)
        let c1 = Color(red: 1, green: 0.9, blue: 0.8)
        expectPerPixel(try renderFloat(Self.source.falseColor(color0: c0, color1: c1)), Self.pixels) { p in
            let y = min(max(luma(p), 0), 1)
            return SIMD4(0.3 + 0.7 * y, 0.9 * y, 0.1 + 0.7 * y, p.w)
        }
        expectPerPixel(try renderFloat(Self.source.maskToAlpha()), Self.pixels) { p in
            SIMD4(1, 1, 1, p.w * min(max(luma(p), 0), 1))
        }
    }

    @Test("XRay and Thermal map luma through their ramps")
    func ramps() throws {
        expectPerPixel(try renderFloat(Self.source.xRay()), Self.pixels, tolerance: 2e-5) { p in
            let k = 1 - min(max(luma(p), 0), 1)
            return SIMD4(0.85 * k, 0.95 * k, k, p.w)
        }
        let grays: [Float] = [0, 0.6, 1].flatMap { [$0, $0, $0, 1] }
        let image = Image(buffer: PixelBuffer(width: 3, height: 1, format: .rgbaFloat, components: grays))
        let out = try renderFloat(image.thermal())
        let expected: [Float] = [0, 0, 0, 1, 0.95, 0.1, 0.1, 1, 1, 1, 1, 1]
        for i in 0..<12 { #expect(abs(out[i] - expected[i]) < 1e-3, "\(i): \(out[i])") }
    }

    @Test("ColorMap picks the gradient colour at the pixel's luma")
    func colorMap() throws {
        // Five gradient pixels: luma 0 → first centre, 1 → last centre.
        let g: [Float] = [0, 0, 0, 1, 1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1, 1, 1, 1, 1]
        let gradient = Image(buffer: PixelBuffer(width: 5, height: 1, format: .rgbaFloat, components: g))
        let grays: [Float] = [0, 0.25, 0.375, 1].flatMap { [$0, $0, $0, 1] }
        let image = Image(buffer: PixelBuffer(width: 4, height: 1, format: .rgbaFloat, components: grays))
        let out = try renderFloat(image.colorMap(gradient: gradient))
        let expected: [Float] = [0, 0, 0, 1, 1, 0, 0, 1, 0.5, 0.5, 0, 1, 1, 1, 1, 1]
        for i in 0..<16 { #expect(abs(out[i] - expected[i]) < 1e-5, "\(i): \(out[i])") }
    }

    @Test("ColorCube equals trilinear interpolation of a random table; the identity table changes nothing")
    func colorCube() throws {
        let d = 5
        var rng = SplitMix(seed: 7)
        let values = (0..<(4 * d * d * d)).map { i in i % 4 == 3 ? 1 : Double(rng.unit()) }
        let table = try ColorCubeTable(dimension: d, values: values)
        let out = try renderFloat(Self.source.colorCube(table))
        func entry(_ i: Int, _ j: Int, _ k: Int) -> SIMD4<Double> {
            let o = 4 * (i + d * (j + d * k))
            return SIMD4(values[o], values[o + 1], values[o + 2], values[o + 3])
        }
        expectPerPixel(out, Self.pixels, tolerance: 2e-5) { p in
            let x = p.x * Double(d - 1)
            let y = p.y * Double(d - 1)
            let z = p.z * Double(d - 1)
            let (i, j, k) = (min(Int(x), d - 2), min(Int(y), d - 2), min(Int(z), d - 2))
            let (u, v, w) = (x - Double(i), y - Double(j), z - Double(k))
            var acc = SIMD4<Double>()
            for c in 0..<8 {
                let (a, b, e) = (c & 1, (c >> 1) & 1, (c >> 2) & 1)
                let weight = (a == 1 ? u : 1 - u) * (b == 1 ? v : 1 - v) * (e == 1 ? w : 1 - w)
                acc += weight * entry(i + a, j + b, k + e)
            }
            return SIMD4(acc.x, acc.y, acc.z, p.w * acc.w)
        }
        let identity = try renderFloat(Self.source.colorCube(ColorCubeTable.identity(dimension: 17)))
        expectPerPixel(identity, Self.pixels, tolerance: 1e-6) { $0 }
        #expect(throws: FilterError.self) {
            try Self.source.applyingFilter("ColorCube", parameters: ["cubeDimension": 3, "cubeData": [1, 2, 3]])
        }
    }

    @Test("ColorCubeWithColorSpace looks up encoded values: an inverting sRGB table equals ColorInvert")
    func colorCubeWithSpace() throws {
        let d = 2
        var v: [Double] = []
        for b in 0..<d { for g in 0..<d { for r in 0..<d { v += [1 - Double(r), 1 - Double(g), 1 - Double(b), 1] } } }
        let table = try ColorCubeTable(dimension: d, values: v)
        let image = Image(buffer: randomBuffer(width: 20, height: 10, seed: 3, colorSpace: .sRGB))
        let context = RenderContext(options: RenderOptions(workingFormat: .rgbaFloat))
        let a = try renderFloat(image.colorCube(table, colorSpace: .sRGB), context: context)
        let b = try renderFloat(image.colorInvert(), context: context)
        for i in a.indices { #expect(abs(a[i] - b[i]) < 1e-4) }
    }

    @Test("photo effects apply their published look (saturation, tint, S-curve, levels); mono looks are gray")
    func photoEffects() throws {
        func check<S: PhotoEffectStyle>(_ style: S.Type) throws {
            let out = try renderFloat(Self.source.photoEffect(style))
            let l = S.look
            expectPerPixel(out, Self.pixels, tolerance: 2e-5, S.name) { p in
                let y = luma(p)
                let c = SIMD3(p.x, p.y, p.z)
                let t = SIMD3(Double(l.tint.x), Double(l.tint.y), Double(l.tint.z))
                let c1 = (SIMD3(repeating: y) + (c - y) * Double(l.saturation)) * t
                let x = c1.clamped(lowerBound: .zero, upperBound: .one)
                let c2 = c1 - Double(l.contrast) * x * (1 - x) * (1 - 2 * x)
                let c3 = Double(l.black) + Double(l.white - l.black) * c2
                return SIMD4(c3.x, c3.y, c3.z, p.w)
            }
            if l.saturation == 0 {
                for p in 0..<(out.count / 4) {
                    #expect(out[4 * p] == out[4 * p + 1] && out[4 * p + 1] == out[4 * p + 2])
                }
            }
        }
        try check(PhotoEffectStyles.Chrome.self)
        try check(PhotoEffectStyles.Fade.self)
        try check(PhotoEffectStyles.Instant.self)
        try check(PhotoEffectStyles.Mono.self)
        try check(PhotoEffectStyles.Noir.self)
        try check(PhotoEffectStyles.Process.self)
        try check(PhotoEffectStyles.Tonal.self)
        try check(PhotoEffectStyles.Transfer.self)
    }

    @Test("Vignette and VignetteEffect scale colour by their falloff functions")
    func vignettes() throws {
        let w = 31.0
        let h = 19.0
        let half = (w * w + h * h).squareRoot() / 2
        let out = try renderFloat(Self.source.vignette(intensity: 0.8, radius: 0.9))
        let eff = try renderFloat(
            Self.source.vignetteEffect(center: Point(x: 12, y: 8), radius: 7, intensity: 0.9, falloff: 0.4))
        var worst = 0.0
        for y in 0..<19 {
            for x in 0..<31 {
                let p = pixel(Self.pixels, y * 31 + x)
                let dx = Double(x) + 0.5 - w / 2
                let dy = Double(y) + 0.5 - h / 2
                let d = (dx * dx + dy * dy).squareRoot() / half
                let f = 1 - 0.8 * min(d * d / 0.81, 1)
                let o = pixel(out, y * 31 + x)
                worst = max(worst, abs(o.x - p.x * f), abs(o.y - p.y * f), abs(o.z - p.z * f))
                let e =
                    ((Double(x) + 0.5 - 12) * (Double(x) + 0.5 - 12) + (Double(y) + 0.5 - 8) * (Double(y) + 0.5 - 8))
                    .squareRoot()
                let t = min(max((e - 4.2) / (9.8 - 4.2), 0), 1)
                let g = 1 - 0.9 * t * t * (3 - 2 * t)
                let q = pixel(eff, y * 31 + x)
                worst = max(worst, abs(q.x - p.x * g), abs(q.z - p.z * g))
            }
        }
        #expect(worst < 1e-5, "\(worst)")
    }
}

/// Per-pixel filters against ImageMagick on a real photo (8-bit sRGB): IM works on the encoded values, Lux in
/// its default linear working space with its perceptual filters on encoded values.
@Suite(.enabled(if: ExternalTool.isAvailable("convert") && TestPhoto.toolsAvailable, "needs ImageMagick and djpeg"))
struct ImageMagickColorTests {
    static func photo() throws -> PixelBuffer { try TestPhoto.crop(width: 240, height: 160) }

    @Test("ColorInvert equals convert -negate within 1 level")
    func invert() throws {
        let p = try Self.photo()
        let d = try levelDifference(Image(buffer: p).colorInvert(), imageMagick(p, ["-negate"]))
        #expect(d.max <= 1, "\(d)")
    }

    @Test("ColorPosterize equals convert -posterize within 1 level")
    func posterize() throws {
        let p = try Self.photo()
        let d = try levelDifference(Image(buffer: p).colorPosterize(levels: 5), imageMagick(p, ["-posterize", "5"]))
        print("posterize vs ImageMagick: \(d)")
        // ImageMagick truncates the steps (63.75 → 63), so most pixels differ by one level.
        #expect(d.max <= 1 && d.mean < 0.5, "\(d)")
    }

    @Test("ColorMatrix (no colour management) equals convert -color-matrix within 1 level")
    func colorMatrix() throws {
        let p = try Self.photo()
        let m: [Double] = [0.8, 0.3, -0.1, 0.1, 0.7, 0.2, -0.05, 0.15, 0.9]
        let image = Image(buffer: p).colorMatrix(
            red: [m[0], m[1], m[2], 0], green: [m[3], m[4], m[5], 0], blue: [m[6], m[7], m[8], 0])
        let context = RenderContext(options: RenderOptions(workingColorSpace: nil, workingFormat: .rgbaFloat))
        let im = try imageMagick(p, ["-color-matrix", m.map { "\($0)" }.joined(separator: " ")])
        let d = try levelDifference(image, im, context: context)
        #expect(d.max <= 1, "\(d)")
    }
}
