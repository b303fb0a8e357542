import CLuxKernels
import LuxPixels
import LuxScene

/// The sensor simulation of ALGORITHMS.md §2.4, one row at a time: CFA radiance → photo-electrons → Poisson
/// shot noise → full-well clip → analog gain → Gaussian read noise → black level → 14-bit ADC.
///
/// Shot noise is exact Poisson (inversion of the CDF) below 24 expected electrons and Gaussian N(λ, λ) above,
/// which has the same mean and variance. Random numbers are counter-based (seed, pixel index), so a frame is
/// bit-identical on any thread count and any split into rows, and each frame index gets its own seed.
/// Each row runs in the C kernel `lux_sensor_row` (eight pixels at a time, AVX2 chosen at run time; its Swift
/// reference is in SensorRowKernelTests); the dim pixels' Poisson inversion runs over all of a row's dim pixels at
/// once, one CDF term per step.
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

    /// Supplies CFA radiance rows: called with a range of rows, it calls its second argument once per row
    /// with the row index and the radiance of the channel the CFA puts at each pixel.
    typealias RowSource = @Sendable (Range<Int>, (Int, UnsafePointer<Float>) -> Void) -> Void

    /// Reads the rows `source` supplies into `raw`, a Bayer-14 buffer.
    static func readout(parameters p: Parameters, into raw: inout PixelBuffer, threads: Int, source: RowSource) {
        let w = raw.width
        let h = raw.height
        let plane = raw.unsafeSharedMutablePlane(0)
        let constants = kernelParameters(p)
        withExtendedLifetime(raw) {
            Parallel.forEachBand(h, threads: threads, minimumBand: 8) { rows in
                let scratch = UnsafeMutablePointer<Float>.allocate(capacity: lux_sensor_scratch_count(w))
                defer { scratch.deallocate() }
                withUnsafePointer(to: constants) { k in
                    source(rows) { y, radiance in
                        lux_sensor_row(
                            radiance, plane.row(y, as: UInt16.self), w, UInt32(truncatingIfNeeded: y &* w), k, scratch)
                    }
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

    /// The frame's constants in the C kernel's form, with its three 32-bit seeds: shot noise, read noise, Poisson
    /// uniforms.
    static func kernelParameters(_ p: Parameters) -> lux_sensor_parameters {
        func seed(_ k: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: CounterRandom.hash(p.seed, k)) }
        return lux_sensor_parameters(
            electrons_per_unit: p.electronsPerUnit, dark_electrons: p.darkElectrons, full_well: p.fullWell,
            codes_per_electron: p.codesPerElectron, read_noise: p.readNoise, black_level: p.blackLevel,
            white_level: Int32(p.whiteLevel), seed_a: seed(1), seed_b: seed(2), seed_c: seed(3))
    }
}
