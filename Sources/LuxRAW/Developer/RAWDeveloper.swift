public import LuxCodecs
public import LuxColor
public import LuxPixels
public import LuxRender

/// Develops a raw image into a lazy, scene-referred ``Image``: the CIRAWFilter role.
///
/// Create a developer from a DNG (file URL, bytes) or from raw sensor data with its description
/// (``init(rawImage:)`` — what the capture pipeline hands over), adjust its parameters (each has a
/// documented range and a default read from the file), and read ``outputImage``. Nothing is computed until a
/// ``RenderContext`` renders the image; rendering streams tile by tile, so a 120-megapixel raw develops in
/// bounded memory.
///
/// ```swift
/// var developer = try RAWDeveloper(url: dngURL)
/// developer.exposure = 0.5                                   // EV, on top of the file's BaselineExposure
/// developer.luminanceNoiseReductionAmount += 0.1              // default read from the NoiseProfile
/// let image = try developer.outputImage                        // oriented and cropped, nothing computed yet
/// let photo = try RenderContext().createBuffer(image, format: .rgba8, colorSpace: .displayP3)
/// ```
///
/// The pipeline (``Version/v1``): sensor linearisation (LinearizationTable, per-cell black with row/column
/// deltas, white level, OpcodeList2 gain maps and vignetting) and white balance → demosaic
/// (``Adjustments/demosaicMethod``) → lens distortion and lateral CA (WarpRectilinear) → noise reduction → highlight recovery → camera RGB
/// to linear Rec. 2020 by the DNG colour model with the exposure → saturation/vibrance → tone curve
/// (``Adjustments/boostAmount``) → contrast → luminance sharpening → DefaultCrop and Orientation.
@dynamicMemberLookup
public struct RAWDeveloper: Sendable {
    /// Pins the processing pipeline: an edit saved with a version renders the same forever.
    public enum Version: Int, Hashable, Sendable, Codable, CaseIterable, CustomStringConvertible {
        /// The first pipeline (RCD + refinement, à-trous NR, blend highlight recovery, rational tone curve).
        case v1 = 1
        /// v1 with gamut mapping (``Adjustments/isGamutMappingEnabled``), drafts at the output size, and the controls
        /// added with it (scale factor, shadow boost, moiré reduction, noise-reduction detail, sharpness and
        /// contrast, the linear-space filter); with their defaults it renders v1's pixels wherever no colour leaves
        /// Rec. 2020.
        case v2 = 2
        /// v2 with clipped highlights rebuilt right after the demosaic (and again after noise reduction) and the
        /// purple fringes around them faded (``HighlightDefringe``), so that noise reduction no longer spreads their
        /// false colour into a magenta ring; it renders v2's pixels away from clipped photosites.
        case v3 = 3

        /// The newest version (what new developers use).
        public static let latest = Version.v3

        /// "v1", "v2" and so on.
        public var description: String { "v\(rawValue)" }
    }

    // MARK: The raw data

    /// The raw sensor data and its description.
    public let rawImage: RawImage
    /// The file's colour calibration in LuxColor's DNG model.
    public let calibration: CameraColorCalibration
    /// The camera neutral the file was shot with (AsShotNeutral, or AsShotWhiteXY converted; D50 if neither),
    /// largest component 1.
    public let asShotNeutral: SIMD3<Double>
    /// The noise model `(S, O)` used for noise reduction: the file's NoiseProfile (mean over planes), or one
    /// derived from BaselineNoise and ISO (`S = 2·10⁻⁵·BN·ISO/100`, `O = 4.5·10⁻⁷·BN·(ISO/100)²`).
    public let noiseModel: SIMD2<Double>
    let fileWhite: TemperatureAndTint

    // MARK: Parameters

    /// Every parameter (exposure, white balance, noise reduction, look, geometry) with its documented range; each is
    /// also readable and writable directly on the developer (`developer.exposure = 0.3`).
    ///
    /// Defaults are read from the file when the developer is created.
    public var adjustments: Adjustments

    /// A filter applied in linear, scene-referred space, after the colour transform and exposure and before
    /// saturation and the tone curve (Core Image's `linearSpaceFilter`), or `nil`.
    ///
    /// It receives and returns images in the render's working space (linear and extended like the pipeline's own
    /// values); keep their extent. Not part of ``adjustments``: a closure has no saved form.
    ///
    /// ```swift
    /// developer.linearSpaceFilter = { $0.applying(ColorKernel(...)) }
    /// ```
    public var linearSpaceFilter: (@Sendable (Image) -> Image)?

    /// Reads and writes one of the ``adjustments`` directly.
    public subscript<T>(dynamicMember keyPath: WritableKeyPath<Adjustments, T>) -> T {
        get { adjustments[keyPath: keyPath] }
        set { adjustments[keyPath: keyPath] = newValue }
    }

    // MARK: Creating

