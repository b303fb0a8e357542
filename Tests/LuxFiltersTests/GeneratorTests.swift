import Foundation
import LuxColor
import LuxFilters
import LuxPixels
import LuxRender
import Testing

@Suite struct GeneratorTests {
    static let white = SIMD4<Float>(1, 1, 1, 1)
    static let black = SIMD4<Float>(0, 0, 0, 1)

    static func px(_ v: [Float], _ w: Int, _ x: Int, _ y: Int) -> SIMD4<Float> {
        let o = 4 * (y * w + x)
        return SIMD4(v[o], v[o + 1], v[o + 2], v[o + 3])
    }

    @Test("generators have infinite extent (the colour wheel its disc's box)")
    func extents() {
        for name in [
            "CheckerboardGenerator", "ConstantColorGenerator", "LinearGradient", "RadialGradient", "GaussianGradient",
            "SmoothLinearGradient", "StripesGenerator", "RandomGenerator",
        ] {
            #expect((try? FilterRegistry.builtIn.apply(name, to: nil))?.extent.isInfinite == true, "\(name)")
        }
        #expect(Image.hueSaturationValueGradient(radius: 50).extent == Rect(width: 100, height: 100))
    }

    @Test("Checkerboard and Stripes alternate colours by cell parity; soft edges blend 50/50 at the boundary")
    func patterns() throws {
        let board = try renderFloat(
            Image.checkerboard(center: Point(x: 10, y: 10), width: 8), Rect(width: 40, height: 40))
        for y in 0..<40 {
            for x in 0..<40 {
                let cx = Int((Double(x) + 0.5 - 10) / 8 + 100) - 100
                let cy = Int((Double(y) + 0.5 - 10) / 8 + 100) - 100
                let expected = (cx + cy) % 2 == 0 ? Self.white : Self.black
                #expect(Self.px(board, 40, x, y) == expected, "(\(x), \(y))")
            }
        }
        let stripes = try renderFloat(Image.stripes(center: Point(x: 3, y: 0), width: 5), Rect(width: 30, height: 2))
        for x in 0..<30 {
            let k = Int((Double(x) + 0.5 - 3) / 5 + 100) - 100
            #expect(Self.px(stripes, 30, x, 1) == (k % 2 == 0 ? Self.white : Self.black), "x \(x)")
        }
        // Soft stripes: the pixel straddling an edge is half way, the middle of a stripe is pure.
        let soft = try renderFloat(
            Image.stripes(center: Point(x: 0.5, y: 0), width: 10, sharpness: 0.5), Rect(width: 30, height: 1))
        #expect(abs(soft[4 * 0] - 0.5) < 1e-5)
        #expect(soft[4 * 5] == 1 && soft[4 * 15] == 0)
    }

    @Test("Linear, smooth linear and Gaussian gradients follow their formulas")
    func gradients() throws {
        let p0 = Point(x: 5, y: 3)
        let p1 = Point(x: 45, y: 23)
        let lin = try renderFloat(Image.linearGradient(from: p0, .white, to: p1, .black), Rect(width: 50, height: 30))
        let smooth = try renderFloat(
            Image.smoothLinearGradient(from: p0, .white, to: p1, .black), Rect(width: 50, height: 30))
        let gauss = try renderFloat(
            Image.gaussianGradient(center: Point(x: 25, y: 15), radius: 30, color0: .white, color1: .black),
            Rect(width: 50, height: 30))
        var worst = 0.0
        for y in 0..<30 {
            for x in 0..<50 {
                let (px, py) = (Double(x) + 0.5, Double(y) + 0.5)
                let t = min(max(((px - 5) * 40 + (py - 3) * 20) / (40 * 40 + 20 * 20), 0), 1)
                let s = t * t * (3 - 2 * t)
                let d2 = (px - 25) * (px - 25) + (py - 15) * (py - 15)
                let g = Foundation.exp(-d2 / (2 * 100))
                worst = max(
                    worst, abs(Double(lin[4 * (y * 50 + x)]) - (1 - t)),
                    abs(Double(smooth[4 * (y * 50 + x)]) - (1 - s)),
                    abs(Double(gauss[4 * (y * 50 + x)]) - g))
            }
        }
        #expect(worst < 1e-5, "\(worst)")
    }

