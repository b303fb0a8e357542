import Foundation
import LuxColor
import LuxFilters
import LuxPixels
import LuxRender
import LuxTestSupport
import Testing

/// A premultiplied image in Double with transparent (or edge-repeating) reads outside, for brute-force oracles.
struct Grid {
    let width: Int
    let height: Int
    var values: [SIMD4<Double>]

    /// The straight RGBA float buffer as premultiplied values.
    init(_ buffer: PixelBuffer) {
        width = buffer.width
        height = buffer.height
        let c = buffer.components(as: Float.self)
        values = (0..<(width * height)).map { p in
            let v = pixel(c, p)
            return SIMD4(v.x * v.w, v.y * v.w, v.z * v.w, v.w)
        }
    }

    subscript(x: Int, y: Int) -> SIMD4<Double> {
        guard x >= 0, y >= 0, x < width, y < height else { return .zero }
        return values[y * width + x]
    }

    func clamped(_ x: Int, _ y: Int) -> SIMD4<Double> {
        values[min(max(y, 0), height - 1) * width + min(max(x, 0), width - 1)]
    }

    /// Bilinear sample at a continuous position (centres at i + 0.5), transparent outside.
    func sample(_ x: Double, _ y: Double) -> SIMD4<Double> {
        let u = x - 0.5
        let v = y - 0.5
        let i = Int(u.rounded(.down))
        let j = Int(v.rounded(.down))
        let a = u - Double(i)
        let b = v - Double(j)
        let top = self[i, j] * (1 - a) + self[i + 1, j] * a
        let bottom = self[i, j + 1] * (1 - a) + self[i + 1, j + 1] * a
        return top * (1 - b) + bottom * b
    }
}

/// Compares a rendered straight-colour float image (of `rect`) with premultiplied expectations.
func expectPremultiplied(
    _ out: [Float], width: Int, rect: (x: Int, y: Int), tolerance: Double, _ comment: String = "",
    sourceLocation: SourceLocation = #_sourceLocation, _ expected: (Int, Int) -> SIMD4<Double>
) {
    var worst = 0.0
    var at = (0, 0)
    for p in 0..<(out.count / 4) {
        let x = rect.x + p % width
        let y = rect.y + p / width
        let o = pixel(out, p)
        let got = SIMD4(o.x * o.w, o.y * o.w, o.z * o.w, o.w)
        let d = got - expected(x, y)
        let m = max(abs(d.x), abs(d.y), abs(d.z), abs(d.w))
        if !(m <= worst) {
            worst = m
            at = (x, y)
        }
    }
    #expect(worst <= tolerance, "max error \(worst) at \(at) \(comment)", sourceLocation: sourceLocation)
}

@Suite struct NeighbourhoodTests {
    static let buffer = randomBuffer(width: 41, height: 29, seed: 101, alpha: true)
    static let grid = Grid(buffer)
    static let source = Image(buffer: buffer)

    /// Renders `image` over its (finite) extent in float without colour management.
    static func render(_ image: Image) throws -> (values: [Float], width: Int, x: Int, y: Int) {
        let e = image.extent.integral
        return (try renderFloat(image, e), Int(e.width), Int(e.minX), Int(e.minY))
    }

    @Test(
        "BoxBlur is the (2r+1)² mean, the extent grows by r, and the blur conserves energy", arguments: [1.0, 3.0, 7.4])
    func boxBlur(radius: Double) throws {
        let r = Int(radius.rounded())
        let out = try Self.render(Self.source.boxBlur(radius: radius))
        #expect(out.width == 41 + 2 * r && out.x == -r)
        expectPremultiplied(out.values, width: out.width, rect: (out.x, out.y), tolerance: 1e-6) { x, y in
            var s = SIMD4<Double>()
            for j in (y - r)...(y + r) { for i in (x - r)...(x + r) { s += Self.grid[i, j] } }
            return s / Double((2 * r + 1) * (2 * r + 1))
        }
        try expectEnergyConserved(Self.source.boxBlur(radius: radius))
    }

