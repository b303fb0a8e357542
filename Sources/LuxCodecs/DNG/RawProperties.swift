import LuxColor
public import LuxPixels

/// Everything a DNG (or TIFF/EP raw) file says about its raw image, without the pixels.
///
/// Coordinates follow DNG: the stored image is `width × height`; ``activeArea`` is the part with real
/// sensor data (the rest is masked/optical-black border); ``defaultCrop`` is relative to the active area;
/// the CFA pattern and black-level pattern start at the active area's top-left corner.
public struct RawProperties: Hashable, Sendable, Codable {
    /// DNGVersion (four bytes, such as 1.4.0.0); `nil` for TIFF/EP files that are not DNG.
    public var dngVersion: [UInt8]?
    /// DNGBackwardVersion: the oldest reader version that can read the file.
    public var dngBackwardVersion: [UInt8]?
    /// UniqueCameraModel (maker and model, used to look up camera profiles).
    public var uniqueCameraModel: String?
    /// LocalizedCameraModel.
    public var localizedCameraModel: String?
    /// CameraSerialNumber.
    public var cameraSerialNumber: String?

    /// Stored width in pixels (including masked areas).
    public var width: Int
    /// Stored height in pixels.
    public var height: Int
    /// How samples are organised.
    public var photometric: RawPhotometric
    /// Bits per stored sample (such as 12, 14 or 16).
    public var bitsPerSample: Int
    /// Samples per pixel (1 for CFA, 3 for Linear Raw).
    public var samplesPerPixel: Int
    /// Whether samples are floating point (DNG 1.4 HDR files).
    public var isFloatingPoint: Bool
    /// How the raw data was stored in the file (for information).
    public var storage: RawStorage

    /// The colour filter array (CFA images).
    public var cfa: CFALayout?
    /// LinearizationTable: maps stored values to linear values before black subtraction.
    public var linearizationTable: [UInt16]?
    /// The black levels.
    public var blackLevel: BlackLevel
    /// WhiteLevel per sample plane (defaults to 2^bitsPerSample − 1).
    public var whiteLevel: [Double]
    /// ActiveArea (defaults to the whole image).
    public var activeArea: RawArea
    /// MaskedAreas (optical black), if given.
    public var maskedAreas: [RawArea]
    /// DefaultCropOrigin/Size, relative to the active area.
    public var defaultCrop: DefaultCrop?
    /// DefaultScale (horizontal, vertical) for non-square pixels.
    public var defaultScale: [Double]?
    /// BestQualityScale.
    public var bestQualityScale: Double?
    /// DefaultUserCrop (top, left, bottom, right as fractions of the default crop).
    public var defaultUserCrop: [Double]?

    /// Colour matrices, illuminants and white balance.
    public var color: ColorCalibration
    /// BaselineExposure in EV.
    public var baselineExposure: Double?
    /// BaselineNoise.
    public var baselineNoise: Double?
    /// BaselineSharpness.
    public var baselineSharpness: Double?
    /// LinearResponseLimit.
    public var linearResponseLimit: Double?
    /// BayerGreenSplit.
    public var bayerGreenSplit: Int?
    /// AntiAliasStrength.
    public var antiAliasStrength: Double?
    /// ChromaBlurRadius.
    public var chromaBlurRadius: Double?
    /// ShadowScale.
    public var shadowScale: Double?
    /// NoiseProfile.
    public var noiseProfile: NoiseProfile?
    /// ProfileToneCurve: the camera profile's default tone curve as (input, output) pairs in linear values, 0…1.
    public var profileToneCurve: [SIMD2<Double>]?
    /// ProfileGainTableMap: local gain tables applied before the tone curve (iPhone ProRAW).
    public var profileGainTableMap: ProfileGainTableMap?

    /// OpcodeList1: applied to stored values before linearisation.
    public var opcodeList1: [DNGOpcode]
    /// OpcodeList2: applied to linear values of the active area.
    public var opcodeList2: [DNGOpcode]
    /// OpcodeList3: applied after demosaicing.
    public var opcodeList3: [DNGOpcode]

    /// Exif and IFD0 descriptive fields (make, model, orientation, exposure …).
    public var exif: EXIF
    /// The XMP packet.
    public var xmp: [UInt8]?
    /// Embedded previews and thumbnails.
    public var previews: [EmbeddedPreview]
    /// RawDataUniqueID (16 bytes).
    public var rawDataUniqueID: [UInt8]?
    /// OriginalRawFileName.
    public var originalRawFileName: String?
    /// Other tags of IFD0 and the raw IFD (camera profile tables, private data …), kept verbatim.
    public var additionalTags: [UInt16: TIFFValue]

    /// Creates a description of a `width × height` CFA image with the given pattern and levels; everything
    /// else starts at its DNG default.
    public init(
        width: Int, height: Int, cfa: CFAPattern, bitsPerSample: Int = 16, blackLevel: BlackLevel = BlackLevel(0),
        whiteLevel: Double? = nil
    ) {
        self.init(
            width: width, height: height, photometric: .colorFilterArray, samplesPerPixel: 1,
            bitsPerSample: bitsPerSample)
        self.cfa = CFALayout(cfa)
        self.blackLevel = blackLevel
        if let whiteLevel { self.whiteLevel = [whiteLevel] }
    }

