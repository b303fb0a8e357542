import Foundation
import LuxFusion
import LuxPixels
import LuxTestSupport

/// The test camera's sensor: Poisson photo-electrons, Gaussian read noise, black level, 14-bit quantisation and
/// clipping (ALGORITHMS.md §2.1, §2.4), drawn from a seeded generator.
struct TestSensor: Sendable {
    /// Shot-noise slope S (normalised units).
    var scale: Double
    /// Read-noise variance O (normalised units).
    var offset: Double
    var black: Double = 512
    var white: Double = 16383

    var noise: NoiseProfile { NoiseProfile(scale: scale, offset: offset) }
    var rawModel: RawNoiseModel { RawNoiseModel(blackLevel: black, whiteLevel: white, noise: noise) }

    /// A Poisson(λ) draw (Knuth below 40, a rounded normal above).
    static func poisson(_ lambda: Double, _ rng: inout SplitMix) -> Double {
        if lambda <= 0 { return 0 }
        if lambda < 40 {
            let limit = exp(-lambda)
            var k = 0.0
            var p = 1.0
            repeat {
                k += 1
                p *= Double(rng.next() >> 11) / Double(1 << 53)
            } while p > limit
            return k - 1
        }
        return max(0, (lambda + lambda.squareRoot() * gaussian(&rng)).rounded())
    }

    /// A standard normal draw (Box–Muller).
    static func gaussian(_ rng: inout SplitMix) -> Double {
        let u1 = max(Double(rng.next() >> 11) / Double(1 << 53), 1e-300)
        let u2 = Double(rng.next() >> 11) / Double(1 << 53)
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }

    /// The noisy normalised value of a clean linear value (clipped at 1 like the ADC would).
    func noisy(_ x: Float, _ rng: inout SplitMix) -> Double {
        let electrons = TestSensor.poisson(Double(max(x, 0)) / scale, &rng)
        let v = electrons * scale + offset.squareRoot() * TestSensor.gaussian(&rng)
        return v
    }

    /// A Bayer14 frame of a clean mosaic.
    func capture(_ clean: [Float], width: Int, height: Int, pattern: CFAPattern, seed: UInt64) -> PixelBuffer {
        var rng = SplitMix(seed: seed)
        var codes = [UInt16](repeating: 0, count: width * height)
        let range = white - black
        for i in 0..<codes.count {
            let code = (black + noisy(clean[i], &rng) * range).rounded()
            codes[i] = UInt16(min(max(code, 0), min(white, 16383)))
        }
        return PixelBuffer(width: width, height: height, format: .bayer14(pattern), components: codes)
    }

    /// An RGBAf frame of clean planar RGB (noise per channel, values clipped to 0…1 as a linear camera output).
    func captureRGB(_ clean: [[Float]], width: Int, height: Int, seed: UInt64) -> PixelBuffer {
        var rng = SplitMix(seed: seed)
        var comps = [Float](repeating: 1, count: 4 * width * height)
        for i in 0..<(width * height) {
            for c in 0..<3 { comps[4 * i + c] = Float(min(max(noisy(clean[c][i], &rng), 0), 1)) }
        }
        return PixelBuffer(width: width, height: height, format: .rgbaFloat, components: comps)
    }
}

/// Image-quality measures (ALGORITHMS.md §9) computed in the tests, in Double.
enum Quality {
    /// PSNR in dB of `values` against `truth` (both clipped to 0…1, peak 1) over the indices `mask` selects.
    static func psnr(_ values: [Float], _ truth: [Float], where mask: (Int) -> Bool = { _ in true }) -> Double {
        LuxTestSupport.psnr(values.map { min(max($0, 0), 1) }, truth.map { min(max($0, 0), 1) }, where: mask)
    }

    /// Normalised values of a Bayer frame (black subtracted, divided by white − black).
    static func normalised(_ buffer: PixelBuffer, black: Double, white: Double) -> [Float] {
        buffer.components(as: UInt16.self).map { Float((Double($0) - black) / (white - black)) }
    }

    /// A mask of the pixels at least `border` from the edges of a `w × h` frame.
    static func interior(_ w: Int, _ h: Int, border: Int) -> (Int) -> Bool {
        { i in
            let x = i % w
            let y = i / w
            return x >= border && y >= border && x < w - border && y < h - border
        }
    }
}

extension Quality {
    /// Mean SSIM of two single-channel images, over the pixels whose window fits inside.
    ///
    /// As defined by Wang et al. 2004: 11×11 Gaussian window σ = 1.5, C1 = (0.01·L)², C2 = (0.03·L)², L = 1.
    static func ssim(_ a: [Double], _ b: [Double], width w: Int, height h: Int) -> Double {
        let r = 5
        let g = (-r...r).map { exp(-Double($0 * $0) / (2 * 1.5 * 1.5)) }
        let gs = g.reduce(0, +)
        let k = g.map { $0 / gs }
        func blur(_ p: [Double]) -> [Double] {
            var t = [Double](repeating: 0, count: w * h)
            var o = [Double](repeating: 0, count: w * h)
            for y in 0..<h {
                for x in r..<(w - r) {
                    var s = 0.0
                    for i in -r...r { s += k[i + r] * p[y * w + x + i] }
                    t[y * w + x] = s
                }
            }
            for y in r..<(h - r) {
                for x in r..<(w - r) {
                    var s = 0.0
                    for i in -r...r { s += k[i + r] * t[(y + i) * w + x] }
                    o[y * w + x] = s
                }
            }
            return o
        }
        let ma = blur(a)
        let mb = blur(b)
        let aa = blur(a.map { $0 * $0 })
        let bb = blur(b.map { $0 * $0 })
        let ab = blur(zip(a, b).map { $0 * $1 })
        let c1 = 0.0001
        let c2 = 0.0009
        var sum = 0.0
        var n = 0
        for y in r..<(h - r) {
            for x in r..<(w - r) {
                let i = y * w + x
                let va = aa[i] - ma[i] * ma[i]
                let vb = bb[i] - mb[i] * mb[i]
                let cov = ab[i] - ma[i] * mb[i]
                let numerator: Double = (2 * ma[i] * mb[i] + c1) * (2 * cov + c2)
                let means: Double = ma[i] * ma[i] + mb[i] * mb[i] + c1
                sum += numerator / (means * (va + vb + c2))
                n += 1
            }
        }
        return sum / Double(n)
    }

    /// BT.601 luma of an RGBA8 buffer, 0…1.
    static func luma(_ buffer: PixelBuffer) -> [Double] {
        let c =
            buffer.format == .rgba8
            ? buffer.components(as: UInt8.self) : buffer.converted(to: .rgba8).components(as: UInt8.self)
        return (0..<(buffer.width * buffer.height)).map { (i: Int) -> Double in
            let r: Double = 0.299 * Double(c[4 * i])
            let g: Double = 0.587 * Double(c[4 * i + 1])
            let b: Double = 0.114 * Double(c[4 * i + 2])
            return (r + g + b) / 255
        }
    }
}