    /// Prepares raw sensor data with its description: the first-class path for frames that never were a
    /// file (a simulated `.bayer14` capture with ColorMatrix1/2, AsShotNeutral, NoiseProfile, black and
    /// white levels in its ``RawProperties``).
    ///
    /// - Throws: ``RAWError/unsupported(_:)`` for colour filter arrays other than Bayer and X-Trans,
    ///   ``RAWError/noPixelData(_:)`` when the pixels do not cover the description,
    ///   ``RAWError/missingColorCalibration(_:)`` without ColorMatrix1.
    public init(rawImage: RawImage) throws(RAWError) {
        if rawImage.properties.photometric == .linearRaw {
            _ = try LinearRawSensor(rawImage)
        } else {
            _ = try SensorLinearization(rawImage)
        }
        guard let calibration = rawImage.properties.color.cameraColorCalibration else {
            throw .missingColorCalibration("the raw image has no ColorMatrix1")
        }
        let p = rawImage.properties
        self.rawImage = rawImage
        self.calibration = calibration
        var neutral = p.color.sceneNeutral ?? ((try? calibration.neutral(for: WhitePoint.d50)) ?? SIMD3(1, 1, 1))
        if !(neutral.min() > 0) || !neutral.max().isFinite { neutral = SIMD3(1, 1, 1) }
        asShotNeutral = neutral / neutral.max()
        let white = (try? calibration.chromaticity(forNeutral: asShotNeutral)) ?? WhitePoint.d50
        fileWhite = TemperatureAndTint(chromaticity: white)
        noiseModel = Self.noiseModel(p)
        let nr = NoiseReduction.defaultAmounts(noiseModel: noiseModel)
        var defaults = Adjustments()
        defaults.baselineExposure = p.baselineExposure ?? 0
        defaults.neutralTemperature = fileWhite.temperature
        defaults.neutralTint = fileWhite.tint
        defaults.luminanceNoiseReductionAmount = nr.luminance
        defaults.colorNoiseReductionAmount = nr.color
        defaults.sharpnessAmount = min(max(0.5 * (p.baselineSharpness ?? 1), 0), 2)
        defaults.orientation = p.orientation
        adjustments = defaults
    }

    /// Prepares a Bayer buffer (`.bayer14`/`.bayer16`) described by `properties`.
    public init(pixels: PixelBuffer, properties: RawProperties) throws(RAWError) {
        try self.init(rawImage: RawImage(pixels: pixels, properties: properties))
    }

    /// Decodes and prepares a DNG (or TIFF/EP raw) held in memory.
    ///
    /// - Throws: ``RAWError/noPixelData(_:)`` for header-only, stripped or truncated files,
    ///   ``RAWError/decoding(_:)`` for other unreadable data, ``RAWError/notRaw(_:)`` for JPEG/PNG/TIFF
    ///   images, and the errors of ``init(rawImage:)``.
    public init(data: [UInt8]) throws(RAWError) {
        let file = try Self.decode { () throws(CodecError) in try ImageFile.read(data: data) }
        try self.init(file: file, name: "the data")
    }

    /// Runs a codec read, turning "the file has no sensor data" into ``RAWError/noPixelData(_:)``.
    static func decode(_ read: () throws(CodecError) -> ImageFile) throws(RAWError) -> ImageFile {
        do {
            return try read()
        } catch {
            if case .missingPixelData = error { throw .noPixelData(error.description) }
            throw .decoding(error)
        }
    }

    init(file: ImageFile, name: String) throws(RAWError) {
        guard let raw = file.rawImage else { throw .notRaw("\(name) (\(file.format))") }
        try self.init(rawImage: raw)
    }

    static func noiseModel(_ p: RawProperties) -> SIMD2<Double> {
        if let profile = p.noiseProfile, !profile.planes.isEmpty {
            let n = Double(profile.planes.count)
            let s = profile.planes.map(\.scale).reduce(0, +) / n
            let o = profile.planes.map(\.offset).reduce(0, +) / n
            if s > 0, o >= 0, s.isFinite, o.isFinite { return SIMD2(s, o) }
        }
        let bn = max(p.baselineNoise ?? 1, 0.01)
        let iso = Double(p.exif.isoSpeed ?? 100) / 100
        return SIMD2(2e-5 * bn * iso, 4.5e-7 * bn * iso * iso)
    }

    // MARK: Reading

    /// The size of the active area (the demosaiced image before cropping and orientation).
    public var nativeSize: Size {
        Size(width: Double(rawImage.properties.activeArea.width), height: Double(rawImage.properties.activeArea.height))
    }

    /// The description read from the file.
    public var properties: RawProperties { rawImage.properties }

    /// The temperature and tint of the as-shot white (what ``Adjustments/neutralTemperature`` and ``Adjustments/neutralTint`` start at).
    public var asShotWhite: TemperatureAndTint { fileWhite }

    /// The camera neutral for the current ``Adjustments/neutralTemperature``/``Adjustments/neutralTint`` (the file's AsShotNeutral
    /// exactly while they are unchanged).
    public func neutral() throws(RAWError) -> SIMD3<Double> {
        let a = adjustments
        if a.neutralTemperature == fileWhite.temperature && a.neutralTint == fileWhite.tint { return asShotNeutral }
        let white = TemperatureAndTint(temperature: a.neutralTemperature, tint: a.neutralTint).chromaticity
        do { return try calibration.neutral(for: white) } catch { throw .color(error) }
    }

    /// The white-balance gains applied to the mosaic (1/neutral, smallest 1).
    public func whiteBalanceGains() throws(RAWError) -> WhiteBalanceGains {
        let n = try neutral()
        do { return try WhiteBalanceGains(neutral: n) } catch { throw .color(error) }
    }
}
