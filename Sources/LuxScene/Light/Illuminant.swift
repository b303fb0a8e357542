public import LuxColor

/// A light source's spectral character: a black body (tungsten, candle) or CIE daylight, by correlated
/// colour temperature.
///
/// The nominal CIE temperatures are on the old radiation-constant scale: D65 is `.daylight(kelvin: 6504)`
/// and illuminant A is `.planckian(kelvin: 2856)`.
public enum Illuminant: Hashable, Sendable, Codable, CustomStringConvertible {
    /// A black-body radiator (Planck's law) at the given temperature in kelvin.
    case planckian(kelvin: Double)
    /// CIE daylight at the given correlated colour temperature in kelvin (4000…25000 K).
    case daylight(kelvin: Double)

    /// CIE standard illuminant A (tungsten, 2856 K).
    public static let a = Illuminant.planckian(kelvin: 2856)
    /// CIE standard illuminant D65 (noon daylight, 6504 K).
    public static let d65 = Illuminant.daylight(kelvin: 6504)
    /// CIE illuminant D50 (horizon daylight, 5003 K).
    public static let d50 = Illuminant.daylight(kelvin: 5003)
    /// A xenon flash tube, close to 5500 K daylight.
    public static let flash = Illuminant.daylight(kelvin: 5500)

    /// The natural light for a colour temperature: black body below 4000 K, CIE daylight from 4000 K up.
    public static func temperature(_ kelvin: Double) -> Illuminant {
        kelvin < 4000 ? .planckian(kelvin: kelvin) : .daylight(kelvin: kelvin)
    }

    /// The correlated colour temperature in kelvin.
    public var kelvin: Double {
        switch self {
        case .planckian(let k), .daylight(let k): k
        }
    }

    /// The relative spectral power distribution.
    public var spectrum: Spectrum {
        switch self {
        case .planckian(let k): .planckian(kelvin: k)
        case .daylight(let k): .daylight(kelvin: k)
        }
    }

    /// The chromaticity of the light (computed from its spectrum with the CIE 1931 observer).
    public var chromaticity: Chromaticity { spectrum.chromaticity }

    public var description: String {
        switch self {
        case .planckian(let k): "black body \(Int(k.rounded())) K"
        case .daylight(let k): "daylight \(Int(k.rounded())) K"
        }
    }
}

/// A light falling on (part of) a scene: its spectrum and its illuminance in lux.
public struct Light: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The spectral character.
    public var illuminant: Illuminant
    /// The illuminance on the lit surfaces in lux (lm/m²).
    ///
    /// A white Lambertian surface under `E` lux has a luminance of `E/π` cd/m².
    public var illuminance: Double

    /// Creates a light.
    public init(_ illuminant: Illuminant, lux: Double) {
        self.illuminant = illuminant
        self.illuminance = lux
    }

    public var description: String { "\(illuminant) at \(illuminance) lx" }
}

/// A flash: a light on the camera whose illuminance falls off with the square of the distance.
public struct Flash: Hashable, Sendable, Codable {
    /// The spectral character of the flash.
    public var illuminant: Illuminant
    /// The illuminance in lux on a surface 1 m from the camera, facing it.
    public var illuminanceAtOneMetre: Double

    /// Creates a flash (the default is a phone LED flash: about 50 lx at 1 m, close to 5500 K).
    public init(illuminant: Illuminant = .flash, illuminanceAtOneMetre: Double = 50) {
        self.illuminant = illuminant
        self.illuminanceAtOneMetre = illuminanceAtOneMetre
    }

    /// The illuminance in lux at `distance` metres (inverse-square law).
    public func illuminance(atDistance distance: Double) -> Double {
        illuminanceAtOneMetre / max(distance * distance, 1e-6)
    }
}
