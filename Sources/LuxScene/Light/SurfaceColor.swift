public import LuxColor
import RealModule

/// The colour of a surface: its reflectance spectrum, expressed in the simulation's three-band basis.
///
/// A reflectance is stored as three coefficients `(long, middle, short)` weighting three smooth spectral
/// bands that add up to 1 at every wavelength (a partition of unity): the long band rises above ~595 nm,
/// the short band falls below ~490 nm, and the middle band is what remains. So `(ρ, ρ, ρ)` is a spectrally
/// flat grey of reflectance ρ, neutral under any light, and the ColorChecker patches all fit with
/// coefficients close to 0…1.
///
/// Why a spectral basis instead of storing XYZ or RGB: a camera whose sensitivities are not a linear
/// combination of the CIE colour-matching functions sees colours differently under different lights. With
/// reflectances and illuminant spectra, the simulated sensor's response, its XYZ→camera matrix under each
/// calibration illuminant (the DNG `ColorMatrix1/2`) and the scene's true colorimetry all follow from one
/// integration, so they are honest rather than assumed. A three-dimensional basis keeps the per-pixel cost at
/// one 3×3 matrix, computed once per light.
///
/// ```swift
/// let darkSkin = SurfaceColor(lab: SIMD3(37.54, 14.37, 14.92))   // ColorChecker patch 1, D50
/// let grey = SurfaceColor(reflectance: 0.18)
/// ```
public struct SurfaceColor: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The weights of the long, middle and short wavelength bands.
    public var coefficients: SIMD3<Double>

    /// Creates a colour from its band weights.
    public init(coefficients: SIMD3<Double>) { self.coefficients = coefficients }

    /// A spectrally flat (neutral) reflectance.
    public init(reflectance: Double) { coefficients = SIMD3(repeating: reflectance) }

    /// The colour whose tristimulus value, lit by `illuminant` normalised so a perfect white has Y = 1, is `xyz`.
    public init(xyz: SIMD3<Double>, under illuminant: Illuminant) {
        let m = SpectralResponse.cie1931.coefficientMatrix(under: illuminant)
        coefficients = (m.inverse ?? .identity) * xyz
    }

    /// The colour with CIE L*a*b* value `lab` relative to D50 (as ColorChecker data and ICC use), seen under CIE D50.
    ///
    /// The Lab white is the ICC D50 white; the XYZ is re-expressed relative to the white the basis yields under
    /// the D50 spectrum, so a Lab neutral maps to a spectrally flat reflectance.
    public init(lab: SIMD3<Double>) {
        let m = SpectralResponse.cie1931.coefficientMatrix(under: .d50)
        let white = m * SIMD3(repeating: 1)
        let xyzICC = Lab.toXYZ(lab, white: WhitePoint.d50)
        let xyz = xyzICC / WhitePoint.iccD50XYZ * white
        coefficients = (m.inverse ?? .identity) * xyz
    }

    /// The colour a linear sRGB value describes, taken as a reflectance seen under D65 (sRGB's white).
    public init(linearSRGB rgb: SIMD3<Double>) {
        let toXYZ = RGBPrimaries.rec709.matrixToXYZ(white: WhitePoint.d65) ?? .identity
        let m = SpectralResponse.cie1931.coefficientMatrix(under: .d65)
        let white = m * SIMD3(repeating: 1)
        let xyz = toXYZ * rgb / WhitePoint.d65.xyz() * white
        coefficients = (m.inverse ?? .identity) * xyz
    }

    /// A perfectly white (100 %) diffuser.
    public static let white = SurfaceColor(reflectance: 1)
    /// A black (0 %) surface.
    public static let black = SurfaceColor(reflectance: 0)

    /// The reflectance spectrum.
    public var reflectance: Spectrum {
        let b = Self.basis
        return coefficients.x * b.long + coefficients.y * b.middle + coefficients.z * b.short
    }

    /// The tristimulus value of the surface lit by `illuminant` (normalised so a perfect white has Y = 1).
    public func xyz(under illuminant: Illuminant) -> SIMD3<Double> {
        SpectralResponse.cie1931.coefficientMatrix(under: illuminant) * coefficients
    }

    /// The colour scaled in brightness (every band weight multiplied by `factor`).
    public func scaled(by factor: Double) -> SurfaceColor { SurfaceColor(coefficients: coefficients * factor) }

    /// The three spectral bands (long, middle, short) that reflectances are made of.
    ///
    /// They sum to 1 at every wavelength; the band edges are logistic with a 14 nm scale at 490 nm and 595 nm.
    public static let basis: (long: Spectrum, middle: Spectrum, short: Spectrum) = {
        let long = Spectrum { 1 / (1 + Double.exp(-($0 - 595) / 14)) }
        let short = Spectrum { 1 / (1 + Double.exp(($0 - 490) / 14)) }
        let middle = Spectrum(values: (0..<Spectrum.sampleCount).map { 1 - long.values[$0] - short.values[$0] })
        return (long, middle, short)
    }()

    public var description: String { "reflectance bands \(coefficients)" }
}

/// The spectral sensitivities of a three-channel detector: the CIE standard observer, or a camera sensor.
public struct SpectralResponse: Hashable, Sendable, Codable {
    /// The sensitivities of the three channels.
    public var channels: [Spectrum]

    /// Creates a detector from three sensitivity spectra.
    ///
    /// - Precondition: `channels.count == 3`.
    public init(channels: [Spectrum]) {
        precondition(channels.count == 3, "a spectral response has three channels")
        self.channels = channels
    }

    /// The CIE 1931 2° standard observer (x̄, ȳ, z̄): its response is CIE XYZ.
    public static let cie1931 = SpectralResponse(channels: [
        Spectrum.colorMatchingFunctions.x, Spectrum.colorMatchingFunctions.y, Spectrum.colorMatchingFunctions.z,
    ])

    /// The matrix from ``SurfaceColor`` coefficients to this detector's response, for surfaces lit by
    /// `illuminant` scaled so that a perfect white diffuser has luminance Y = 1.
    ///
    /// Multiply by a light's luminance factor (`lux / π` for cd/m²) to get absolute units.
    public func coefficientMatrix(under illuminant: Illuminant) -> Matrix3x3 {
        coefficientMatrix(lightSpectrum: illuminant.spectrum)
    }

    /// ``coefficientMatrix(under:)`` for an arbitrary light spectrum.
    public func coefficientMatrix(lightSpectrum e: Spectrum) -> Matrix3x3 {
        let norm = 1 / e.integral(against: Spectrum.colorMatchingFunctions.y)
        let b = SurfaceColor.basis
        let bands = [b.long, b.middle, b.short]
        var entries = [Double](repeating: 0, count: 9)
        for r in 0..<3 {
            let weighted = channels[r] * e
            for c in 0..<3 { entries[r * 3 + c] = weighted.integral(against: bands[c]) * norm }
        }
        return Matrix3x3(entries)
    }

    /// The response to a perfect white diffuser under `illuminant` (luminance 1).
    public func whiteResponse(under illuminant: Illuminant) -> SIMD3<Double> {
        coefficientMatrix(under: illuminant) * SIMD3(repeating: 1)
    }
}
