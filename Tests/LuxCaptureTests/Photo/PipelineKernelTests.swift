import LuxPixels
import LuxTestSupport
import RealModule
import Testing

@testable import LuxCapture

@Suite struct PipelineKernelTests {
    /// A Bayer-14 frame from a function of (x, y).
    func frame(width: Int, height: Int, _ value: (Int, Int) -> Double) -> RawFrame {
        var b = PixelBuffer(width: width, height: height, format: .bayer14(.rggb))
        b.withUnsafeMutablePlane { p in
            for y in 0..<height {
                let r = p.row(y, as: UInt16.self)
                for x in 0..<width { r[x] = UInt16(min(max(value(x, y).rounded(), 0), 16383)) }
            }
        }
        let camera = SimulatedCamera(scene: .grayCard(), configuration: .init(sensor: .small()))
        let m = camera.makeMetadata(
            plan: camera.state.withLock { $0.beginFrame(lensSpeed: 0) }, binning: 1, focusScore: nil, offset: 0)
        return RawFrame(pixels: b, blackLevel: 1024, whiteLevel: 16383, metadata: m, presentationTime: .zero)
    }

    @Test("Light noise reduction: a flat noisy field loses most of its variance; a 20σ step edge is kept exactly")
    func lightNoiseReduction() {
        var rng = SplitMix(seed: 7)
        let sigma = 40.0
        func gauss() -> Double {
            let u1 = max(Double(rng.next() >> 11) / Double(1 << 53), 1e-12)
            let u2 = Double(rng.next() >> 11) / Double(1 << 53)
            return (-2 * Double.log(u1)).squareRoot() * Double.cos(2 * Double.pi * u2)
        }
        let flat = frame(width: 96, height: 64) { _, _ in 4000 + sigma * gauss() }
        // Noise model: variance (codes²) = S·range·level + O·range² = σ² at this level.
        let range = 16383.0 - 1024
        let noise = SIMD2(0, sigma * sigma / (range * range))
        let pool = BufferPool(capacityPerKey: 2)
        let out = LightNoiseReduction.apply(flat, noise: noise, pool: pool, threads: 2)
        func variance(_ b: PixelBuffer) -> Double {
            let v = b.components(as: UInt16.self).map(Double.init)
            let m = v.reduce(0, +) / Double(v.count)
            return v.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(v.count)
        }
        #expect(variance(out.pixels) < variance(flat.pixels) / 3, "\(variance(flat.pixels)) → \(variance(out.pixels))")
        let step = frame(width: 64, height: 32) { x, _ in x < 32 ? 2000 : 2000 + 20 * sigma }
        let kept = LightNoiseReduction.apply(step, noise: noise, pool: pool, threads: 1)
        #expect(kept.pixels.components(as: UInt16.self) == step.pixels.components(as: UInt16.self))
    }

    @Test(
        "Area scaling matches a brute-force average over each output pixel's footprint",
        arguments: [(40, 30), (31, 17), (7, 5)])
    func areaScaling(width: Int, height: Int) {
        let sw = 53
        let sh = 37
        var src = PixelBuffer(width: sw, height: sh, format: .rgba8, colorSpace: .sRGB)
        src.withUnsafeMutablePlane { p in
            for y in 0..<sh {
                let r = p.row(y, as: UInt8.self)
                for x in 0..<sw {
                    r[4 * x] = UInt8((x * 37 + y * 11) % 256)
                    r[4 * x + 1] = UInt8((x * x + y) % 256)
                    r[4 * x + 2] = UInt8(y * 6)
                    r[4 * x + 3] = 255
                }
            }
        }
        let out = AreaScaler.scaled(src, width: width, height: height, pool: BufferPool(capacityPerKey: 2), threads: 2)
        let s = src.components(as: UInt8.self)
        let o = out.components(as: UInt8.self)
        // Reference: 64 × 64 point samples per output pixel (the footprint's exact average up to 1/64 per edge).
        let fx = Double(sw) / Double(width)
        let fy = Double(sh) / Double(height)
        var worst = 0.0
        for oy in 0..<height {
            for ox in 0..<width {
                for c in 0..<4 {
                    var sum = 0.0
                    for j in 0..<64 {
                        for i in 0..<64 {
                            let x = Int((Double(ox) + (Double(i) + 0.5) / 64) * fx)
                            let y = Int((Double(oy) + (Double(j) + 0.5) / 64) * fy)
                            sum += Double(s[4 * (y * sw + x) + c])
                        }
                    }
                    worst = max(worst, abs(sum / 4096 - Double(o[4 * (oy * width + ox) + c])))
                }
            }
        }
        #expect(worst < 3, "largest difference \(worst)")
    }

    @Test(
        "Area scaling equals the direct sum over each footprint, row by row in Float, rounded half up",
        arguments: [(40, 30), (31, 17), (7, 5), (52, 36)])
    func areaScalingIsExact(width: Int, height: Int) {
        let (sw, sh) = (53, 37)
        var src = PixelBuffer(width: sw, height: sh, format: .rgba8, colorSpace: .sRGB)
        src.withUnsafeMutablePlane { p in
            for y in 0..<sh {
                let r = p.row(y, as: UInt8.self)
                for x in 0..<(4 * sw) { r[x] = UInt8((x * 29 + y * 53 + x * y) % 256) }
            }
        }
        let out = AreaScaler.scaled(src, width: width, height: height, pool: BufferPool(capacityPerKey: 2), threads: 3)
        let s = src.components(as: UInt8.self)
        // Each output's footprint [i·f, (i + 1)·f) in source pixels: the covered part of each source pixel, over f.
        func taps(_ i: Int, source: Int, destination: Int) -> [(Int, Float)] {
            let f = Double(source) / Double(destination)
            let (a, b) = (Double(i) * f, Double(i + 1) * f)
            return (Int(a)..<min(source, Int(b.rounded(.up)))).map { k in
                (k, Float(max(0, min(b, Double(k + 1)) - max(a, Double(k))) / f))
            }
        }
        var expected = [UInt8](repeating: 0, count: 4 * width * height)
        for oy in 0..<height {
            for ox in 0..<width {
                for c in 0..<4 {
                    var sum: Float = 0
                    for (y, wy) in taps(oy, source: sh, destination: height) {
                        var line: Float = 0
                        for (x, wx) in taps(ox, source: sw, destination: width) {
                            line += wx * Float(s[4 * (y * sw + x) + c])
                        }
                        sum += wy * line
                    }
                    expected[4 * (oy * width + ox) + c] = UInt8(min(max(sum + 0.5, 0), 255))
                }
            }
        }
        #expect(out.components(as: UInt8.self) == expected)
    }
}