    /// Creates a description with DNG defaults.
    public init(width: Int, height: Int, photometric: RawPhotometric, samplesPerPixel: Int, bitsPerSample: Int) {
        self.width = width
        self.height = height
        self.photometric = photometric
        self.samplesPerPixel = samplesPerPixel
        self.bitsPerSample = bitsPerSample
        self.isFloatingPoint = false
        self.storage = RawStorage(compression: 1)
        self.blackLevel = BlackLevel(0, planes: samplesPerPixel)
        let white = bitsPerSample >= 32 ? 1.0 : Double((1 << min(bitsPerSample, 31)) - 1)
        self.whiteLevel = Array(repeating: white, count: samplesPerPixel)
        self.activeArea = RawArea(top: 0, left: 0, bottom: height, right: width)
        self.maskedAreas = []
        self.color = ColorCalibration()
        self.opcodeList1 = []
        self.opcodeList2 = []
        self.opcodeList3 = []
        self.exif = EXIF()
        self.previews = []
        self.additionalTags = [:]
    }

    /// The camera maker (Exif Make).
    public var make: String? {
        get { exif.make }
        set { exif.make = newValue }
    }

    /// The camera model (Exif Model).
    public var model: String? {
        get { exif.model }
        set { exif.model = newValue }
    }

    /// The orientation (Exif/TIFF tag 274).
    public var orientation: Orientation {
        get { exif.orientation ?? .up }
        set { exif.orientation = newValue }
    }

    /// The Bayer pattern at the top-left of the active area, for 2×2 RGB CFAs.
    public var cfaPattern: CFAPattern? { cfa?.bayerPattern }

    /// The X-Trans pattern at the top-left of the active area, for Fujifilm's 6×6 CFAs.
    public var xTransPattern: XTransPattern? { cfa?.xTransPattern }

    /// The Bayer pattern at stored pixel (0, 0) (the active area may start on an odd row or column).
    public var storedCFAPattern: CFAPattern? {
        cfaPattern?.shifted(x: -activeArea.left & 1, y: -activeArea.top & 1)
    }

    /// The X-Trans pattern at stored pixel (0, 0).
    public var storedXTransPattern: XTransPattern? {
        xTransPattern?.shifted(x: -activeArea.left, y: -activeArea.top)
    }

    /// The pixel format decoded samples are stored in: `.bayer16` or `.xTrans16` for those CFAs (`.gray16` for other
    /// CFAs and monochrome data), `.rgba16` for Linear Raw, `.grayFloat`/`.rgbaFloat` for floating-point data.
    public var storedPixelFormat: PixelFormat {
        if isFloatingPoint { return samplesPerPixel == 1 ? .grayFloat : .rgbaFloat }
        guard samplesPerPixel == 1 else { return .rgba16 }
        if let p = storedCFAPattern { return .bayer16(p) }
        if let p = storedXTransPattern { return .xTrans16(p) }
        return .gray16
    }
}

/// How the raw samples were stored in the file.
public struct RawStorage: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The TIFF compression code (1 none, 7 JPEG/lossless JPEG, 8 Deflate, 34892 lossy JPEG, 52546 JPEG XL; 0 for a
    /// camera raw read through LibRaw).
    public var compression: Int
    /// The predictor (1 none, 2 horizontal, 3 floating point, 34892… DNG variants).
    public var predictor: Int
    /// Tile size, or `nil` for strips.
    public var tileWidth: Int?
    /// Tile height, or `nil` for strips.
    public var tileLength: Int?
    /// Rows per strip, for strips.
    public var rowsPerStrip: Int?
    /// The number of strips or tiles.
    public var chunkCount: Int
    /// The lossless-JPEG predictor of the first tile (1–7), when the data is lossless JPEG.
    public var losslessJPEGPredictor: Int?
    /// The library and routine that decoded the data when it was not LuxCodecs' own decoder, such as
    /// "LibRaw 0.20.2 nikon_load_raw()" (``compression`` is then 0).
    public var decoder: String?

    /// Creates a description.
    public init(
        compression: Int, predictor: Int = 1, tileWidth: Int? = nil, tileLength: Int? = nil, rowsPerStrip: Int? = nil,
        chunkCount: Int = 1
    ) {
        self.compression = compression
        self.predictor = predictor
        self.tileWidth = tileWidth
        self.tileLength = tileLength
        self.rowsPerStrip = rowsPerStrip
        self.chunkCount = chunkCount
    }

    public var description: String {
        if let decoder { return decoder }
        let name: String
        switch compression {
        case 1: name = "uncompressed"
        case 7: name = "lossless JPEG" + (losslessJPEGPredictor.map { " (predictor \($0))" } ?? "")
        case 8, 32946: name = "Deflate"
        case 34892: name = "lossy JPEG"
        case 52546: name = "JPEG XL"
        default: name = "compression \(compression)"
        }
        let layout =
            if let w = tileWidth, let h = tileLength {
                "\(chunkCount) tile\(chunkCount == 1 ? "" : "s") of \(w)×\(h)"
            } else { "\(chunkCount) strip\(chunkCount == 1 ? "" : "s")" }
        return "\(name), \(layout)"
    }
}
