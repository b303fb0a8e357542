/// Tag numbers used by the TIFF, Exif and DNG readers and writers.
enum TIFFTag {
    // TIFF 6.0 baseline and extensions
    static let newSubfileType: UInt16 = 254
    static let imageWidth: UInt16 = 256
    static let imageLength: UInt16 = 257
    static let bitsPerSample: UInt16 = 258
    static let compression: UInt16 = 259
    static let photometric: UInt16 = 262
    static let fillOrder: UInt16 = 266
    static let imageDescription: UInt16 = 270
    static let make: UInt16 = 271
    static let model: UInt16 = 272
    static let stripOffsets: UInt16 = 273
    static let orientation: UInt16 = 274
    static let samplesPerPixel: UInt16 = 277
    static let rowsPerStrip: UInt16 = 278
    static let stripByteCounts: UInt16 = 279
    static let xResolution: UInt16 = 282
    static let yResolution: UInt16 = 283
    static let planarConfiguration: UInt16 = 284
    static let resolutionUnit: UInt16 = 296
    static let software: UInt16 = 305
    static let dateTime: UInt16 = 306
    static let artist: UInt16 = 315
    static let predictor: UInt16 = 317
    static let tileWidth: UInt16 = 322
    static let tileLength: UInt16 = 323
    static let tileOffsets: UInt16 = 324
    static let tileByteCounts: UInt16 = 325
    static let subIFDs: UInt16 = 330
    static let extraSamples: UInt16 = 338
    static let sampleFormat: UInt16 = 339
    static let jpegInterchangeFormat: UInt16 = 513
    static let jpegInterchangeFormatLength: UInt16 = 514
    static let yCbCrCoefficients: UInt16 = 529
    static let yCbCrSubSampling: UInt16 = 530
    static let yCbCrPositioning: UInt16 = 531
    static let referenceBlackWhite: UInt16 = 532
    static let xmp: UInt16 = 700
    static let copyright: UInt16 = 33432
    static let cfaRepeatPatternDim: UInt16 = 33421
    static let cfaPattern: UInt16 = 33422
    static let exifIFD: UInt16 = 34665
    static let iccProfile: UInt16 = 34675
    static let gpsIFD: UInt16 = 34853
    static let interopIFD: UInt16 = 40965
    static let tiffEPStandardID: UInt16 = 37398
    // DNG
    static let dngVersion: UInt16 = 50706
    static let dngBackwardVersion: UInt16 = 50707
    static let uniqueCameraModel: UInt16 = 50708
    static let localizedCameraModel: UInt16 = 50709
    static let cfaPlaneColor: UInt16 = 50710
    static let cfaLayout: UInt16 = 50711
    static let linearizationTable: UInt16 = 50712
    static let blackLevelRepeatDim: UInt16 = 50713
    static let blackLevel: UInt16 = 50714
    static let blackLevelDeltaH: UInt16 = 50715
    static let blackLevelDeltaV: UInt16 = 50716
    static let whiteLevel: UInt16 = 50717
    static let defaultScale: UInt16 = 50718
    static let defaultCropOrigin: UInt16 = 50719
    static let defaultCropSize: UInt16 = 50720
    static let colorMatrix1: UInt16 = 50721
    static let colorMatrix2: UInt16 = 50722
    static let cameraCalibration1: UInt16 = 50723
    static let cameraCalibration2: UInt16 = 50724
    static let reductionMatrix1: UInt16 = 50725
    static let reductionMatrix2: UInt16 = 50726
    static let analogBalance: UInt16 = 50727
    static let asShotNeutral: UInt16 = 50728
    static let asShotWhiteXY: UInt16 = 50729
    static let baselineExposure: UInt16 = 50730
    static let baselineNoise: UInt16 = 50731
    static let baselineSharpness: UInt16 = 50732
    static let bayerGreenSplit: UInt16 = 50733
    static let linearResponseLimit: UInt16 = 50734
    static let cameraSerialNumber: UInt16 = 50735
    static let lensInfo: UInt16 = 50736
    static let chromaBlurRadius: UInt16 = 50737
    static let antiAliasStrength: UInt16 = 50738
    static let shadowScale: UInt16 = 50739
    static let dngPrivateData: UInt16 = 50740
    static let makerNoteSafety: UInt16 = 50741
    static let calibrationIlluminant1: UInt16 = 50778
    static let calibrationIlluminant2: UInt16 = 50779
    static let bestQualityScale: UInt16 = 50780
    static let rawDataUniqueID: UInt16 = 50781
    static let originalRawFileName: UInt16 = 50827
    static let activeArea: UInt16 = 50829
    static let maskedAreas: UInt16 = 50830
    static let asShotICCProfile: UInt16 = 50831
    static let cameraCalibrationSignature: UInt16 = 50931
    static let profileCalibrationSignature: UInt16 = 50932
    static let asShotProfileName: UInt16 = 50934
    static let profileName: UInt16 = 50936
    static let previewApplicationName: UInt16 = 50966
    static let previewApplicationVersion: UInt16 = 50967
    static let previewSettingsDigest: UInt16 = 50969
    static let previewColorSpace: UInt16 = 50970
    static let previewDateTime: UInt16 = 50971
    static let forwardMatrix1: UInt16 = 50964
    static let forwardMatrix2: UInt16 = 50965
    static let opcodeList1: UInt16 = 51008
    static let opcodeList2: UInt16 = 51009
    static let opcodeList3: UInt16 = 51022
    static let noiseProfile: UInt16 = 51041
    static let newRawImageDigest: UInt16 = 51111
    static let defaultUserCrop: UInt16 = 51125
    static let calibrationIlluminant3: UInt16 = 52529
    static let profileToneCurve: UInt16 = 50940
    static let profileGainTableMap: UInt16 = 52525

