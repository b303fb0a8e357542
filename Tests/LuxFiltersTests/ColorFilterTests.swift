import LuxColor
import LuxFilters
import LuxPixels
import LuxRender
import Testing

@Suite struct ColorFilterTests {
    static let buffer = randomBuffer(width: 40, height: 30, seed: 41, alpha: true)
    static let source = Image(buffer: buffer)
    static let pixels = buffer.components(as: Float.self)

    @Test(
        "ColorMatrix is the matrix–vector product plus bias (alpha kept, and alpha changed)",
        arguments: [SIMD4<Double>(0, 0, 0, 1), SIMD4<Double>(0.1, 0, 0, 0.5)])
    func colorMatrix(a: SIMD4<Double>) throws {
        let r: SIMD4<Double> = [0.5, 0.2, 0.1, 0]
        let g: SIMD4<Double> = [0, 1.1, 0, 0]
        let b: SIMD4<Double> = [0.3, 0, 0.6, 0.1]
        let bias: SIMD4<Double> = [0.01, -0.02, 0.03, 0]
        let out = try renderFloat(Self.source.colorMatrix(red: r, green: g, blue: b, alpha: a, bias: bias))
        expectPerPixel(out, Self.pixels) { p in
            SIMD4((r * p).sum() + bias.x, (g * p).sum() + bias.y, (b * p).sum() + bias.z, (a * p).sum() + bias.w)
        }
    }

    @Test("ExposureAdjust multiplies colour by 2^ev", arguments: [-1.5, 0.5, 2.0])
    func exposure(ev: Double) throws {
        let out = try renderFloat(Self.source.exposureAdjust(ev: ev))
        let k = powerOfTwo(ev)
        expectPerPixel(out, Self.pixels) { p in SIMD4(p.x * k, p.y * k, p.z * k, p.w) }
    }

    @Test("SepiaTone mixes the sepia matrix with the original by intensity", arguments: [0.0, 0.3, 1.0])
    func sepia(intensity t: Double) throws {
        let out = try renderFloat(Self.source.sepiaTone(intensity: t))
        let m: [Double] = [0.393, 0.769, 0.189, 0.349, 0.686, 0.168, 0.272, 0.534, 0.131]
        expectPerPixel(out, Self.pixels) { p in
            let s = SIMD3(
                m[0] * p.x + m[1] * p.y + m[2] * p.z, m[3] * p.x + m[4] * p.y + m[5] * p.z,
                m[6] * p.x + m[7] * p.y + m[8] * p.z)
            let o = SIMD3(p.x, p.y, p.z) * (1 - t) + s * t
            return SIMD4(o.x, o.y, o.z, p.w)
        }
    }

    @Test("SourceOver follows Porter–Duff on premultiplied colour")
    func sourceOver() throws {
        let bgBuffer = randomBuffer(width: 40, height: 30, seed: 42, alpha: true)
        let bg = bgBuffer.components(as: Float.self)
        let out = try renderFloat(Self.source.sourceOverCompositing(background: Image(buffer: bgBuffer)))
        var worst: Float = 0
        for p in 0..<(40 * 30) {
            let sa = Self.pixels[4 * p + 3]
            let da = bg[4 * p + 3]
            let a = sa + da * (1 - sa)
            for c in 0..<3 {
                let e = (Self.pixels[4 * p + c] * sa + bg[4 * p + c] * da * (1 - sa)) / a
                worst = max(worst, abs(out[4 * p + c] - e))
            }
            worst = max(worst, abs(out[4 * p + 3] - a))
        }
        #expect(worst < 1e-5)
    }

    @Test("RadialGradient follows its definition, with infinite extent")
    func radialGradient() throws {
        let g = Image.radialGradient(center: Point(x: 10, y: 8), radius0: 2, radius1: 9, color0: .white, color1: .black)
        #expect(g.extent.isInfinite)
        let out = try renderFloat(g, Rect(x: 0, y: 0, width: 20, height: 16))
        for y in 0..<16 {
            for x in 0..<20 {
                let d =
                    ((Double(x) + 0.5 - 10) * (Double(x) + 0.5 - 10) + (Double(y) + 0.5 - 8) * (Double(y) + 0.5 - 8))
                    .squareRoot()
                let t = min(max((d - 2) / 7, 0), 1)
                #expect(abs(Double(out[4 * (y * 20 + x)]) - (1 - t)) < 1e-5)
            }
        }
    }

    @Test("a fused chain of the built-in colour filters stays one program")
    func fusedBuiltIns() throws {
        let chain = Self.source.exposureAdjust(ev: 0.5).sepiaTone(intensity: 0.7)
            .colorMatrix(red: [0.9, 0.1, 0, 0], green: [0, 1, 0, 0], blue: [0, 0.1, 0.9, 0], bias: [0.01, 0, 0, 0])
            .exposureAdjust(ev: -0.25).sepiaTone(intensity: 0.2)
        var out = PixelBuffer(width: 40, height: 30, format: .rgbaHalf)
        let stats = try RenderContext().render(chain, to: &out, colorSpace: .extendedLinearSRGB)
        #expect(stats.programs == 1)
    }
}

/// 2 to the power `e`, by halving and doubling and the exponential series: an oracle independent of `pow`.
func powerOfTwo(_ e: Double) -> Double {
    var r = 1.0
    var x = e
    while x >= 1 {
        r *= 2
        x -= 1
    }
    while x < 0 {
        r /= 2
        x += 1
    }
    // Remaining fraction via the series of exp(x ln 2) (x in [0, 1)).
    var term = 1.0
    var sum = 1.0
    for n in 1..<30 {
        term *= x * 0.6931471805599453 / Double(n)
        sum += term
    }
    return r * sum
}
