import CLuxKernels
import LuxPixels
import LuxTestSupport
import Testing

@testable import LuxRAW

/// RAW development's C row kernels (RCD, noise reduction, sharpening, linearisation, highlights, gamut, tone) give
/// the same bits at every vector width.
///
/// The widths (``KernelLanes/available``) are each forced on this thread through `lux_force_lanes`. Widths and sizes
/// are odd so that every kernel runs its vector loop and a scalar tail.
@Suite(.serialized) struct RowKernelWidthTests {
    static var widths: [Int32] { KernelLanes.available }

    /// Deterministic values in about −0.05…1.2: a gradient, a sharp edge and noise.
    static func samples(_ count: Int, width: Int, seed: UInt32) -> [Float] {
        var random = SplitMix(seed: UInt64(seed))
        return (0..<count).map { i in
            let noise = random.unit() - 0.5
            let x = i % width
            let y = i / width
            let edge: Float = x + y / 2 > width / 2 ? 0.7 : 0.1
            return edge + 0.3 * Float(y) / Float(max(count / width, 1)) + 0.15 * noise
        }
    }

    func withLanes<T>(_ lanes: Int32, _ body: () -> T) -> T {
        lux_force_lanes(lanes)
        defer { lux_force_lanes(0) }
        return body()
    }

    @Test("RCD demosaics to the same bits at every width", arguments: CFAPattern.allCases)
    func rcd(pattern: CFAPattern) {
        let w = 61
        let h = 47
        let mosaic = Self.samples(w * h, width: w, seed: 5)
        func run(_ lanes: Int32) -> [Float] {
            var out = [Float](repeating: .nan, count: 3 * w * h)
            var scratch = [Float](repeating: 0, count: RCDDemosaic.scratchCount(width: w, height: h))
            withLanes(lanes) {
                mosaic.withUnsafeBufferPointer { m in
                    out.withUnsafeMutableBufferPointer { o in
                        let base = o.baseAddress!
                        let cfa = CFAPlane(base: m.baseAddress!, width: w, height: h, rowStride: w, pattern: pattern)
                        let planes = RGBPlanes(red: base, green: base + w * h, blue: base + 2 * w * h, rowStride: w)
                        RCDDemosaic.run(cfa, into: planes, scratch: &scratch)
                    }
                }
            }
            return out
        }
        let scalar = run(1)
        // Not the mosaic: every plane holds interpolated values inside the margin.
        let centre = (h / 2) * w + w / 2
        #expect(Set([scalar[centre], scalar[w * h + centre], scalar[2 * w * h + centre]]).count == 3)
        for lanes in Self.widths.dropFirst() {
            let vector = run(lanes)
            #expect(vector.map(\.bitPattern) == scalar.map(\.bitPattern), "\(lanes) lanes, \(pattern)")
        }
    }

    @Test("noise reduction's wavelet and plane kernels give the same bits at every width")
    func noiseReduction() {
        let w = 37
        let h = 29
        let n = w * h
        let input = Self.samples(3 * n, width: w, seed: 11)
        func run(_ lanes: Int32) -> [Float] {
            withLanes(lanes) {
                var y = [Float](repeating: 0, count: n)
                var cr = y
                var cb = y
                var sigma = y
                var rgb = [Float](repeating: 0, count: 3 * n)
                var scratch = [Float](repeating: 0, count: 3 * n)
                var finest = y
                var coarse = y
                input.withUnsafeBufferPointer { p in
                    let i = p.baseAddress!
                    NRPlanes.splitRow(i, i + n, i + 2 * n, &y, &cr, &cb, n)
                }
                Wavelet.smooth(y, into: &coarse, width: w, height: h, step: 2, tmp: &scratch)
                NRPlanes.sigma(coarse, into: &sigma, variance: SIMD2(0.004, 0.0001), scale: 1, count: n)
                finest = y
                NRPlanes.shrinkFinest(
                    &finest, coarse: coarse, variance: SIMD2(0.004, 0.0001), factor: 2.5, gain: 1.3, count: n)
                Wavelet.denoise(&y, width: w, height: h, scales: 3, strength: 3, sigma: sigma, scratch: &scratch)
                NRPlanes.correct(&cr, coarse: cb, correction: finest, sigma: sigma, factor: 1.7, count: n)
                rgb.withUnsafeMutableBufferPointer { o in
                    let r = o.baseAddress!
                    NRPlanes.merge(y, cr, cb, count: n, red: r, green: r + n, blue: r + 2 * n)
                }
                return rgb + sigma + finest
            }
        }
        let scalar = run(1)
        // The thresholds bite: the planes come back changed.
        let changed = zip(scalar[..<(3 * n)], input).filter { $0 != $1 }.count
        #expect(changed > 0)
        for lanes in Self.widths.dropFirst() {
            let vector = run(lanes)
            #expect(vector.map(\.bitPattern) == scalar.map(\.bitPattern), "\(lanes) lanes")
        }
    }

