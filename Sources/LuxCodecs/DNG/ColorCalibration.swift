public import LuxColor

/// The colour tags of a DNG: how camera values relate to CIE XYZ (DNG 1.7 chapter 6).
///
/// Matrices are stored as LuxColor ``Matrix3x3`` values for three-colour cameras. `colorMatrix` maps
/// XYZ to reference camera space under its calibration illuminant; `forwardMatrix` maps white-balanced
/// camera values to XYZ D50; `cameraCalibration` is the per-unit correction.
public struct ColorCalibration: Hashable, Sendable, Codable {
    /// XYZ → camera under ``calibrationIlluminant1`` (ColorMatrix1).
    public var colorMatrix1: Matrix3x3?
    /// XYZ → camera under ``calibrationIlluminant2`` (ColorMatrix2).
    public var colorMatrix2: Matrix3x3?
    /// The illuminant of the first calibration (CalibrationIlluminant1).
    public var calibrationIlluminant1: LightSource?
    /// The illuminant of the second calibration (CalibrationIlluminant2).
    public var calibrationIlluminant2: LightSource?
    /// White-balanced camera → XYZ D50 under the first illuminant (ForwardMatrix1).
    public var forwardMatrix1: Matrix3x3?
    /// White-balanced camera → XYZ D50 under the second illuminant (ForwardMatrix2).
    public var forwardMatrix2: Matrix3x3?
    /// Per-unit calibration (CameraCalibration1).
    public var cameraCalibration1: Matrix3x3?
    /// Per-unit calibration (CameraCalibration2).
    public var cameraCalibration2: Matrix3x3?
    /// Analog gain applied per colour plane before the ADC (AnalogBalance).
    public var analogBalance: [Double]?
    /// The camera-space value of a neutral under the scene illuminant (AsShotNeutral).
    public var asShotNeutral: [Double]?
    /// The scene white as a chromaticity (AsShotWhiteXY), the alternative to ``asShotNeutral``.
    public var asShotWhiteXY: Chromaticity?
    /// Signature tying ``cameraCalibration1``/``cameraCalibration2`` to a profile.
    public var cameraCalibrationSignature: String?
    /// Signature of the profile the calibration applies to.
    public var profileCalibrationSignature: String?
    /// Name of the embedded camera profile (ProfileName).
    public var profileName: String?

    /// Creates colour tags.
    public init(
        colorMatrix1: Matrix3x3? = nil, calibrationIlluminant1: LightSource? = nil, colorMatrix2: Matrix3x3? = nil,
        calibrationIlluminant2: LightSource? = nil, forwardMatrix1: Matrix3x3? = nil, forwardMatrix2: Matrix3x3? = nil,
        analogBalance: [Double]? = nil, asShotNeutral: [Double]? = nil
    ) {
        self.colorMatrix1 = colorMatrix1
        self.calibrationIlluminant1 = calibrationIlluminant1
        self.colorMatrix2 = colorMatrix2
        self.calibrationIlluminant2 = calibrationIlluminant2
        self.forwardMatrix1 = forwardMatrix1
        self.forwardMatrix2 = forwardMatrix2
        self.analogBalance = analogBalance
        self.asShotNeutral = asShotNeutral
    }
}

extension ColorCalibration {
    /// The calibration as LuxColor's DNG camera model (matrix interpolation by temperature, neutral ↔ white,
    /// camera → XYZ D50), or `nil` without ColorMatrix1 or for illuminants without a known temperature.
    ///
    /// Illuminant temperatures follow the Adobe DNG SDK table (``LightSource/temperature``).
    public var cameraColorCalibration: CameraColorCalibration? {
        guard let m1 = colorMatrix1 else { return nil }
        let t1 = calibrationIlluminant1?.temperature ?? LightSource.d65.temperature!
        let first = CameraColorCalibration.Illuminant(
            temperature: t1, colorMatrix: m1, forwardMatrix: forwardMatrix1, cameraCalibration: cameraCalibration1)
        var second: CameraColorCalibration.Illuminant?
        if let m2 = colorMatrix2, let t2 = calibrationIlluminant2?.temperature, t2 != t1 {
            second = .init(
                temperature: t2, colorMatrix: m2, forwardMatrix: forwardMatrix2, cameraCalibration: cameraCalibration2)
        }
        let balance = analogBalance.flatMap { $0.count >= 3 ? SIMD3($0[0], $0[1], $0[2]) : nil } ?? SIMD3(1, 1, 1)
        return CameraColorCalibration(first, second, analogBalance: balance)
    }

    /// The camera-space neutral of the scene white: AsShotNeutral, or AsShotWhiteXY converted through the
    /// calibration; `nil` when neither is given.
    public var sceneNeutral: SIMD3<Double>? {
        if let n = asShotNeutral, n.count >= 3 { return SIMD3(n[0], n[1], n[2]) }
        if let xy = asShotWhiteXY, let calibration = cameraColorCalibration { return try? calibration.neutral(for: xy) }
        return nil
    }
}
