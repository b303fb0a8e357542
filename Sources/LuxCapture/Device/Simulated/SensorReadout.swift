import LuxColor
import LuxPixels
import LuxScene

/// The sensor simulation of ALGORITHMS.md §2.4, one row at a time: CFA radiance → photo-electrons → Poisson
/// shot noise → full-well clip → analog gain → Gaussian read noise → black level → 14-bit ADC.
///
/// Shot noise is exact Poisson (inversion of the CDF) below 24 expected electrons and Gaussian N(λ, λ) above,
/// which has the same mean and variance. Random numbers are counter-based (seed, pixel index), so a frame is
/// bit-identical on any thread count and any split into rows, and each frame index gets its own seed.
/// Every step is plain arithmetic on whole rows, so the compiler vectorises it; the dim pixels' Poisson
/// inversion runs over all of a row's dim pixels at once, one CDF term per step.
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

    /// Supplies CFA radiance rows: called with a range of rows, it calls its second argument once per row
    /// with the row index and the radiance of the channel the CFA puts at each pixel.
    typealias RowSource = @Sendable (Range<Int>, (Int, UnsafePointer<Float>) -> Void) -> Void

    /// Reads the rows `source` supplies into `raw`, a Bayer-14 buffer.
    static func readout(parameters p: Parameters, into raw: inout PixelBuffer, threads: Int, source: RowSource) {
        let w = raw.width
        let h = raw.height
        let plane = raw.unsafeSharedMutablePlane(0)
        let seeds = Seeds(p.seed)
        withExtendedLifetime(raw) {
            Parallel.forEachBand(h, threads: threads, minimumBand: 8) { rows in
                let scratch = Scratch(width: w)
                defer { scratch.deallocate() }
                source(rows) { y, radiance in
                    noiseRow(
                        radiance, plane.row(y, as: UInt16.self), w, base: UInt32(truncatingIfNeeded: y &* w),
                        seeds: seeds, p: p, scratch: scratch)
                }
            }
        }
    }

    /// Reads `radiance` (3 planes: the sensor's R, G, B responses) into `raw`, a Bayer-14 buffer of the same size.
    static func readout(
        _ radiance: PlanarBuffer<Float>, parameters p: Parameters, into raw: inout PixelBuffer, threads: Int
    ) {
        precondition(raw.width == radiance.width && raw.height == radiance.height)
        let w = radiance.width
        let quad = p.pattern.quadChannels.map(\.rawValue)
        readout(parameters: p, into: &raw, threads: threads) { rows, body in
            let row = UnsafeMutablePointer<Float>.allocate(capacity: w)
            defer { row.deallocate() }
            for y in rows {
                let r0 = radiance.row(quad[(y & 1) * 2], y)
                let r1 = radiance.row(quad[(y & 1) * 2 + 1], y)
                for x in 0..<w { row[x] = (x & 1) == 0 ? r0[x] : r1[x] }
                body(y, row)
            }
        }
    }

    /// The three 32-bit seeds of a frame: shot noise, read noise, Poisson uniforms.
    struct Seeds: Sendable {
        let a: UInt32, b: UInt32, c: UInt32
        init(_ seed: UInt64) {
            a = UInt32(truncatingIfNeeded: CounterRandom.hash(seed, 1))
            b = UInt32(truncatingIfNeeded: CounterRandom.hash(seed, 2))
            c = UInt32(truncatingIfNeeded: CounterRandom.hash(seed, 3))
        }
    }

    /// Per-thread rows.
    struct Scratch {
        let lambda: UnsafeMutablePointer<Float>
        let readNoise: UnsafeMutablePointer<Float>
        let dimIndex: UnsafeMutablePointer<Int32>
        let dimLambda: UnsafeMutablePointer<Float>
        let dimUniform: UnsafeMutablePointer<Float>
        let dimCount: UnsafeMutablePointer<Float>
        let dimTerm: UnsafeMutablePointer<Float>
        let dimCDF: UnsafeMutablePointer<Float>

        init(width w: Int) {
            lambda = .allocate(capacity: w)
            readNoise = .allocate(capacity: w)
            dimIndex = .allocate(capacity: w)
            dimLambda = .allocate(capacity: w)
            dimUniform = .allocate(capacity: w)
            dimCount = .allocate(capacity: w)
            dimTerm = .allocate(capacity: w)
            dimCDF = .allocate(capacity: w)
        }

        func deallocate() {
            lambda.deallocate()
            readNoise.deallocate()
            dimIndex.deallocate()
            dimLambda.deallocate()
            dimUniform.deallocate()
            dimCount.deallocate()
            dimTerm.deallocate()
            dimCDF.deallocate()
        }
    }

    /// `CounterRandom.hash32` (Wellons' lowbias32), repeated here because a call across modules would stop the
    /// row loops from vectorising.
    @inline(__always)
    static func hash(_ x: UInt32) -> UInt32 {
        var v = x
        v ^= v >> 16
        v &*= 0x7FEB_352D
        v ^= v >> 15
        v &*= 0x846C_A68B
        v ^= v >> 16
        return v
    }

    /// An approximately standard-normal value from one 32-bit hash: the sum of its four bytes (four uniforms on 0…255),
    /// centred and scaled to unit variance (Irwin–Hall, n = 4, in steps of 0.007 σ).
    ///
    /// Mean and variance are exact: each byte has variance (256² − 1)/12.
    @inline(__always)
    static func gaussian(_ h: UInt32) -> Float {
        let pairs = (h & 0x00FF_00FF) &+ ((h >> 8) & 0x00FF_00FF)  // two sums of two bytes, in 16-bit lanes
        let sum = (pairs & 0xFFFF) &+ (pairs >> 16)  // 0 … 1020
        return (Float(Int32(bitPattern: sum)) - 510) * 0.006_765_875  // 1/√(4·65535/12)
    }

    /// `v` limited to `lo…hi` as plain compare-and-select (maxps/minps), not the NaN-aware `min`/`max` sequence.
    ///
    /// NaN is not a possible input here.
    @inline(__always)
    static func clamp(_ v: Float, _ lo: Float, _ hi: Float) -> Float {
        let a = v > lo ? v : lo
        return a < hi ? a : hi
    }

    /// The ADC: round to the nearest code, read from the bit pattern of `v + 1.5·2²³` (no trapping conversion;
    /// exact for |v| < 2²², so v is first limited to ±2²¹), then clip to 0…white as integers (pmaxsd/pminsd),
    /// so the loop vectorises.
    @inline(__always)
    static func code(_ v: Float, white: Int32) -> UInt16 {
        let rounded = Int32(bitPattern: (clamp(v, -2_097_152, 2_097_152) + 12_582_912).bitPattern &- 0x4B40_0000)
        return UInt16(truncatingIfNeeded: min(max(rounded, 0), white))
    }

    /// One row: electrons, the Gaussian path for every pixel (vectorised), then exact Poisson counts for the
    /// dim pixels.
    static func noiseRow(
        _ radiance: UnsafePointer<Float>, _ out: UnsafeMutablePointer<UInt16>, _ w: Int, base: UInt32, seeds: Seeds,
        p: Parameters, scratch: Scratch
    ) {
        let lambda = scratch.lambda
        let z2s = scratch.readNoise
        let k = p.electronsPerUnit
        let dark = p.darkElectrons
        let fw = p.fullWell
        let g = p.codesPerElectron
        let rn = p.readNoise
        let black = p.blackLevel
        let white = Int32(p.whiteLevel)
        let seedA = seeds.a
        let seedB = seeds.b
        var dim: UInt32 = 0
        for x in 0..<w {
            let r = radiance[x] * k + dark
            let l = r > 0 ? r : 0
            lambda[x] = l
            dim &+= l < poissonThreshold ? 1 : 0
            let i = (base &+ UInt32(truncatingIfNeeded: x)) &* 0x9E37_79B9
            let z1 = gaussian(hash(i ^ seedA))
            let z2 = gaussian(hash(i ^ seedB))
            z2s[x] = z2
            let electrons = clamp(l + l.squareRoot() * z1, 0, fw)
            out[x] = code(black + g * electrons + rn * z2, white: white)
        }
        guard dim > 0 else { return }
        // Gather the dim pixels (branch-free: every index is written, the count advances only for dim ones).
        var n = 0
        for x in 0..<w {
            scratch.dimIndex[n] = Int32(truncatingIfNeeded: x)
            scratch.dimLambda[n] = lambda[x]
            n += lambda[x] < poissonThreshold ? 1 : 0
        }
        guard n > 0 else { return }
        poissonCounts(count: n, base: base, seedC: seeds.c, scratch: scratch)
        for j in 0..<n {
            let x = Int(scratch.dimIndex[j])
            let electrons = min(scratch.dimCount[j], fw)
            out[x] = code(black + g * electrons + rn * z2s[x], white: white)
        }
    }

    /// 1/n for the Poisson recurrence.
    static let reciprocals: [Float] = (0...poissonTermLimit).map { $0 == 0 ? 0 : 1 / Float($0) }
    /// No inversion goes past this many electrons (the probability of reaching it at λ < 24 is below 10⁻⁴⁰).
    static let poissonTermLimit = 160

    /// Poisson counts by inversion for the gathered dim pixels, in chunks of 64: each step adds one term of
    /// the CDF to every pixel of the chunk and counts the pixels whose uniform lies beyond it, until every pixel
    /// of the chunk is counted or the chunk's largest λ has no mass left (λ + 10√λ + 10 terms).
    static func poissonCounts(count n: Int, base: UInt32, seedC: UInt32, scratch: Scratch) {
        let idx = scratch.dimIndex
        let lam = scratch.dimLambda
        let u = scratch.dimUniform
        let count = scratch.dimCount
        let term = scratch.dimTerm
        let cdf = scratch.dimCDF
        for j in 0..<n {
            let i = (base &+ UInt32(bitPattern: idx[j])) &* 0x9E37_79B9
            u[j] = Float(Int32(bitPattern: hash(i ^ seedC) >> 8)) * (1 / 16_777_216)
            let t = expNegative(lam[j])
            term[j] = t
            cdf[j] = t
            count[j] = 0
        }
        reciprocals.withUnsafeBufferPointer { inv in
            var start = 0
            while start < n {
                let end = min(n, start + 64)
                var top: Float = 0
                for j in start..<end { top = max(top, lam[j]) }
                let steps = min(poissonTermLimit, Int(top + 10 * top.squareRoot() + 10))
                var first = 1
                while first <= steps {
                    let last = min(steps, first + 7)
                    for s in first...last {
                        let r = inv[s]
                        for j in start..<end {
                            count[j] += u[j] > cdf[j] ? 1 : 0
                            term[j] *= lam[j] * r
                            cdf[j] += term[j]
                        }
                    }
                    first = last + 1
                    // Every eight terms: done once each uniform lies within its CDF, which only grows, so no later
                    // term would change a count (the bound above is ten standard deviations; most chunks settle
                    // in a third of it).
                    var open: UInt32 = 0
                    for j in start..<end { open |= u[j] > cdf[j] ? 1 : 0 }
                    if open == 0 { break }
                }
                start = end
            }
        }
    }

    /// e^(−x) through LuxColor's vectorisable exp2.
    @inline(__always)
    static func expNegative(_ x: Float) -> Float { fastExp2(-x * 1.442_695_04) }
}
