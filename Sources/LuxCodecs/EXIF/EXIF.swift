/// Exif capture metadata as typed values (Exif 2.32, CIPA DC-008).
///
/// Read from JPEG APP1, PNG eXIf, and the IFD0/Exif/GPS directories of TIFF and DNG files; written back
/// to all of them. Properties cover what cameras and Lux's capture pipeline record; every other tag is
/// kept in ``additionalFields`` so it survives a round trip. Values stay exact (``Rational``), so
/// exiftool reads back what was read.
///
/// ```swift
/// var exif = EXIF()
/// exif.make = "Lux"
/// exif.exposureTime = Rational(1, 125)
/// exif.fNumber = Rational(18, 10)
/// exif.isoSpeed = 100
/// exif.dateTimeOriginal = EXIFDateTime(year: 2024, month: 6, day: 1, hour: 12, minute: 0, second: 0,
///                                      utcOffsetMinutes: 120)
/// ```
public struct EXIF: Hashable, Sendable, Codable {
    // MARK: IFD0 (TIFF) fields

    /// Camera maker (0x010F).
    public var make: String?
    /// Camera model (0x0110).
    public var model: String?
    /// Software that wrote the file (0x0131).
    public var software: String?
    /// Image description (0x010E).
    public var imageDescription: String?
    /// Artist (0x013B).
    public var artist: String?
    /// Copyright (0x8298).
    public var copyright: String?
    /// File modification date (0x0132, with SubSecTime 0x9290 and OffsetTime 0x9010).
    public var dateTime: EXIFDateTime?
    /// Orientation (0x0112).
    public var orientation: Orientation?

    // MARK: Exif IFD

    /// Exposure time in seconds (0x829A).
    public var exposureTime: Rational?
    /// F-number (0x829D).
    public var fNumber: Rational?
    /// Exposure program (0x8822): 1 manual, 2 normal program, 3 aperture priority, 4 shutter priority.
    public var exposureProgram: UInt16?
    /// ISO speed (PhotographicSensitivity 0x8827; values above 65 535 use ISOSpeed 0x8833).
    public var isoSpeed: Int?
    /// Sensitivity type (0x8830): 2 = REI, 3 = ISO speed.
    public var sensitivityType: UInt16?
    /// Exif version (0x9000), such as “0232”.
    public var exifVersion: String?
    /// When the picture was taken (0x9003, SubSecTimeOriginal 0x9291, OffsetTimeOriginal 0x9011).
    public var dateTimeOriginal: EXIFDateTime?
    /// When it was digitised (0x9004, 0x9292, 0x9012).
    public var dateTimeDigitized: EXIFDateTime?
    /// APEX shutter speed −log2(t) (0x9201).
    public var shutterSpeedValue: Rational?
    /// APEX aperture 2·log2(N) (0x9202).
    public var apertureValue: Rational?
    /// APEX brightness (0x9203).
    public var brightnessValue: Rational?
    /// Exposure bias in EV (0x9204).
    public var exposureBias: Rational?
    /// Smallest F-number of the lens, APEX (0x9205).
    public var maxApertureValue: Rational?
    /// Metering mode (0x9207): 1 average, 2 centre-weighted, 3 spot, 5 pattern.
    public var meteringMode: UInt16?
    /// Light source (0x9208).
    public var lightSource: LightSource?
    /// Flash (0x9209).
    public var flash: Flash?
    /// Focal length in millimetres (0x920A).
    public var focalLength: Rational?
    /// Maker note bytes (0x927C), copied verbatim.
    public var makerNote: [UInt8]?
    /// Colour space (0xA001): 1 sRGB, 0xFFFF uncalibrated (wide gamut with an ICC profile).
    public var colorSpace: UInt16?
    /// Image width recorded by the writer (0xA002).
    public var pixelXDimension: Int?
    /// Image height recorded by the writer (0xA003).
    public var pixelYDimension: Int?
    /// Sensing method (0xA217): 2 = one-chip colour area sensor.
    public var sensingMethod: UInt16?
    /// Exposure mode (0xA402): 0 auto, 1 manual, 2 auto bracket.
    public var exposureMode: UInt16?
    /// White balance (0xA403): 0 auto, 1 manual.
    public var whiteBalance: UInt16?
    /// Digital zoom ratio (0xA404).
    public var digitalZoomRatio: Rational?
    /// 35 mm equivalent focal length (0xA405).
    public var focalLengthIn35mmFilm: Int?
    /// Scene capture type (0xA406): 0 standard, 1 landscape, 2 portrait, 3 night.
    public var sceneCaptureType: UInt16?
    /// Unique image identifier (0xA420).
    public var imageUniqueID: String?
    /// Camera owner (0xA430).
    public var cameraOwnerName: String?
    /// Body serial number (0xA431).
    public var bodySerialNumber: String?
    /// Lens specification (0xA432): min/max focal length, F-number at each (0/0 = unknown).
    public var lensSpecification: [Rational]?
    /// Lens maker (0xA433).
    public var lensMake: String?
    /// Lens model (0xA434).
    public var lensModel: String?
    /// Lens serial number (0xA435).
    public var lensSerialNumber: String?

    /// GPS position (GPS IFD).
    public var gps: GPSInfo?

    /// Tags without a property above, by directory, kept for round trips.
    public var additionalFields: [EXIFField] = []

    /// Creates empty metadata.
    public init() {}

    /// Whether no field is set.
    public var isEmpty: Bool { self == EXIF() }

    /// The Apple maker note (Live Photo content identifier …), when ``makerNote`` holds one.
    public var appleMakerNote: AppleMakerNote? {
        get { makerNote.flatMap { AppleMakerNote(bytes: $0) } }
        set { makerNote = newValue?.encoded() }
    }
}

/// A tag kept verbatim in ``EXIF/additionalFields``.
public struct EXIFField: Hashable, Sendable, Codable {
    /// The directory a field belongs to.
    public enum Directory: String, Hashable, Sendable, Codable {
        /// IFD0 (TIFF fields such as XResolution).
        case primary
        /// The Exif IFD.
        case exif
        /// The GPS IFD.
        case gps
        /// The interoperability IFD.
        case interoperability
    }

    /// Where the field lives.
    public var directory: Directory
    /// The tag number.
    public var tag: UInt16
    /// The value.
    public var value: TIFFValue

    /// Creates a field.
    public init(directory: Directory, tag: UInt16, value: TIFFValue) {
        self.directory = directory
        self.tag = tag
        self.value = value
    }
}

/// A GPS position and time (the GPS IFD).
public struct GPSInfo: Hashable, Sendable, Codable {
    /// Latitude in degrees, north positive.
    public var latitude: Double?
    /// Longitude in degrees, east positive.
    public var longitude: Double?
    /// Altitude in metres above sea level (negative below).
    public var altitude: Double?
    /// UTC date “YYYY:MM:DD” (GPSDateStamp).
    public var dateStamp: String?
    /// UTC time of day in seconds (GPSTimeStamp).
    public var timeStamp: Double?
    /// Direction the camera pointed, degrees (GPSImgDirection).
    public var imageDirection: Double?
    /// Reference of ``imageDirection``: “T” true north, “M” magnetic.
    public var imageDirectionReference: String?

    /// Creates a position.
    public init(latitude: Double? = nil, longitude: Double? = nil, altitude: Double? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
    }
}