    @Test("DiscBlur is the mean over dx² + dy² ≤ r²", arguments: [1.5, 4.0, 6.3])
    func discBlur(radius: Double) throws {
        let out = try Self.render(Self.source.discBlur(radius: radius))
        let big = Int(radius)
        expectPremultiplied(out.values, width: out.width, rect: (out.x, out.y), tolerance: 1e-6) { x, y in
            var s = SIMD4<Double>()
            var n = 0
            for j in -big...big {
                for i in -big...big where Double(i * i + j * j) <= radius * radius {
                    s += Self.grid[x + i, y + j]
                    n += 1
                }
            }
            return s / Double(n)
        }
        try expectEnergyConserved(Self.source.discBlur(radius: radius))
    }

    @Test(
        "MotionBlur averages 2⌈r⌉+1 bilinear samples along the line", arguments: [(5.0, 0.0), (6.5, 0.6), (4.0, 2.2)])
    func motionBlur(radius: Double, angle: Double) throws {
        let out = try Self.render(Self.source.motionBlur(radius: radius, angle: angle))
        let steps = Int(radius.rounded(.up))
        expectPremultiplied(out.values, width: out.width, rect: (out.x, out.y), tolerance: 2e-6) { x, y in
            var s = SIMD4<Double>()
            for k in -steps...steps {
                let t = radius * Double(k) / Double(steps)
                s += Self.grid.sample(
                    Double(x) + 0.5 + t * Foundation.cos(angle), Double(y) + 0.5 - t * Foundation.sin(angle))
            }
            return s / Double(2 * steps + 1)
        }
        try expectEnergyConserved(Self.source.motionBlur(radius: radius, angle: angle))
    }

    @Test("ZoomBlur averages bilinear samples towards the centre; amount 0 is the identity")
    func zoomBlur() throws {
        let c = Point(x: 15.3, y: 11.7)
        let amount = 30.0
        let image = Self.source.zoomBlur(center: c, amount: amount)
        let out = try renderFloat(image, Rect(width: 41, height: 29))
        expectPremultiplied(out, width: 41, rect: (0, 0), tolerance: 2e-6) { x, y in
            let px = Double(x) + 0.5 - c.x
            let py = Double(y) + 0.5 - c.y
            let n = min(max(Int(((px * px + py * py).squareRoot() * 0.3).rounded(.up)) + 1, 2), 128)
            var s = SIMD4<Double>()
            for k in 0..<n {
                let f = 1 - 0.3 * Double(k) / Double(n - 1)
                s += Self.grid.sample(c.x + px * f, c.y + py * f)
            }
            return s / Double(n)
        }
        #expect(try renderFloat(Self.source.zoomBlur(center: c, amount: 0)) == renderFloat(Self.source))
    }

    @Test("MedianFilter is the per-channel median of the 3×3 neighbourhood (edges repeated)")
    func median() throws {
        let out = try renderFloat(Self.source.medianFilter())
        expectPremultiplied(out, width: 41, rect: (0, 0), tolerance: 1e-6) { x, y in
            var m = SIMD4<Double>()
            for c in 0..<4 {
                var v: [Double] = []
                for j in -1...1 { for i in -1...1 { v.append(Self.grid.clamped(x + i, y + j)[c]) } }
                m[c] = v.sorted()[4]
            }
            return m
        }
    }

    @Test(
        "MorphologyRectangleMaximum/Minimum equal brute-force max/min over the rectangle",
        arguments: [(3.0, 3.0), (5.0, 1.0), (9.0, 7.0), (1.0, 11.0)])
    func morphology(width: Double, height: Double) throws {
        let (rx, ry) = (Int(width) / 2, Int(height) / 2)
        for maximum in [true, false] {
            let image =
                maximum
                ? Self.source.morphologyRectangleMaximum(width: width, height: height)
                : Self.source.morphologyRectangleMinimum(width: width, height: height)
            let out = try Self.render(image)
            #expect(out.width == 41 + 2 * rx)
            expectPremultiplied(out.values, width: out.width, rect: (out.x, out.y), tolerance: 1e-6, "max \(maximum)") {
                x, y in
                var m = Self.grid[x, y]
                for j in (y - ry)...(y + ry) {
                    for i in (x - rx)...(x + rx) {
                        m = maximum ? pointwiseMax(m, Self.grid[i, j]) : pointwiseMin(m, Self.grid[i, j])
                    }
                }
                return m
            }
        }
    }

