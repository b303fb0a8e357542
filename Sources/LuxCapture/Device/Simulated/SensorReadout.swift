import LuxPixels
import LuxScene
import RealModule

/// The sensor simulation of ALGORITHMS.md §2.4 over a radiance image: CFA sampling → photo-electrons →
/// Poisson shot noise → full-well clip → analog gain → Gaussian read noise → black level → 14-bit ADC.
///
/// Shot noise is exact Poisson (inversion) below 24 expected electrons and Gaussian N(λ, λ) above, which has
/// the same mean and variance. Random numbers are counter-based (seed, pixel index), so a frame is
/// bit-identical on any thread count, and each frame index gets its own seed.
enum SensorReadout {
    struct Parameters: Sendable {
        /// Electrons per unit of radiance-image value over the exposure (k·t/N² × binning).
        var electronsPerUnit: Float
        /// Dark-current electrons accumulated over the exposure.
        var darkElectrons: Float
        /// Full well of one output pixel (× binning).
        var fullWell: Float
        /// ADC codes per electron at the frame's ISO.
        var codesPerElectron: Float
        /// Total read noise in ADC codes.
        var readNoise: Float
        var blackLevel: Float
        var whiteLevel: Float
        var pattern: CFAPattern
        var seed: UInt64
    }

    static let poissonThreshold: Float = 24

    /// Reads `radiance` (3 planes: the sensor's R, G, B responses) into `raw`, a Bayer-14 buffer of the same size.
    static func readout(_ radiance: PlanarImage, parameters p: Parameters, into raw: inout PixelBuffer, threads: Int) {
        precondition(raw.width == radiance.width && raw.height == radiance.height)
        let w = radiance.width
        let plane = raw.unsafeSharedMutablePlane(0)
        let quad = p.pattern.quadChannels.map(\.rawValue)
        let seedA = UInt32(truncatingIfNeeded: CounterRandom.hash(p.seed, 1))
        let seedB = UInt32(truncatingIfNeeded: CounterRandom.hash(p.seed, 2))
        let seedC = UInt32(truncatingIfNeeded: CounterRandom.hash(p.seed, 3))
        withExtendedLifetime(raw) {
            Parallel.forEachBand(radiance.height, threads: threads) { rows in
                let lambda = UnsafeMutablePointer<Float>.allocate(capacity: w)
                defer { lambda.deallocate() }
                for y in rows {
                    let out = plane.row(y, as: UInt16.self)
                    let c0 = quad[(y & 1) * 2], c1 = quad[(y & 1) * 2 + 1]
                    let r0 = radiance.row(c0, y), r1 = radiance.row(c1, y)
                    var x = 0
                    while x + 1 < w {
                        lambda[x] = max(0, r0[x] * p.electronsPerUnit + p.darkElectrons)
                        lambda[x + 1] = max(0, r1[x + 1] * p.electronsPerUnit + p.darkElectrons)
                        x += 2
                    }
                    if x < w { lambda[x] = max(0, r0[x] * p.electronsPerUnit + p.darkElectrons) }
                    let base = UInt32(truncatingIfNeeded: y &* w)
                    noiseRow(lambda, out, w, base: base, seedA: seedA, seedB: seedB, p: p)
                    exactPoissonRow(lambda, out, w, base: base, seedA: seedA, seedC: seedC, seedB: seedB, p: p)
                }
            }
        }
    }

    @inline(__always)
    static func gaussian(_ h1: UInt32, _ h2: UInt32) -> Float {
        let a = Float(h1 & 0xFFFF), b = Float(h1 >> 16), c = Float(h2 & 0xFFFF), d = Float(h2 >> 16)
        return ((a + b + c + d + 2) * (1 / 65536) - 2) * 1.732_050_8
    }

    @inline(__always)
    static func roundToNearest(_ v: Float) -> Float { (v + 12_582_912) - 12_582_912 }

    /// The Gaussian path for every pixel (vectorisable): N(λ, λ) electrons, clip, gain, read noise, ADC.
    static func noiseRow(
        _ lambda: UnsafePointer<Float>, _ out: UnsafeMutablePointer<UInt16>, _ w: Int, base: UInt32, seedA: UInt32,
        seedB: UInt32, p: Parameters
    ) {
        let fw = p.fullWell, g = p.codesPerElectron, rn = p.readNoise, black = p.blackLevel, white = p.whiteLevel
        for x in 0..<w {
            let idx = base &+ UInt32(truncatingIfNeeded: x)
            let k = idx &* 0x9E37_79B9
            let z1 = gaussian(CounterRandom.hash32(k ^ seedA), CounterRandom.hash32((k &+ 0x632B_E5AB) ^ seedA))
            let z2 = gaussian(CounterRandom.hash32(k ^ seedB), CounterRandom.hash32((k &+ 0x632B_E5AB) ^ seedB))
            let l = lambda[x]
            let electrons = min(max(l + l.squareRoot() * z1, 0), fw)
            let dn = roundToNearest(black + g * electrons + rn * z2)
            out[x] = UInt16(min(max(dn, 0), white))
        }
    }

    /// The exact Poisson path for dim pixels (λ below the threshold), by inversion of the CDF.
    static func exactPoissonRow(
        _ lambda: UnsafePointer<Float>, _ out: UnsafeMutablePointer<UInt16>, _ w: Int, base: UInt32, seedA: UInt32,
        seedC: UInt32, seedB: UInt32, p: Parameters
    ) {
        for x in 0..<w where lambda[x] < poissonThreshold {
            let l = lambda[x]
            let idx = base &+ UInt32(truncatingIfNeeded: x)
            let k = idx &* 0x9E37_79B9
            let u = Float(CounterRandom.hash32(k ^ seedC) >> 8) * (1 / 16_777_216)
            var term = Float.exp(-l), cdf = term, n: Float = 0
            while u > cdf && n < 200 {
                n += 1
                term *= l / n
                cdf += term
            }
            let electrons = min(n, p.fullWell)
            let z2 = gaussian(CounterRandom.hash32(k ^ seedB), CounterRandom.hash32((k &+ 0x632B_E5AB) ^ seedB))
            let dn = roundToNearest(p.blackLevel + p.codesPerElectron * electrons + p.readNoise * z2)
            out[x] = UInt16(min(max(dn, 0), p.whiteLevel))
        }
    }
}