    @Test("ConstantColorGenerator renders its colour")
    func constant() throws {
        let c = Color(red: 0.2, green: 0.5, blue: 0.9, alpha: 0.8)
        let out = try RenderContext().createBuffer(
            Filters.ConstantColorGenerator(color: c).outputImage, from: Rect(width: 4, height: 4), format: .rgbaFloat,
            colorSpace: .sRGB
        ).components(as: Float.self)
        #expect(
            abs(out[0] - 0.2) < 2e-3 && abs(out[1] - 0.5) < 2e-3 && abs(out[2] - 0.9) < 2e-3 && abs(out[3] - 0.8) < 1e-3
        )
    }

    @Test("RandomGenerator: uniform, independent channels and neighbours, the same pixel always the same value")
    func random() throws {
        let n = 256
        let v = try renderFloat(Image.random(), Rect(x: -100, y: 50, width: n, height: n))
        // Straight values come back unchanged (alpha too).
        var mean = SIMD4<Double>()
        var sq = SIMD4<Double>()
        var crossRG = 0.0
        var neighbour = 0.0
        for p in 0..<(n * n) {
            let s = pixel(v, p)
            mean += s
            sq += s * s
            crossRG += (s.x - 0.5) * (s.y - 0.5)
            if p % n != n - 1 { neighbour += (s.x - 0.5) * (Double(v[4 * (p + 1)]) - 0.5) }
        }
        let count = Double(n * n)
        mean /= count
        let variance = sq / count - mean * mean
        for c in 0..<4 {
            #expect(abs(mean[c] - 0.5) < 0.01, "mean \(mean)")
            #expect(abs(variance[c] - 1.0 / 12) < 0.003, "variance \(variance)")
        }
        #expect(abs(crossRG / count) < 0.002 && abs(neighbour / count) < 0.002)
        let again = try renderFloat(Image.random(), Rect(x: -90, y: 60, width: 5, height: 5))
        #expect(Array(again[0..<4]) == Array(v[(4 * (10 * n + 10))..<(4 * (10 * n + 10) + 4)]))
    }

    @Test("HueSaturationValueGradient: hue by angle, saturation by distance (the textbook HSV sectors)")
    func colourWheel() throws {
        let r = 40.0
        let wheel = try renderFloat(Image.hueSaturationValueGradient(value: 0.9, radius: r, dither: 0))
        // Textbook HSV → RGB with sector i = ⌊h/60°⌋ and f, p, q, t.
        func hsv(_ hDeg: Double, _ s: Double, _ v: Double) -> SIMD3<Double> {
            let h = (hDeg.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360) / 60
            let i = Int(h)
            let f = h - Double(i)
            let p = v * (1 - s)
            let q = v * (1 - s * f)
            let t = v * (1 - s * (1 - f))
            switch i {
            case 0: return SIMD3(v, t, p)
            case 1: return SIMD3(q, v, p)
            case 2: return SIMD3(p, v, t)
            case 3: return SIMD3(p, q, v)
            case 4: return SIMD3(t, p, v)
            default: return SIMD3(v, p, q)
            }
        }
        var worst = 0.0
        for y in stride(from: 1, to: 80, by: 3) {
            for x in stride(from: 1, to: 80, by: 3) {
                let dx = Double(x) + 0.5 - r
                let dy = r - (Double(y) + 0.5)
                let d = (dx * dx + dy * dy).squareRoot()
                guard d < r - 1 else { continue }
                let e = hsv(Foundation.atan2(dy, dx) * 180 / Double.pi, d / r, 0.9)
                let o = pixel(wheel, y * 80 + x)
                worst = max(worst, abs(o.x - e.x), abs(o.y - e.y), abs(o.z - e.z))
                #expect(o.w == 1)
            }
        }
        #expect(worst < 1e-4, "\(worst)")
        #expect(wheel[3] == 0)  // the corner is outside the disc
    }
}
