public import LuxColor
import RealModule

/// A spectral distribution sampled every 5 nm from 380 nm to 780 nm (81 samples).
///
/// Spectra describe illuminants (relative power), surface reflectances and sensor sensitivities. Everything
/// colour-related in the simulation is derived by integrating spectra against each other, so a camera's
/// response, its colour matrices under two calibration illuminants and the scene's true colorimetry all
/// come from the same physics.
///
/// ```swift
/// let d65 = Spectrum.daylight(kelvin: 6504)
/// d65.chromaticity          // ≈ (0.3127, 0.3290)
/// ```
public struct Spectrum: Hashable, Sendable, Codable {
    /// The first sampled wavelength in nanometres.
    public static let firstWavelength = 380.0
    /// The sampling interval in nanometres.
    public static let interval = 5.0
    /// The number of samples.
    public static let sampleCount = 81
    /// The sampled wavelengths in nanometres.
    public static let wavelengths: [Double] = (0..<sampleCount).map { firstWavelength + Double($0) * interval }

    /// The samples, one per entry of ``wavelengths``.
    public var values: [Double]

    /// Creates a spectrum from its 81 samples.
    ///
    /// - Precondition: `values.count == 81`.
    public init(values: [Double]) {
        precondition(
            values.count == Self.sampleCount, "a spectrum has \(Self.sampleCount) samples, not \(values.count)")
        self.values = values
    }

    /// Creates a spectrum by evaluating `function` at every sampled wavelength (in nanometres).
    public init(_ function: (Double) -> Double) {
        values = Self.wavelengths.map(function)
    }

    /// A flat spectrum.
    public static func constant(_ value: Double) -> Spectrum {
        Spectrum(values: Array(repeating: value, count: sampleCount))
    }

    /// The sample-wise product.
    public static func * (lhs: Spectrum, rhs: Spectrum) -> Spectrum {
        Spectrum(values: zip(lhs.values, rhs.values).map { $0 * $1 })
    }

    /// The spectrum scaled by a constant.
    public static func * (lhs: Double, rhs: Spectrum) -> Spectrum { Spectrum(values: rhs.values.map { $0 * lhs }) }

    /// The sample-wise sum.
    public static func + (lhs: Spectrum, rhs: Spectrum) -> Spectrum {
        Spectrum(values: zip(lhs.values, rhs.values).map { $0 + $1 })
    }

    /// The integral of the sample-wise product with `other` (rectangle rule, Δλ = 5 nm).
    public func integral(against other: Spectrum) -> Double {
        var sum = 0.0
        for i in 0..<Self.sampleCount { sum += values[i] * other.values[i] }
        return sum * Self.interval
    }

    /// The CIE 1931 2° colour-matching functions x̄, ȳ, z̄.
    public static let colorMatchingFunctions: (x: Spectrum, y: Spectrum, z: Spectrum) = (
        Spectrum(values: SpectralTables.xBar), Spectrum(values: SpectralTables.yBar),
        Spectrum(values: SpectralTables.zBar)
    )

    /// The CIE XYZ tristimulus values of this spectrum taken as a stimulus (unnormalised).
    public var tristimulus: SIMD3<Double> {
        let cmf = Self.colorMatchingFunctions
        return SIMD3(integral(against: cmf.x), integral(against: cmf.y), integral(against: cmf.z))
    }

    /// The CIE 1931 chromaticity of this spectrum taken as a stimulus.
    public var chromaticity: Chromaticity {
        Chromaticity(xyz: tristimulus) ?? WhitePoint.d65
    }

    /// Planck's law: the relative spectral radiance of a black body at `kelvin` (normalised to 1 at 560 nm).
    public static func planckian(kelvin: Double) -> Spectrum {
        let c2 = 1.4388e-2  // second radiation constant, m·K (the value CIE illuminant A is defined with)
        func radiance(_ nm: Double) -> Double {
            let l = nm * 1e-9
            return 1 / (l * l * l * l * l * (Double.exp(c2 / (l * kelvin)) - 1))
        }
        let reference = radiance(560)
        return Spectrum { radiance($0) / reference }
    }

    /// A CIE daylight (D-series) spectrum with correlated colour temperature `kelvin` (4000…25000 K).
    ///
    /// The chromaticity follows the CIE daylight locus and the spectrum is S0 + M1·S1 + M2·S2 (CIE 15).
    /// Temperatures outside 4000…25000 K are clamped to that range.
    public static func daylight(kelvin: Double) -> Spectrum {
        let t = min(max(kelvin, 4000), 25000)
        let xy = daylightChromaticity(kelvin: t)
        let m = 0.0241 + 0.2562 * xy.x - 0.7341 * xy.y
        let m1 = (-1.3515 - 1.7703 * xy.x + 5.9114 * xy.y) / m
        let m2 = (0.0300 - 31.4424 * xy.x + 30.0717 * xy.y) / m
        return Spectrum(
            values: (0..<sampleCount).map {
                SpectralTables.daylightS0[$0] + m1 * SpectralTables.daylightS1[$0] + m2 * SpectralTables.daylightS2[$0]
            })
    }

    /// The chromaticity of CIE daylight at `kelvin` (the CIE daylight locus, 4000…25000 K).
    public static func daylightChromaticity(kelvin t: Double) -> Chromaticity {
        let x: Double =
            t <= 7000
            ? -4.6070e9 / (t * t * t) + 2.9678e6 / (t * t) + 0.09911e3 / t + 0.244063
            : -2.0064e9 / (t * t * t) + 1.9018e6 / (t * t) + 0.24748e3 / t + 0.237040
        return Chromaticity(x: x, y: -3.000 * x * x + 2.870 * x - 0.275)
    }
}
