public import LuxColor
public import LuxScene

/// A camera's colour calibration in the DNG model: XYZ → camera matrices under two calibration illuminants
/// (``colorMatrix1`` under CIE A, ``colorMatrix2`` under D65), interpolated by inverse correlated colour
/// temperature, and forward matrices to D50 XYZ.
///
/// For the simulated camera the matrices are measured, not assumed: surfaces in the scene's spectral basis
/// are integrated against the sensor's sensitivities and the CIE observer under each illuminant, which gives
/// the exact linear relation between XYZ and camera RGB for that light. A RAW file carrying them is honest:
/// a DNG reader reproduces the scene colours within the interpolation error between the two illuminants.
public struct CameraCalibration: Hashable, Sendable {
    /// The first calibration illuminant (CIE A).
    public var illuminant1: Illuminant
    /// The second calibration illuminant (D65).
    public var illuminant2: Illuminant
    /// XYZ → camera under ``illuminant1``, scaled so the illuminant's white (Y = 1) has a largest camera value of 1.
    public var colorMatrix1: Matrix3x3
    /// XYZ → camera under ``illuminant2`` (same normalisation).
    public var colorMatrix2: Matrix3x3
    /// White-balanced camera → XYZ (D50) under ``illuminant1``; maps (1, 1, 1) to the D50 white.
    public var forwardMatrix1: Matrix3x3
    /// White-balanced camera → XYZ (D50) under ``illuminant2``.
    public var forwardMatrix2: Matrix3x3

    /// EXIF LightSource code of ``illuminant1`` (17 = standard light A).
    public var calibrationIlluminant1Code: Int { 17 }
    /// EXIF LightSource code of ``illuminant2`` (21 = D65).
    public var calibrationIlluminant2Code: Int { 21 }

    /// Calibrates a sensor with spectral sensitivities `response` under CIE A and D65.
    public init(response: SpectralResponse) {
        illuminant1 = .a
        illuminant2 = .d65
        (colorMatrix1, forwardMatrix1) = Self.matrices(response: response, illuminant: .a)
        (colorMatrix2, forwardMatrix2) = Self.matrices(response: response, illuminant: .d65)
    }

    /// A generic calibration for a camera whose sensor is unknown: camera RGB taken as linear sRGB (ITU-R BT.709
    /// primaries), so each colour matrix is the XYZ → linear sRGB matrix of IEC 61966-2-1, normalised per illuminant
    /// like a measured one.
    ///
    /// It claims no sensor's colour response: a DNG reader develops such a file as if the raw channels were linear
    /// sRGB, which is right for white balance and approximate for saturated colours.
    public static let linearSRGB = CameraCalibration(
        xyzToCamera: ColorSpace.linearSRGB.matrixToXYZ?.inverse ?? .identity)

    /// A calibration whose XYZ → camera relation is `xyzToCamera` under every light.
    init(xyzToCamera: Matrix3x3) {
        illuminant1 = .a
        illuminant2 = .d65
        (colorMatrix1, forwardMatrix1) = Self.matrices(xyzToCamera: xyzToCamera, illuminant: .a)
        (colorMatrix2, forwardMatrix2) = Self.matrices(xyzToCamera: xyzToCamera, illuminant: .d65)
    }

    static func matrices(response: SpectralResponse, illuminant: Illuminant) -> (Matrix3x3, Matrix3x3) {
        let k = response.coefficientMatrix(under: illuminant)
        let x = SpectralResponse.cie1931.coefficientMatrix(under: illuminant)
        return matrices(xyzToCamera: k * (x.inverse ?? .identity), illuminant: illuminant)
    }

    /// The colour matrix (normalised so the illuminant's white has a largest camera value of 1) and forward matrix
    /// of an XYZ → camera relation under `illuminant`.
    static func matrices(xyzToCamera: Matrix3x3, illuminant: Illuminant) -> (Matrix3x3, Matrix3x3) {
        var cm = xyzToCamera
        let whiteXYZ = illuminant.chromaticity.xyz(luminance: 1)
        let neutral = cm * whiteXYZ
        cm = (1 / neutral.max()) * cm
        let n = cm * whiteXYZ
        let adapt = ChromaticAdaptation.bradford(from: whiteXYZ, to: WhitePoint.iccD50XYZ)
        var fm = adapt * (cm.inverse ?? .identity) * Matrix3x3.diagonal(n)
        // Rows scaled so camera white (1, 1, 1) maps exactly to the D50 white.
        let w = fm * SIMD3(repeating: 1)
        let target = WhitePoint.iccD50XYZ
        fm = Matrix3x3.diagonal(target / w) * fm
        return (cm, fm)
    }

    /// The calibration in LuxColor's DNG model (colour and forward matrices under both illuminants); every
    /// neutral ↔ white and gains ↔ white conversion goes through it.
    public var colorCalibration: CameraColorCalibration {
        CameraColorCalibration(
            .init(temperature: illuminant1.kelvin, colorMatrix: colorMatrix1, forwardMatrix: forwardMatrix1),
            .init(temperature: illuminant2.kelvin, colorMatrix: colorMatrix2, forwardMatrix: forwardMatrix2))
    }

    /// XYZ → camera for a scene white of chromaticity `white` (interpolated by inverse CCT).
    public func colorMatrix(for white: Chromaticity) -> Matrix3x3 { colorCalibration.xyzToCamera(for: white) }

    /// The camera's raw response to a neutral surface lit by a white of chromaticity `white`, largest = 1
    /// (the DNG AsShotNeutral for that white).
    public func cameraNeutral(for white: Chromaticity) -> SIMD3<Double> {
        (try? colorCalibration.neutral(for: white)) ?? SIMD3(repeating: 1)
    }

    /// The white chromaticity whose camera neutral is `neutral` (DNG NeutralToXY).
    public func chromaticity(ofCameraNeutral neutral: SIMD3<Double>) -> Chromaticity {
        (try? colorCalibration.chromaticity(forNeutral: neutral)) ?? WhitePoint.d50
    }

    /// Camera → XYZ adapted to `destinationWhite` when the scene white has camera response `neutral`: the
    /// neutral maps to the destination white with Y = its largest component.
    public func cameraToXYZ(neutral: SIMD3<Double>, destinationWhite: Chromaticity) -> Matrix3x3 {
        let toD50 = (try? colorCalibration.cameraToXYZD50(neutral: neutral)) ?? .identity
        return ChromaticAdaptation.bradford(from: WhitePoint.iccD50XYZ, to: destinationWhite.xyz()) * toD50
    }
}