    @Test("sharpening's and linearisation's kernels give the same bits at every width")
    func sharpeningAndLinearization() {
        let n = 203
        let step = 211
        let radius = 3
        let input = Self.samples(3 * step + n + 2 * radius * step, width: 50, seed: 23).map { max($0, 0) * $0 }
        let raw: [UInt16] = (0..<n).map { UInt16(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) & 0x3FFF }
        let taps: [Float] = [0.4, 0.2, 0.08, 0.02]
        func run(_ lanes: Int32) -> [Float] {
            withLanes(lanes) {
                var out = [Float](repeating: .nan, count: 8 * n)
                input.withUnsafeBufferPointer { p in
                    out.withUnsafeMutableBufferPointer { o in
                        let i = p.baseAddress!
                        let d = o.baseAddress!
                        taps.withUnsafeBufferPointer { t in
                            Sharpening.blurRow(
                                i + radius * step, step: step, taps: t, radius: radius, count: n, into: d)
                        }
                        Sharpening.luma(i, i + n, i + 2 * n, weights: (0.2126, 0.7152, 0.0722), count: n, into: d + n)
                        Sharpening.mask(
                            i, i + 1, i + 2, luma: d + n, blurred: d, amount: 1.5, threshold: 0.004, count: n,
                            red: d + 2 * n, green: d + 3 * n, blue: d + 4 * n)
                        for parity in 0..<2 {
                            SensorLinearization.linearize(
                                raw, n, parity, 512.5, 511, 1 / 15000, 1.1 / 15000, d + (5 + parity) * n)
                        }
                    }
                }
                return out
            }
        }
        let scalar = run(1)
        // The mask sharpens: the red plane is not the input's.
        #expect(zip(scalar[(2 * n)..<(3 * n)], input[..<n]).contains { $0 != $1 })
        #expect(scalar[(5 * n)..<(7 * n)].allSatisfy { $0.isFinite })
        for lanes in Self.widths.dropFirst() {
            let vector = run(lanes)
            #expect(vector.map(\.bitPattern) == scalar.map(\.bitPattern), "\(lanes) lanes")
        }
    }

