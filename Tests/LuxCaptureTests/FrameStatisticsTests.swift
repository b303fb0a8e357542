import LuxPixels
import Testing

@testable import LuxCapture

@Suite struct FrameStatisticsTests {
    @Test(
        "Cell means and clipped fractions match a per-photosite reference",
        arguments: [(101, 37), (64, 48), (4032, 3024)])
    func matchesReference(size: (Int, Int)) {
        let (w, h) = size
        let black = 512
        let white = 16383
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var values = [UInt16](repeating: 0, count: w * h)
        for i in values.indices {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let r = Int(state >> 33) % 20000
            values[i] = UInt16(min(white, r))  // about 18 % clipped, some below black
        }
        var raw = PixelBuffer(width: w, height: h, format: .bayer14(.grbg))
        raw.withUnsafeMutablePlane { plane in
            for y in 0..<h { for x in 0..<w { plane.row(y, as: UInt16.self)[x] = values[y * w + x] } }
        }
        let stats = FrameStatistics(raw: raw, blackLevel: black, whiteLevel: white)
        // Reference: every photosite into its cell and CFA channel.
        let quad = CFAPattern.grbg.quadChannels.map(\.rawValue)
        var sum = [Double](repeating: 0, count: 32 * 24 * 3)
        var count = sum
        var clipped = [Double](repeating: 0, count: 32 * 24)
        var total = [Double](repeating: 0, count: 32 * 24)
        for y in 0..<h {
            for x in 0..<w {
                let cell = (y * 24 / h) * 32 + x * 32 / w
                let c = quad[(y & 1) * 2 + (x & 1)]
                let v = values[y * w + x]
                sum[cell * 3 + c] += (Double(v) - Double(black)) / Double(white - black)
                count[cell * 3 + c] += 1
                total[cell] += 1
                if v >= white - 64 { clipped[cell] += 1 }
            }
        }
        var worst = 0.0
        var worstClip = 0.0
        for cell in 0..<(32 * 24) {
            for c in 0..<3 where count[cell * 3 + c] > 0 {
                worst = max(worst, abs(Double(stats.means[cell][c]) - sum[cell * 3 + c] / count[cell * 3 + c]))
            }
            if total[cell] > 0 {
                worstClip = max(worstClip, abs(Double(stats.clippedFractions[cell]) - clipped[cell] / total[cell]))
            }
        }
        #expect(worst < 1e-6 && worstClip < 1e-6, "means off by \(worst), clipped fractions by \(worstClip)")
    }
}