    @Test("Convolution 5×5, 7×7, 9-tap horizontal and vertical equal direct sums plus bias")
    func convolutions() throws {
        var rng = SplitMix(seed: 17)
        func weights(_ n: Int) -> [Double] { (0..<n).map { _ in Double(rng.unit()) - 0.3 } }
        let cases: [(Image, Int, Int, [Double])] = {
            let w5 = weights(25)
            let w7 = weights(49)
            let h9 = weights(9)
            let v9 = weights(9)
            return [
                (Self.source.convolution5X5(weights: w5, bias: 0.05), 5, 5, w5),
                (Self.source.convolution7X7(weights: w7, bias: 0.05), 7, 7, w7),
                (Self.source.convolution9Horizontal(weights: h9, bias: 0.05), 9, 1, h9),
                (Self.source.convolution9Vertical(weights: v9, bias: 0.05), 1, 9, v9),
            ]
        }()
        for (image, kw, kh, w) in cases {
            let out = try Self.render(image)
            #expect(out.x == -(kw / 2) && out.y == -(kh / 2))
            // Compare premultiplied sums (bias added to premultiplied red, green, blue).
            var worst = 0.0
            for p in 0..<(out.values.count / 4) {
                let x = out.x + p % out.width
                let y = out.y + p / out.width
                var s = SIMD4<Double>(0.05, 0.05, 0.05, 0)
                for j in 0..<kh { for i in 0..<kw { s += w[j * kw + i] * Self.grid[x + i - kw / 2, y + j - kh / 2] } }
                let o = pixel(out.values, p)
                let got = SIMD4(o.x * o.w, o.y * o.w, o.z * o.w, o.w)
                let d = got - s
                if o.w > 1e-3 { worst = max(worst, abs(d.x), abs(d.y), abs(d.z), abs(d.w)) }
            }
            #expect(worst < 1e-5, "\(kw)×\(kh): \(worst)")
        }
    }

    @Test("NoiseReduction: noise below the level becomes the 3×3 mean, edges above it stay (sharpness 0)")
    func noiseReduction() throws {
        // Everything is "noise" when the level is huge: the 3×3 mean with edges repeated.
        let mean = try renderFloat(Self.source.noiseReduction(noiseLevel: 1000, sharpness: 0))
        expectPremultiplied(mean, width: 41, rect: (0, 0), tolerance: 1e-6) { x, y in
            var s = SIMD4<Double>()
            for j in -1...1 { for i in -1...1 { s += Self.grid.clamped(x + i, y + j) } }
            return s / 9
        }
        // A step of 0.5 on a flat field with ±0.004 noise: the noise shrinks, the step stays sharp.
        var rng = SplitMix(seed: 23)
        var c: [Float] = []
        for _ in 0..<40 {
            for x in 0..<40 {
                let v: Float = x < 20 ? 0.2 : 0.7
                c += [v + 0.008 * (rng.unit() - 0.5), v, v, 1]
            }
        }
        let noisy = Image(buffer: PixelBuffer(width: 40, height: 40, format: .rgbaFloat, components: c))
        let out = try renderFloat(noisy.noiseReduction(noiseLevel: 0.02, sharpness: 0))
        func deviation(_ v: [Float]) -> Double {
            var s = 0.0
            for y in 2..<38 { for x in 2..<17 { s += abs(Double(v[4 * (y * 40 + x)]) - 0.2) } }
            return s / Double(36 * 15)
        }
        #expect(deviation(out) < deviation(c) / 2, "\(deviation(out)) vs \(deviation(c))")
        for y in 0..<40 {
            #expect(abs(out[4 * (y * 40 + 19) + 1] - 0.2) < 1e-6 && abs(out[4 * (y * 40 + 20) + 1] - 0.7) < 1e-6)
        }
    }