    @Test("the highlight, gamut and tone kernels give the bits of the Swift loops they replaced, at every width")
    func highlightGamutAndTone() {
        let n = 203
        // Red lowered so that some pixels leave the gamut (negative red), values up to about 1.2 so that some clip.
        let input = Self.samples(3 * n, width: 50, seed: 31)
        let red = input[..<n].map { $0 - 0.2 }
        let green = Array(input[n..<(2 * n)])
        let blue = Array(input[(2 * n)...])
        let (kr, kg, kb): (Float, Float, Float) = (0.2627, 0.6780, 0.0593)
        let gains: (Float, Float, Float) = (1 / 2.1, 1, 1 / 1.6)
        let k: Float = 0.8
        // The loops as Swift ran them before they moved to C.
        var expected = [Float]()
        for i in 0..<n {
            let (r, g, b) = (red[i], green[i], blue[i])
            let lo = min(r, min(g, b))
            let y = kr * r + kg * g + kb * b
            let t: Float = lo >= 0 ? 1 : (y > 0 ? y / (y - lo) : 0)
            let base: Float = lo >= 0 || y > 0 ? y : 0
            expected += [base + t * (r - base), base + t * (g - base), base + t * (b - base)]
        }
        for i in 0..<n {
            let (r, g, b) = (red[i], green[i], blue[i])
            let m = max(max(r, g), max(b, 1e-9))
            let u = m * (2.531 * m + 0.855)
            let ratio = 1 / (1 + u) * (2.531 * m + 0.855)
            let f = 1 - k + k * ratio
            expected += [r * f, g * f, b * f]
        }
        expected += (0..<n).map { max(red[$0] * gains.0, max(green[$0] * gains.1, blue[$0] * gains.2)) }
        #expect(expected[..<(3 * n)].contains { $0 != 0 } && red.contains { $0 < 0 })
        func run(_ lanes: Int32) -> [Float] {
            withLanes(lanes) {
                var r = red
                var g = green
                var b = blue
                lux_gamut_map(&r, &g, &b, kr, kg, kb, n)
                var out = (0..<n).flatMap { [r[$0], g[$0], b[$0]] }
                r = red
                g = green
                b = blue
                lux_tone_base(&r, &g, &b, k, n)
                out += (0..<n).flatMap { [r[$0], g[$0], b[$0]] }
                var levels = [Float](repeating: .nan, count: n)
                _ = lux_defringe_levels(red, green, blue, gains.0, gains.1, gains.2, 0.5, &levels, n)
                return out + levels
            }
        }
        for lanes in Self.widths {
            #expect(run(lanes).map(\.bitPattern) == expected.map(\.bitPattern), "\(lanes) lanes")
        }
        // Whether a pixel exceeds a level: none, one in the vector part, one in the scalar tail, from the first pixel.
        let peak = (0..<n).map { max(red[$0], max(green[$0], blue[$0])) }
        let top = peak.max()!
        for (count, level) in [(n, top), (n, top.nextDown), (64, 0.5), (n - 3, 1.0), (5, 0.0)] {
            let truth = peak[..<count].contains { $0 > level }
            let levelTruth = (0..<count).contains {
                max(red[$0] * gains.0, max(green[$0] * gains.1, blue[$0] * gains.2)) > level
            }
            for lanes in Self.widths {
                withLanes(lanes) {
                    #expect((lux_highlight_exceeds(red, green, blue, level, count) != 0) == truth, "\(lanes) lanes")
                    var levels = [Float](repeating: 0, count: count)
                    let found = lux_defringe_levels(red, green, blue, gains.0, gains.1, gains.2, level, &levels, count)
                    #expect((found != 0) == levelTruth, "\(lanes) lanes")
                }
            }
        }
    }

