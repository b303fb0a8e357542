public import LuxPixels

/// Contrast focus measures on Bayer data (ALGORITHMS.md §6.1).
public enum FocusMeasure {
    /// Tenengrad: the mean squared Sobel gradient of the green channel (one value per 2×2 quad, lightly
    /// smoothed with a [1 2 1] kernel so noise does not dominate), divided by the squared mean level so that
    /// exposure changes do not move the peak.
    public static func tenengrad(raw: PixelBuffer, blackLevel: Int) -> Double {
        guard let pattern = raw.format.cfaPattern, raw.width >= 12, raw.height >= 12 else { return 0 }
        let q = pattern.quadChannels
        let greens = (0..<4).filter { q[$0] == .green }
        let w = raw.width / 2
        let h = raw.height / 2
        var g = [Float](repeating: 0, count: w * h)
        let black = Float(blackLevel)
        raw.withUnsafePlane { plane in
            for y in 0..<h {
                let r0 = plane.row(2 * y, as: UInt16.self)
                let r1 = plane.row(2 * y + 1, as: UInt16.self)
                for x in 0..<w {
                    var s: Float = 0
                    for k in greens { s += Float((k < 2 ? r0 : r1)[2 * x + (k & 1)]) - black }
                    g[y * w + x] = s / Float(greens.count)
                }
            }
        }
        // [1 2 1]/4 smoothing, horizontal then vertical.
        var s = g
        for y in 0..<h {
            for x in 1..<(w - 1) { s[y * w + x] = 0.25 * (g[y * w + x - 1] + 2 * g[y * w + x] + g[y * w + x + 1]) }
        }
        var t = s
        for y in 1..<(h - 1) {
            for x in 0..<w { t[y * w + x] = 0.25 * (s[(y - 1) * w + x] + 2 * s[y * w + x] + s[(y + 1) * w + x]) }
        }
        var sum = 0.0
        var mean = 0.0
        for y in 2..<(h - 2) {
            for x in 2..<(w - 2) {
                let i = y * w + x
                let gx = (t[i - w + 1] + 2 * t[i + 1] + t[i + w + 1]) - (t[i - w - 1] + 2 * t[i - 1] + t[i + w - 1])
                let gy = (t[i + w - 1] + 2 * t[i + w] + t[i + w + 1]) - (t[i - w - 1] + 2 * t[i - w] + t[i - w + 1])
                sum += Double(gx * gx + gy * gy)
                mean += Double(t[i])
            }
        }
        let n = Double((w - 4) * (h - 4))
        mean /= n
        guard mean > 0 else { return 0 }
        return sum / n / (mean * mean)
    }
}
