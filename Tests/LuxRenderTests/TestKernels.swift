import LuxColor
import LuxPixels
import LuxRender
import LuxTestSupport

/// Small kernels written in the tests (independent of LuxFilters).
enum TestKernels {
    /// Multiplies colour by 2^ev.
    static func exposure(_ ev: Float) -> ColorKernel {
        let k = Float.pow2(ev)
        return ColorKernel(name: "exposure", alphaHandling: .unpremultiplied, preservesAlpha: true) { row in
            let p = row.pixels
            for i in 0..<row.count {
                p.red[i] *= k
                p.green[i] *= k
                p.blue[i] *= k
            }
        }
    }

    /// A 3×3 colour matrix.
    static func matrix(_ m: [Float]) -> ColorKernel {
        let (m0, m1, m2, m3, m4, m5, m6, m7, m8) = (m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8])
        return ColorKernel(name: "matrix", alphaHandling: .unpremultiplied, preservesAlpha: true) { row in
            let p = row.pixels
            for i in 0..<row.count {
                let r = p.red[i]
                let g = p.green[i]
                let b = p.blue[i]
                p.red[i] = m0 * r + m1 * g + m2 * b
                p.green[i] = m3 * r + m4 * g + m5 * b
                p.blue[i] = m6 * r + m7 * g + m8 * b
            }
        }
    }

    /// `x / (1 + |x|)` tone curve.
    static let tone = ColorKernel(name: "tone", alphaHandling: .unpremultiplied, preservesAlpha: true) { row in
        let p = row.pixels
        for i in 0..<row.count {
            p.red[i] = p.red[i] / (1 + abs(p.red[i]))
            p.green[i] = p.green[i] / (1 + abs(p.green[i]))
            p.blue[i] = p.blue[i] / (1 + abs(p.blue[i]))
        }
    }

    /// `1 − x`.
    static let invert = ColorKernel(name: "invert", alphaHandling: .unpremultiplied, preservesAlpha: true) { row in
        let p = row.pixels
        for i in 0..<row.count {
            p.red[i] = 1 - p.red[i]
            p.green[i] = 1 - p.green[i]
            p.blue[i] = 1 - p.blue[i]
        }
    }

    /// `x + c`.
    static func offset(_ c: Float) -> ColorKernel {
        ColorKernel(name: "offset", alphaHandling: .unpremultiplied, preservesAlpha: true) { row in
            let p = row.pixels
            for i in 0..<row.count {
                p.red[i] += c
                p.green[i] += c
                p.blue[i] += c
            }
        }
    }

    /// A position-dependent generator: red = x / 100, green = y / 100, blue 0.5, alpha 1.
    static let ramp = ColorKernel(name: "ramp", inputCount: 0) { row in
        let p = row.pixels
        let g = (Float(row.y) + 0.5) / 100
        for i in 0..<row.count {
            p.red[i] = (Float(row.x + i) + 0.5) / 100
            p.green[i] = g
            p.blue[i] = 0.5
            p.alpha[i] = 1
        }
    }

    /// A (2r+1)² box blur that reads through row pointers.
    static func boxBlur(radius r: Int) -> GeneralKernel {
        let norm = 1 / Float((2 * r + 1) * (2 * r + 1))
        return GeneralKernel(name: "box") { row in
            let s = row.sampler(0)
            let out = row.output
            for c in 0..<(4 * row.count) { out[c] = 0 }
            for dy in -r...r {
                let src = s.row(row.y + dy) + 4 * (row.x - r - s.minX)
                for dx in 0...(2 * r) {
                    let p = src + 4 * dx
                    for c in 0..<(4 * row.count) { out[c] += p[c] }
                }
            }
            for c in 0..<(4 * row.count) { out[c] *= norm }
        }
    }

    static func blurred(_ image: Image, radius r: Int) -> Image {
        let d = Double(r)
        return boxBlur(radius: r).apply(
            extent: image.extent.insetBy(dx: -d, dy: -d), inputs: [image], arguments: "r=\(r)"
        ) { _, rect in rect.insetBy(dx: -d, dy: -d) }
    }
}

extension Float {
    static func pow2(_ e: Float) -> Float {
        var r: Float = 1
        var x = e
        while x >= 1 {
            r *= 2
            x -= 1
        }
        while x <= -1 {
            r /= 2
            x += 1
        }
        // e is an integer in the tests; keep the helper exact for those.
        return r
    }
}

/// Random test images.
enum TestImages {
    static func random(
        width: Int, height: Int, format: PixelFormat, colorSpace: ColorSpace?, seed: UInt64,
        range: ClosedRange<Float> = 0...1, randomAlpha: Bool = false
    ) -> PixelBuffer {
        var rng = SplitMix(seed: seed)
        var b = PixelBuffer(width: width, height: height, format: .rgbaFloat, colorSpace: colorSpace)
        var comps: [Float] = []
        comps.reserveCapacity(4 * width * height)
        for _ in 0..<(width * height) {
            for _ in 0..<3 { comps.append(range.lowerBound + (range.upperBound - range.lowerBound) * rng.unit()) }
            comps.append(randomAlpha ? 0.25 + 0.75 * rng.unit() : 1)
        }
        b = PixelBuffer(width: width, height: height, format: .rgbaFloat, components: comps, colorSpace: colorSpace)
        return b.converted(to: format)
    }
}
