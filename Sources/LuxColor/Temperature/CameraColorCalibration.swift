/// How a camera's raw RGB relates to CIE XYZ, in the DNG model (DNG specification chapter 6; Adobe DNG
/// SDK `dng_color_spec`): one or two calibration illuminants, each with a colour matrix (XYZ → camera)
/// and optionally a forward matrix (white-balanced camera → XYZ D50) and a per-unit camera calibration.
///
/// Matrices are interpolated between the two illuminants by inverse correlated colour temperature,
/// which is why converting a camera neutral to a white point iterates.
///
/// ```swift
/// let camera = CameraColorCalibration(
///     .init(temperature: 2856, colorMatrix: cmA), .init(temperature: 6504, colorMatrix: cmD65))
/// let gains = try camera.whiteBalanceGains(for: TemperatureAndTint(temperature: 5000, tint: 0))
/// let white = try camera.chromaticity(for: gains)           // back to ≈ 5000 K
/// let toXYZ = try camera.cameraToXYZD50(neutral: gains.neutral)
/// ```
public struct CameraColorCalibration: Hashable, Sendable, Codable {
    /// The matrices measured under one calibration illuminant (DNG `ColorMatrixN`, `ForwardMatrixN`,
    /// `CameraCalibrationN`, `CalibrationIlluminantN`).
    public struct Illuminant: Hashable, Sendable, Codable {
        /// The correlated colour temperature of the calibration illuminant in kelvin (StdA 2856, D50 5003,
        /// D65 6504, …).
        public var temperature: Double
        /// XYZ → reference camera RGB (DNG `ColorMatrix`).
        public var colorMatrix: Matrix3x3
        /// White-balanced reference camera RGB → XYZ D50 (DNG `ForwardMatrix`), if measured.
        public var forwardMatrix: Matrix3x3?
        /// Reference camera → this unit's camera RGB (DNG `CameraCalibration`); `nil` is the identity.
        public var cameraCalibration: Matrix3x3?

        /// Creates a calibration illuminant.
        public init(
            temperature: Double, colorMatrix: Matrix3x3, forwardMatrix: Matrix3x3? = nil,
            cameraCalibration: Matrix3x3? = nil
        ) {
            self.temperature = temperature
            self.colorMatrix = colorMatrix
            self.forwardMatrix = forwardMatrix
            self.cameraCalibration = cameraCalibration
        }
    }

    /// The first calibration illuminant.
    public var first: Illuminant
    /// The second calibration illuminant, or `nil` for a single-illuminant calibration.
    public var second: Illuminant?
    /// Per-channel analog gains applied before digitisation (DNG `AnalogBalance`), normally (1, 1, 1).
    public var analogBalance: SIMD3<Double>

    /// Creates a calibration from one or two illuminants.
    public init(_ first: Illuminant, _ second: Illuminant? = nil, analogBalance: SIMD3<Double> = SIMD3(1, 1, 1)) {
        self.first = first
        self.second = second
        self.analogBalance = analogBalance
    }

    /// Creates a calibration with one fixed XYZ → camera matrix, used whatever the white.
    public init(colorMatrix: Matrix3x3) {
        self.init(Illuminant(temperature: 5003, colorMatrix: colorMatrix))
    }

    // MARK: Matrices for a white

    /// The weight of the first illuminant for a white of correlated colour temperature `temperature`:
    /// `(1/T − 1/T₂)/(1/T₁ − 1/T₂)`, clamped to 0…1 (1 without a second illuminant).
    public func firstIlluminantWeight(temperature: Double) -> Double {
        guard let second, second.temperature != first.temperature else { return 1 }
        let g = (1 / temperature - 1 / second.temperature) / (1 / first.temperature - 1 / second.temperature)
        return min(max(g, 0), 1)
    }

    private func interpolated(_ white: Chromaticity) -> (
        xyzToCamera: Matrix3x3, forward: Matrix3x3?, calibration: Matrix3x3
    ) {
        let g = firstIlluminantWeight(temperature: TemperatureAndTint(chromaticity: white).temperature)
        func mix(_ a: Matrix3x3, _ b: Matrix3x3?) -> Matrix3x3 {
            guard let b, g < 1 else { return a }
            return g * a + (1 - g) * b
        }
        let colorMatrix = mix(first.colorMatrix, second?.colorMatrix)
        let calibration = mix(first.cameraCalibration ?? .identity, second.map { $0.cameraCalibration ?? .identity })
        var forward: Matrix3x3?
        if let f1 = first.forwardMatrix {
            forward = mix(f1, second?.forwardMatrix ?? (second == nil ? nil : f1))
        }
        return (Matrix3x3.diagonal(analogBalance) * calibration * colorMatrix, forward, calibration)
    }

    /// XYZ → this camera's raw RGB for a scene lit by `white` (analog balance · camera calibration ·
    /// colour matrix, interpolated for the white's temperature).
    public func xyzToCamera(for white: Chromaticity) -> Matrix3x3 { interpolated(white).xyzToCamera }

    // MARK: Neutral ↔ white

    /// The camera's raw RGB for a white surface lit by `white`, normalised so its largest component is 1
    /// (DNG `AsShotNeutral`).
    ///
    /// - Throws: ``ColorError/outOfRange(name:value:allowed:)`` when the white maps to a non-positive
    ///   camera response (far outside what the camera can see, or a broken matrix).
    public func neutral(for white: Chromaticity) throws(ColorError) -> SIMD3<Double> {
        let raw = xyzToCamera(for: white) * white.xyz()
        let largest = raw.max()
        guard largest > 0, largest.isFinite else {
            throw .outOfRange(name: "camera response to the white", value: largest, allowed: Self.positive)
        }
        return raw / largest
    }

