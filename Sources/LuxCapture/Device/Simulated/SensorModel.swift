public import LuxPixels
public import LuxScene
import RealModule

/// The physical parameters of a simulated image sensor and its lens.
///
/// Defaults describe a 12-megapixel phone sensor (ALGORITHMS.md §2.3): 1.4 µm pixels, 6000 e⁻ full well,
/// 1.6 e⁻ read noise, a 14-bit ADC with black level 1024, ISO 32…2048 (analog), RGGB filters with smooth spectral
/// sensitivities behind an IR-cut filter, and a 4.25 mm f/1.8 lens.
public struct SensorModel: Hashable, Sendable {
    /// Columns of photosites.
    public var width: Int
    /// Rows of photosites.
    public var height: Int
    /// Photosite pitch in millimetres.
    public var pixelPitch: Double
    /// The colour filter array layout.
    public var cfaPattern: CFAPattern
    /// Electrons a photosite holds before it clips, at base ISO.
    public var fullWellCapacity: Double
    /// The ADC code of zero signal.
    public var blackLevel: Int
    /// The largest ADC code (14 bits).
    public var whiteLevel: Int
    /// The ISO at unity analog gain.
    public var baseISO: Float
    /// The highest analog ISO.
    public var maxISO: Float
    /// Read noise before the analog gain, in electrons RMS.
    public var readNoise: Double
    /// Read noise after the gain (ADC and output stage), in ADC codes RMS.
    public var postGainReadNoise: Double
    /// Dark current in electrons per second.
    public var darkCurrent: Double
    /// The spectral sensitivities of the red, green and blue filtered photosites (green's response to a white
    /// diffuser under D65 is normalised to the white's luminance).
    public var response: SpectralResponse
    /// The lens.
    public var lens: ThinLens

    /// Creates a sensor.
    public init(
        width: Int, height: Int, pixelPitch: Double, cfaPattern: CFAPattern, fullWellCapacity: Double, blackLevel: Int,
        whiteLevel: Int, baseISO: Float, maxISO: Float, readNoise: Double, postGainReadNoise: Double,
        darkCurrent: Double, response: SpectralResponse, lens: ThinLens
    ) {
        self.width = width
        self.height = height
        self.pixelPitch = pixelPitch
        self.cfaPattern = cfaPattern
        self.fullWellCapacity = fullWellCapacity
        self.blackLevel = blackLevel
        self.whiteLevel = whiteLevel
        self.baseISO = baseISO
        self.maxISO = maxISO
        self.readNoise = readNoise
        self.postGainReadNoise = postGainReadNoise
        self.darkCurrent = darkCurrent
        self.response = response
        self.lens = lens
    }

    /// The default 12 MP phone sensor.
    public static let phone12MP = SensorModel(
        width: 4032, height: 3024, pixelPitch: 0.0014, cfaPattern: .rggb, fullWellCapacity: 6000, blackLevel: 1024,
        whiteLevel: 16383, baseISO: 32, maxISO: 2048, readNoise: 1.6, postGainReadNoise: 1.5, darkCurrent: 0.1,
        response: phoneResponse, lens: .phoneWide)

    /// Smooth camera sensitivities: skewed Gaussians peaking at 600, 535 and 465 nm with small side lobes, behind an
    /// IR-cut filter at 655 nm.
    ///
    /// Under D65 they need white-balance gains of about 2.3 (red) and 1.6 (blue) with green = 1, as real phone sensors
    /// do.
    public static let phoneResponse: SpectralResponse = {
        func lobe(_ l: Double, _ mu: Double, _ s1: Double, _ s2: Double) -> Double {
            let s = l < mu ? s1 : s2
            return Double.exp(-0.5 * (l - mu) * (l - mu) / (s * s))
        }
        func irCut(_ l: Double) -> Double { 1 / (1 + Double.exp((l - 655) / 8)) }
        let r = Spectrum { (lobe($0, 600, 30, 35) + 0.08 * lobe($0, 450, 20, 20)) * irCut($0) * 0.55 }
        let g = Spectrum { lobe($0, 535, 40, 40) * irCut($0) * 0.95 }
        let b = Spectrum { (lobe($0, 465, 30, 40) + 0.03 * lobe($0, 600, 30, 30)) * irCut($0) * 0.9 * 0.72 }
        let raw = SpectralResponse(channels: [r, g, b])
        let norm = 1 / raw.whiteResponse(under: .d65).y
        return SpectralResponse(channels: [norm * r, norm * g, norm * b])
    }()

    /// The sensor's width in millimetres.
    public var sensorWidth: Double { Double(width) * pixelPitch }

    /// Photo-electrons per (cd/m² · s / N²) of green-channel response, from ISO 12232 saturation speed:
    /// at base ISO, a uniform scene metered with the reflected-light constant K = 12.5 lands at 12.8 % of
    /// saturation (ALGORITHMS.md §5.1).
    public var electronsPerExposureUnit: Double { 0.128 * fullWellCapacity * Double(baseISO) / 12.5 }

    /// Analog gain for `iso` (1 at base ISO).
    public func gain(iso: Float) -> Double { Double(iso / baseISO) }

    /// The DNG NoiseProfile (S, O) of a frame at `iso` read with `binning` photosites per output pixel:
    /// variance of the normalised signal x ∈ 0…1 is `S·x + O` (ALGORITHMS.md §2.1–2.2).
    public func noiseProfile(iso: Float, binning: Double = 1) -> (scale: Double, offset: Double) {
        let range = Double(whiteLevel - blackLevel)
        let fullWell = fullWellCapacity * binning
        let g = gain(iso: iso) * range / fullWell  // DN per electron
        let readDN2 = (readNoise * readNoise * binning) * g * g + postGainReadNoise * postGainReadNoise
        return (g / range, readDN2 / (range * range) + 1 / (12 * range * range))
    }
}
