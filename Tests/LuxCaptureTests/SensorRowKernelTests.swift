import CLuxKernels
import LuxColor
import LuxScene
import LuxTestSupport
import Testing

/// The simulated sensor's row kernel (`lux_sensor_row`, LuxCapture's SensorReadout) against its definition written
/// as scalar Swift, on both code paths: the same codes, bit for bit.
@Suite(.serialized) struct SensorRowKernelTests {
    static let parameters = lux_sensor_parameters(
        electrons_per_unit: 3, dark_electrons: 0.5, full_well: 4000, codes_per_electron: 3.7, read_noise: 2.5,
        black_level: 512, white_level: 16383, seed_a: 0x1234_5678, seed_b: 0x9ABC_DEF0, seed_c: 0x0F1E_2D3C)

    /// Radiances from −1 to 2000 units on a sawtooth with pseudo-random steps: dim pixels (λ < 24), bright ones,
    /// negative ones (λ = 0) and ones past the full well.
    static func radiance(_ count: Int, dimShare: Int) -> [Float] {
        var random = SplitMix(seed: 77)
        return (0..<count).map { x in
            let unit = random.unit()
            return x % 10 < dimShare ? unit * 9 - 1 : unit * 2000
        }
    }

    @Test(
        "codes match the scalar definition on both paths",
        arguments: [(75, 3), (8, 10), (300, 9), (1, 10), (64, 0)])
    func matchesReference(width: Int, dimShare: Int) {
        let radiance = Self.radiance(width, dimShare: dimShare)
        let base: UInt32 = 4_000_000_000
        let expected = Self.reference(radiance, base: base, p: Self.parameters)
        KernelPaths.each { portable in
            var out = [UInt16](repeating: 0xFFFF, count: width)
            var scratch = [Float](repeating: .nan, count: lux_sensor_scratch_count(width))
            withUnsafePointer(to: Self.parameters) { lux_sensor_row(radiance, &out, width, base, $0, &scratch) }
            #expect(out == expected, "portable: \(portable)")
        }
    }

    // MARK: - Reference: the scalar definition

    static func gaussian(_ h: UInt32) -> Float {
        let pairs = (h & 0x00FF_00FF) &+ ((h >> 8) & 0x00FF_00FF)
        let sum = (pairs & 0xFFFF) &+ (pairs >> 16)
        return (Float(Int32(bitPattern: sum)) - 510) * 0.006_765_875
    }

    static func clamp(_ v: Float, _ lo: Float, _ hi: Float) -> Float {
        let a = v > lo ? v : lo
        return a < hi ? a : hi
    }

    static func code(_ v: Float, white: Int32) -> UInt16 {
        let rounded = Int32(bitPattern: (clamp(v, -2_097_152, 2_097_152) + 12_582_912).bitPattern &- 0x4B40_0000)
        return UInt16(truncatingIfNeeded: min(max(rounded, 0), white))
    }

    static func reference(_ radiance: [Float], base: UInt32, p: lux_sensor_parameters) -> [UInt16] {
        let w = radiance.count
        var out = [UInt16](repeating: 0, count: w)
        var lambda = [Float](repeating: 0, count: w)
        var z2s = [Float](repeating: 0, count: w)
        for x in 0..<w {
            let r = radiance[x] * p.electrons_per_unit + p.dark_electrons
            let l = r > 0 ? r : 0
            lambda[x] = l
            let i = (base &+ UInt32(x)) &* 0x9E37_79B9
            let z1 = gaussian(CounterRandom.hash32(i ^ p.seed_a))
            z2s[x] = gaussian(CounterRandom.hash32(i ^ p.seed_b))
            let electrons = clamp(l + l.squareRoot() * z1, 0, p.full_well)
            out[x] = code(
                p.black_level + p.codes_per_electron * electrons + p.read_noise * z2s[x], white: p.white_level)
        }
        // Exact Poisson counts by CDF inversion for the dim pixels, in chunks of 64 dim pixels.
        let dim = (0..<w).filter { lambda[$0] < 24 }
        var start = 0
        while start < dim.count {
            let chunk = dim[start..<min(dim.count, start + 64)]
            let top = chunk.reduce(Float(0)) { max($0, lambda[$1]) }
            let steps = min(160, Int(top + 10 * top.squareRoot() + 10))
            var state = chunk.map { x -> (u: Float, term: Float, cdf: Float, count: Float) in
                let i = (base &+ UInt32(x)) &* 0x9E37_79B9
                let u = Float(Int32(bitPattern: CounterRandom.hash32(i ^ p.seed_c) >> 8)) * (1 / 16_777_216)
                let t = fastExp2(-lambda[x] * 1.442_695_04)
                return (u, t, t, 0)
            }
            var first = 1
            while first <= steps {
                for s in first...min(steps, first + 7) {
                    let reciprocal = 1 / Float(s)
                    for (j, x) in chunk.enumerated() {
                        state[j].count += state[j].u > state[j].cdf ? 1 : 0
                        state[j].term *= lambda[x] * reciprocal
                        state[j].cdf += state[j].term
                    }
                }
                first += 8
                if !state.contains(where: { $0.u > $0.cdf }) { break }
            }
            for (j, x) in chunk.enumerated() {
                let electrons = min(state[j].count, p.full_well)
                out[x] = code(
                    p.black_level + p.codes_per_electron * electrons + p.read_noise * z2s[x], white: p.white_level)
            }
            start += 64
        }
        return out
    }
}