    /// The white whose camera response is `neutral` (the DNG SDK's `NeutralToXY`).
    ///
    /// Starting from D50, repeatedly maps the neutral to XYZ with the matrix interpolated for the current
    /// estimate, until the chromaticity moves less than 10⁻⁷ (at most 30 passes; if it still moves, the
    /// last two estimates are averaged, since they oscillate).
    ///
    /// - Throws: ``ColorError/outOfRange(name:value:allowed:)`` for a neutral with a non-positive or
    ///   non-finite component; ``ColorError/unsupportedConversion(from:to:reason:)`` when the colour
    ///   matrix is singular or maps the neutral to black.
    public func chromaticity(forNeutral neutral: SIMD3<Double>) throws(ColorError) -> Chromaticity {
        for i in 0..<3 where !(neutral[i] > 0 && neutral[i].isFinite) {
            throw .outOfRange(name: "camera neutral component \(i)", value: neutral[i], allowed: Self.positive)
        }
        var last = WhitePoint.d50
        for pass in 0..<30 {
            guard let inverse = xyzToCamera(for: last).inverse else {
                throw .unsupportedConversion(from: "camera RGB", to: "XYZ", reason: "the colour matrix is singular")
            }
            guard var next = Chromaticity(xyz: inverse * neutral) else {
                throw .unsupportedConversion(from: "camera RGB", to: "XYZ", reason: "the neutral maps to black")
            }
            if abs(next.x - last.x) + abs(next.y - last.y) < 1e-7 { return next }
            if pass == 29 { next = Chromaticity(x: (next.x + last.x) / 2, y: (next.y + last.y) / 2) }
            last = next
        }
        return last
    }

    /// The matrix from this camera's raw RGB to XYZ relative to D50 (the ICC connection space) when the
    /// scene white has camera response `neutral`; the neutral maps to the D50 white.
    ///
    /// With forward matrices: `FM · diag(1/neutral′) · (AB · CC)⁻¹`, with `FM` scaled so that (1, 1, 1)
    /// maps to D50 and `neutral′` the neutral in reference-camera space. Without: Adobe's "adapt in XYZ"
    /// path, the inverse of `colorMatrix · Bradford(D50 → white)` scaled so the white maps to D50.
    ///
    /// - Throws: as ``chromaticity(forNeutral:)``, and
    ///   ``ColorError/unsupportedConversion(from:to:reason:)`` when a matrix is singular.
    public func cameraToXYZD50(neutral: SIMD3<Double>) throws(ColorError) -> Matrix3x3 {
        let white = try chromaticity(forNeutral: neutral)
        let (xyzToCamera, forward, calibration) = interpolated(white)
        let d50 = WhitePoint.iccD50XYZ
        func singular(_ what: String) -> ColorError {
            .unsupportedConversion(from: "camera RGB", to: "XYZ", reason: "the \(what) is singular")
        }
        if let forward {
            guard let individualToReference = (Matrix3x3.diagonal(analogBalance) * calibration).inverse else {
                throw singular("camera calibration")
            }
            let referenceWhite = individualToReference * neutral
            let rowSums = forward * SIMD3(1, 1, 1)
            let normalized = Matrix3x3.diagonal(d50 / rowSums) * forward
            return normalized * Matrix3x3.diagonal(1 / referenceWhite) * individualToReference
        }
        var pcsToCamera = xyzToCamera * ChromaticAdaptation.bradford(from: d50, to: white.xyz())
        let scale = (pcsToCamera * d50).max()
        pcsToCamera = (1 / scale) * pcsToCamera
        guard let cameraToPCS = pcsToCamera.inverse else { throw singular("colour matrix") }
        return cameraToPCS
    }

    // MARK: White balance

    /// The gains that make a white surface lit by `white` neutral (Apple's
    /// `deviceWhiteBalanceGains(for:)`), normalised so the smallest is 1.
    ///
    /// - Throws: as ``neutral(for:)``.
    public func whiteBalanceGains(for white: Chromaticity) throws(ColorError) -> WhiteBalanceGains {
        try WhiteBalanceGains(neutral: neutral(for: white))
    }

    /// The gains for a white given as temperature and tint, normalised so the smallest is 1.
    ///
    /// - Throws: as ``neutral(for:)``.
    public func whiteBalanceGains(for white: TemperatureAndTint) throws(ColorError) -> WhiteBalanceGains {
        try whiteBalanceGains(for: white.chromaticity)
    }

    /// The white that `gains` neutralise (Apple's `chromaticityValues(for:)`).
    ///
    /// - Throws: as ``chromaticity(forNeutral:)``.
    public func chromaticity(for gains: WhiteBalanceGains) throws(ColorError) -> Chromaticity {
        try chromaticity(forNeutral: gains.neutral)
    }

    /// The temperature and tint of the white that `gains` neutralise (Apple's
    /// `temperatureAndTintValues(for:)`).
    ///
    /// - Throws: as ``chromaticity(forNeutral:)``.
    public func temperatureAndTint(for gains: WhiteBalanceGains) throws(ColorError) -> TemperatureAndTint {
        TemperatureAndTint(chromaticity: try chromaticity(for: gains))
    }

    static let positive = Double.leastNormalMagnitude...Double.greatestFiniteMagnitude
}