    private static let names: [UInt16: String] = [
        254: "NewSubFileType", 256: "ImageWidth", 257: "ImageLength", 258: "BitsPerSample", 259: "Compression",
        262: "PhotometricInterpretation", 266: "FillOrder", 271: "Make", 272: "Model", 273: "StripOffsets",
        274: "Orientation", 277: "SamplesPerPixel", 278: "RowsPerStrip", 279: "StripByteCounts",
        284: "PlanarConfiguration", 305: "Software", 306: "DateTime", 317: "Predictor", 322: "TileWidth",
        323: "TileLength", 324: "TileOffsets", 325: "TileByteCounts", 330: "SubIFDs", 338: "ExtraSamples",
        339: "SampleFormat", 513: "JPEGInterchangeFormat", 514: "JPEGInterchangeFormatLength", 700: "XMP",
        33421: "CFARepeatPatternDim", 33422: "CFAPattern", 34665: "ExifIFD", 34675: "ICCProfile",
        34853: "GPSInfo", 40965: "InteropIFD", 50706: "DNGVersion", 50707: "DNGBackwardVersion",
        50708: "UniqueCameraModel", 50710: "CFAPlaneColor", 50711: "CFALayout", 50712: "LinearizationTable",
        50713: "BlackLevelRepeatDim", 50714: "BlackLevel", 50715: "BlackLevelDeltaH", 50716: "BlackLevelDeltaV",
        50717: "WhiteLevel", 50718: "DefaultScale", 50719: "DefaultCropOrigin", 50720: "DefaultCropSize",
        50721: "ColorMatrix1", 50722: "ColorMatrix2", 50723: "CameraCalibration1", 50724: "CameraCalibration2",
        50727: "AnalogBalance", 50728: "AsShotNeutral", 50729: "AsShotWhiteXY", 50730: "BaselineExposure",
        50778: "CalibrationIlluminant1", 50779: "CalibrationIlluminant2", 50829: "ActiveArea",
        50830: "MaskedAreas", 50964: "ForwardMatrix1", 50965: "ForwardMatrix2", 51008: "OpcodeList1",
        51009: "OpcodeList2", 51022: "OpcodeList3", 51041: "NoiseProfile",
    ]

    /// The name of a tag, when known.
    static func name(_ tag: UInt16) -> String? { names[tag] }
}
