public import LuxCodecs

/// Everything about one image or movie file read from its headers and metadata, without decoding pixels.
///
/// It is what `lux info` prints and the studio's metadata panel shows. Encoded as JSON, keys without a value are
/// left out; the keys are documented in `lux info --help` and stay stable (new keys may be added).
///
/// ```swift
/// let report = try FileReport(path: "IMG_0001.JPG")
/// print(report.exif?.model ?? "no camera", report.width, report.height)
/// for line in report.lines { print(line.label, line.value) }
/// ```
public struct FileReport: Codable, Sendable {
    /// The path as given.
    public var file: String
    /// "jpeg", "png", "tiff", "dng", "heic" or "quicktime".
    public var format: String
    /// A readable format name: "JPEG", "DNG 1.4", "NEF camera raw (LibRaw 0.20.2)", "QuickTime movie".
    public var formatName: String
    /// The width in pixels (of the video track for a movie).
    public var width: Int
    /// The height in pixels (of the video track for a movie).
    public var height: Int
    /// The stored samples' layout; absent for movies.
    public var pixels: Pixels?
    /// Compression and layout of the stored pixels.
    public var storage: String?
    /// The colour space's name (from the ICC profile or the format's tags).
    public var colorSpace: String?
    /// The embedded ICC profile, when there is one.
    public var iccProfile: ICCProfile?
    /// The common Exif fields, when the file has Exif.
    public var exif: EXIFSummary?
    /// The size of the XMP packet in bytes.
    public var xmpBytes: Int?
    /// The raw sensor data's description, for DNG files and camera raws.
    public var raw: RawSummary?
    /// A HEIF file's brands and every top-level image with its thumbnails, auxiliary images (depth, HDR gain map),
    /// colour description and metadata items.
    public var heif: HEIFContents?
    /// A QuickTime movie's brand, duration and tracks.
    public var movie: MovieSummary?
    /// The Live Photo content identifier and the pairing with the partner file beside this one.
    public var livePhoto: LivePhotoSummary?

    /// The layout of the stored samples.
    public struct Pixels: Codable, Sendable {
        /// "gray", "rgb", "cmyk" or "raw".
        public var colorModel: String?
        public var pixelFormat: String
        public var bitsPerSample: Int
        public var samplesPerPixel: Int
        public var hasAlpha: Bool
    }

    /// An embedded ICC profile's header and description.
    public struct ICCProfile: Codable, Sendable {
        /// The profile's description tag ('desc').
        public var description: String?
        public var bytes: Int
        /// The profile class: "input", "display", "output", "colour space", ...
        public var deviceClass: String?
        /// The data colour space: "RGB", "GRAY", "CMYK", ...
        public var colorSpace: String?
        /// The ICC version, such as "4.3".
        public var version: String?
    }

    /// The common Exif fields (numbers as decimals: exposureTime in seconds, focalLength in mm).
    public struct EXIFSummary: Codable, Sendable {
        public var make: String?
        public var model: String?
        public var lensMake: String?
        public var lensModel: String?
        public var software: String?
        public var artist: String?
        public var copyright: String?
        /// Exif orientation 1…8.
        public var orientation: Int?
        /// "YYYY:MM:DD HH:MM:SS" as stored.
        public var dateTimeOriginal: String?
        public var exposureTime: Double?
        public var fNumber: Double?
        public var iso: Int?
        public var focalLength: Double?
        public var focalLengthIn35mmFilm: Int?
        public var exposureBias: Double?
        public var exposureProgram: Int?
        public var meteringMode: Int?
        public var whiteBalance: Int?
        /// The Exif Flash value (bit 0: fired).
        public var flash: Int?
        public var latitude: Double?
        public var longitude: Double?
        public var altitude: Double?
    }

    /// DNG (and TIFF/EP raw) tags.
    public struct RawSummary: Codable, Sendable {
        /// DNGVersion, such as [1, 4, 0, 0]; absent for TIFF/EP raws.
        public var dngVersion: [Int]?
        public var uniqueCameraModel: String?
        /// "CFA RGGB" or "Linear Raw, 3 samples".
        public var layout: String
        public var bitsPerSample: Int
        /// "RGGB", "GRBG", "GBRG" or "BGGR" for Bayer sensors.
        public var cfaPattern: String?
        /// BlackLevel values (per repeat cell and plane).
        public var blackLevel: [Double]
        public var whiteLevel: [Double]
        public var linearizationTableEntries: Int?
        /// ActiveArea: top, left, bottom, right.
        public var activeArea: [Int]
        /// DefaultCropOrigin and DefaultCropSize: x, y, width, height.
        public var defaultCrop: [Double]?
        /// Row-major 3×3 (XYZ → camera).
        public var colorMatrix1: [Double]?
        public var colorMatrix2: [Double]?
        /// Exif LightSource code of CalibrationIlluminant1 (21 = D65, 17 = Standard A, …).
        public var calibrationIlluminant1: Int?
        public var calibrationIlluminant2: Int?
        public var forwardMatrix1: [Double]?
        public var forwardMatrix2: [Double]?
        public var asShotNeutral: [Double]?
        /// AsShotWhiteXY: x, y.
        public var asShotWhiteXY: [Double]?
        public var analogBalance: [Double]?
        /// The white point the colour tags imply for the scene.
        public var sceneWhite: SceneWhite?
        public var baselineExposure: Double?
        /// NoiseProfile: scale, offset per plane.
        public var noiseProfile: [Double]?
        public var opcodeList1: [String]?
        public var opcodeList2: [String]?
        public var opcodeList3: [String]?
        public var previews: [Preview]

        /// A white point as correlated colour temperature (K) and tint, and as CIE xy chromaticity.
        public struct SceneWhite: Codable, Sendable {
            public var temperature: Double
            public var tint: Double
            public var x: Double
            public var y: Double
        }

        /// An embedded preview image: its size and encoding.
        public struct Preview: Codable, Sendable {
            public var width: Int
            public var height: Int
            public var encoding: String
        }
    }

    /// A QuickTime movie's streams.
    public struct MovieSummary: Codable, Sendable {
        public var brand: String
        /// Seconds.
        public var duration: Double
        /// The Live Photo still-image time in seconds, when the movie has one.
        public var stillImageTime: Double?
        public var tracks: [Track]

        /// One track: its kind and codec, length, and the picture's or sound's format.
        public struct Track: Codable, Sendable {
            public var id: Int
            public var kind: String
            public var codec: String
            public var codecName: String
            public var duration: Double
            public var samples: Int
            public var width: Int?
            public var height: Int?
            public var frameRate: Double?
            public var sampleRate: Double?
            public var channels: Int?
        }
    }

    /// Live Photo pairing: the file's content identifier and its partner beside it.
    public struct LivePhotoSummary: Codable, Sendable {
        /// The content identifier in this file (Apple maker note of a still, metadata of a movie).
        public var contentIdentifier: String?
        /// The partner file beside this one (same base name), when it exists.
        public var partner: String?
        /// The partner's content identifier.
        public var partnerContentIdentifier: String?
        /// Whether the partner exists and both carry the same identifier: the two files are one Live Photo.
        public var paired: Bool
    }
}