    @Test("MaskedVariableBlur: black mask keeps the image, white blurs by radius, mid-gray by radius/2")
    func maskedVariableBlur() throws {
        let e = Self.source.extent
        func mask(_ v: Double) -> Image { Image(color: Color(gray: v, colorSpace: .linearSRGB)).cropped(to: e) }
        let none = try renderFloat(Self.source.maskedVariableBlur(mask: mask(0), radius: 6))
        let src = try renderFloat(Self.source)
        for i in none.indices { #expect(abs(none[i] - src[i]) < 1e-6) }
        let full = try renderFloat(Self.source.maskedVariableBlur(mask: mask(1), radius: 6))
        let blur = try renderFloat(Self.source.clampedToExtent().gaussianBlur(radius: 6).cropped(to: e))
        for i in full.indices { #expect(abs(full[i] - blur[i]) < 1e-5) }
        let half = try renderFloat(Self.source.maskedVariableBlur(mask: mask(0.5), radius: 6))
        let blur3 = try renderFloat(Self.source.clampedToExtent().gaussianBlur(radius: 3).cropped(to: e))
        for i in half.indices { #expect(abs(half[i] - blur3[i]) < 1e-5) }
    }

    @Test("UnsharpMask keeps alpha within 0…1 across a transparent-to-opaque edge, clearing the undershoot")
    func unsharpTranslucentEdge() throws {
        // Columns 0…7 transparent, 8…15 opaque grey: premultiplied, the transparent side's alpha would become
        // 0 + 2·(0 − blur) < 0 and the opaque side's 1 + 2·(1 − blur) > 1 next to the edge.
        var c = [Float](repeating: 0, count: 4 * 16 * 4)
        for y in 0..<4 { for x in 8..<16 { for ch in 0..<4 { c[4 * (y * 16 + x) + ch] = ch == 3 ? 1 : 0.5 } } }
        let edge = Image(buffer: PixelBuffer(width: 16, height: 4, format: .rgbaFloat, components: c))
        let out = try renderFloat(edge.unsharpMask(radius: 1.5, intensity: 2))
        for y in 0..<4 {
            for x in 0..<16 {
                let p = pixel(out, y * 16 + x)
                if x < 8 {
                    #expect(p == .zero, "(\(x), \(y))")
                } else {
                    #expect(p.w == 1, "(\(x), \(y))")
                }
            }
        }
    }

    @Test("UnsharpMask is c + k·(c − Gaussian(c)); SharpenLuminance adds the same luma detail to every channel")
    func sharpening() throws {
        let e = Self.source.extent
        let out = try renderFloat(Self.source.unsharpMask(radius: 1.5, intensity: 0.7))
        let blur = try renderFloat(Self.source.clampedToExtent().gaussianBlur(radius: 1.5).cropped(to: e))
        let src = try renderFloat(Self.source)
        expectPremultiplied(out, width: 41, rect: (0, 0), tolerance: 1e-5) { x, y in
            let p = y * 41 + x
            let c = pixel(src, p)
            let b = pixel(blur, p)
            let cp = SIMD4(c.x * c.w, c.y * c.w, c.z * c.w, c.w)
            let bp = SIMD4(b.x * b.w, b.y * b.w, b.z * b.w, b.w)
            let e = cp + 0.7 * (cp - bp)
            // Alpha clamps to 0…1; a pixel that would be less than transparent is cleared.
            return e.w <= 0 ? .zero : SIMD4(e.x, e.y, e.z, min(e.w, 1))
        }
        // On an opaque image: out − in is the same on red, green and blue, and equals k·(Y − Y(blur)).
        let opaque = Image(buffer: randomBuffer(width: 30, height: 20, seed: 5))
        let sharp = try renderFloat(opaque.sharpenLuminance(sharpness: 0.8, radius: 2))
        let ob = try renderFloat(opaque.clampedToExtent().gaussianBlur(radius: 2).cropped(to: opaque.extent))
        let os = try renderFloat(opaque)
        var worst = 0.0
        for p in 0..<600 {
            let d = 0.8 * (luma(pixel(os, p)) - luma(pixel(ob, p)))
            for c in 0..<3 { worst = max(worst, abs(Double(sharp[4 * p + c] - os[4 * p + c]) - d)) }
        }
        #expect(worst < 1e-5)
    }
}

/// The sum of premultiplied values over the whole (grown) extent equals the input's: the blur only moves light.
func expectEnergyConserved(
    _ blurred: Image, of source: Image = NeighbourhoodTests.source, sourceLocation: SourceLocation = #_sourceLocation
) throws {
    func total(_ image: Image) throws -> SIMD4<Double> {
        let v = try renderFloat(image, image.extent.integral)
        var s = SIMD4<Double>()
        for p in 0..<(v.count / 4) {
            let o = pixel(v, p)
            s += SIMD4(o.x * o.w, o.y * o.w, o.z * o.w, o.w)
        }
        return s
    }
    let a = try total(blurred)
    let b = try total(source)
    let d = a - b
    #expect(max(abs(d.x), abs(d.y), abs(d.z), abs(d.w)) < 1e-3 * b.w, "\(a) vs \(b)", sourceLocation: sourceLocation)
}
