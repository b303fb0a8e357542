import LuxRender

/// A colour ramp indexed by luma: piecewise-linear between stops, tabulated once per filter.
struct Palette: Sendable {
    /// Entries per unit of luma.
    static let steps = 1024
    /// `steps + 1` RGB triples over luma 0…1.
    let table: [Float]

    /// A ramp through `stops` (luma, sRGB-encoded colour), sorted by luma.
    init(_ stops: [(Float, SIMD3<Float>)]) {
        var t = [Float](repeating: 0, count: 3 * (Self.steps + 1))
        for k in 0...Self.steps {
            let y = Float(k) / Float(Self.steps)
            var j = 0
            while j + 2 < stops.count && y > stops[j + 1].0 { j += 1 }
            let (y0, c0) = stops[j]
            let (y1, c1) = stops[j + 1]
            let u = clampFloat((y - y0) / max(y1 - y0, 1e-6), 0, 1)
            let c = c0 + (c1 - c0) * u
            t[3 * k] = c.x
            t[3 * k + 1] = c.y
            t[3 * k + 2] = c.z
        }
        table = t
    }

    /// The ramp's colour at luma `y` (for tests and documentation).
    func color(at y: Float) -> SIMD3<Float> {
        let x = clampFloat(y, 0, 1) * Float(Self.steps)
        let k = min(Int(x), Self.steps - 1)
        let u = x - Float(k)
        let a = SIMD3(table[3 * k], table[3 * k + 1], table[3 * k + 2])
        let b = SIMD3(table[3 * k + 3], table[3 * k + 4], table[3 * k + 5])
        return a + (b - a) * u
    }

    /// `image` with each pixel's colour replaced by the ramp at its luma, all on sRGB-encoded values.
    func apply(to image: Image, name: String) -> Image {
        let table = self.table
        let n = Self.steps
        let kernel = ColorKernel(name: name, alphaHandling: .unpremultiplied, preservesAlpha: true) { row in
            let p = row.pixels
            let rr = p.red
            let gg = p.green
            let bb = p.blue
            table.withUnsafeBufferPointer { t in
                guard let tb = t.baseAddress else { return }
                for i in 0..<row.count {
                    let y = clampFloat(Luma.red * rr[i] + Luma.green * gg[i] + Luma.blue * bb[i], 0, 1)
                    let x = y * Float(n)
                    let k = min(Int(x), n - 1)
                    let u = x - Float(k)
                    let o = 3 * k
                    rr[i] = tb[o] + (tb[o + 3] - tb[o]) * u
                    gg[i] = tb[o + 1] + (tb[o + 4] - tb[o + 1]) * u
                    bb[i] = tb[o + 2] + (tb[o + 5] - tb[o + 2]) * u
                }
            }
        }
        return image.inPerceptualSpace { $0.applying(kernel) }
    }
}