    @Test("the plane moves and resamplings give the bits of the Swift loops they replaced, at every width")
    func movesAndResampling() {
        // Odd sizes: every kernel runs its vector loop and a scalar tail; odd columns exercise the split tails.
        let w = 46
        let h = 14
        let hw = w / 2
        let hh = h / 2
        let plane = Self.samples(w * h, width: w, seed: 41)
        let other = Self.samples(w * h, width: w, seed: 43)
        let m: [Float] = [1.6, -0.4, -0.2, -0.15, 1.3, -0.15, 0.05, -0.3, 1.25]
        // The loops as Swift ran them before they moved to C.
        var expected = [Float]()
        for k in 0..<hh {
            for i in 0..<hw {
                let a = k * 2 * w + 2 * i
                expected.append(0.25 * (plane[a] + plane[a + 1] + plane[a + w] + plane[a + w + 1]))
            }
        }
        expected += (0..<(w * h)).map { plane[$0] - other[$0] }
        for row in 0..<(2 * hh) {
            let k0 = min(row >> 1, hh - 1)
            let kn = min(max((row & 1) == 0 ? k0 - 1 : k0 + 1, 0), hh - 1)
            let v = (0..<hw).map { 0.75 * other[k0 * hw + $0] + 0.25 * other[kn * hw + $0] }
            var d = [Float](repeating: .nan, count: 2 * hw)
            d[0] = v[0]
            d[2 * hw - 1] = v[hw - 1]
            for i in 1..<hw {
                d[2 * i - 1] = 0.75 * v[i - 1] + 0.25 * v[i]
                d[2 * i] = 0.75 * v[i] + 0.25 * v[i - 1]
            }
            expected += d
        }
        for cw in [w - 1, w] {
            let evens = (cw + 1) / 2
            let split = (0..<cw).map { $0 < evens ? plane[2 * $0] : plane[2 * ($0 - evens) + 1] }
            expected += split
            // Columns 3..<3+n and 4..<4+n back out of the split row: odd and even starts, odd and even counts.
            for (x0, n) in [(3, cw - 6), (4, cw - 7), (1, 0)] { expected += plane[x0..<(x0 + n)] }
        }
        expected += plane[5..<(w * h - 3)] + plane[5..<(w * h - 3)]
        for i in 0..<(w * h / 3) {
            let (x, y, z) = (plane[3 * i], plane[3 * i + 1], plane[3 * i + 2])
            expected += [
                m[0] * x + m[1] * y + m[2] * z, m[3] * x + m[4] * y + m[5] * z, m[6] * x + m[7] * y + m[8] * z,
            ]
        }
        func run(_ lanes: Int32) -> [Float] {
            withLanes(lanes) {
                var half = [Float](repeating: .nan, count: hw * hh)
                NRPlanes.downsample(plane, into: &half, width: w, height: h)
                var difference = plane
                NRPlanes.subtract(other, from: &difference, count: w * h)
                var out = half + difference
                var v = [Float](repeating: .nan, count: hw)
                var d = [Float](repeating: .nan, count: 2 * hw)
                for row in 0..<(2 * hh) {
                    NRPlanes.upsampleRow(other, width: hw, height: hh, row: row, scratch: &v, into: &d)
                    out += d
                }
                for cw in [w - 1, w] {
                    var split = [Float](repeating: .nan, count: cw)
                    RCDDemosaic.split(plane, into: &split, cw)
                    out += split
                    for (x0, n) in [(3, cw - 6), (4, cw - 7), (1, 0)] {
                        var row = [Float](repeating: .nan, count: n)
                        RCDDemosaic.interleave(split, width: cw, from: x0, count: n, into: &row)
                        out += row
                    }
                }
                var a = [Float](repeating: .nan, count: w * h)
                var b = a
                RCDDemosaic.copy(plane, &a, &b, from: 5, to: w * h - 3)
                out += a[5..<(w * h - 3)] + b[5..<(w * h - 3)]
                var r = (0..<(w * h / 3)).map { plane[3 * $0] }
                var g = (0..<(w * h / 3)).map { plane[3 * $0 + 1] }
                var bl = (0..<(w * h / 3)).map { plane[3 * $0 + 2] }
                lux_matrix3_planes(m, &r, &g, &bl, w * h / 3)
                out += (0..<(w * h / 3)).flatMap { [r[$0], g[$0], bl[$0]] }
                return out
            }
        }
        for lanes in Self.widths {
            let result = run(lanes)
            #expect(result.count == expected.count)
            #expect(result.map(\.bitPattern) == expected.map(\.bitPattern), "\(lanes) lanes")
        }
    }

    @Test("eight lanes leave what is over a multiple of eight to four lanes, then one: the same bits at every count")
    func mixedWidths() {
        let m: [Float] = [1.6, -0.4, -0.2, -0.15, 1.3, -0.15, 0.05, -0.3, 1.25]
        let input = Self.samples(3 * 40, width: 40, seed: 59)
        // The matrix loop as Swift ran it before it moved to C.
        func expected(_ n: Int) -> [Float] {
            (0..<n).flatMap { i -> [Float] in
                let (x, y, z) = (input[i], input[40 + i], input[80 + i])
                return [
                    m[0] * x + m[1] * y + m[2] * z, m[3] * x + m[4] * y + m[5] * z, m[6] * x + m[7] * y + m[8] * z,
                ]
            }
        }
        for lanes in Self.widths {
            for n in 1...40 {
                var r = Array(input[0..<n])
                var g = Array(input[40..<(40 + n)])
                var b = Array(input[80..<(80 + n)])
                withLanes(lanes) { lux_matrix3_planes(m, &r, &g, &b, n) }
                let out = (0..<n).flatMap { [r[$0], g[$0], b[$0]] }
                #expect(out.map(\.bitPattern) == expected(n).map(\.bitPattern), "\(lanes) lanes, \(n) values")
            }
        }
    }
}
