import Foundation
import Lux

/// `lux info --json`: everything about one file.
///
/// Keys without a value are left out; the keys are documented in `lux info --help` and stay stable (new keys may be
/// added).
struct FileReport: Codable, Sendable {
    /// The path as given.
    var file: String
    /// "jpeg", "png", "tiff", "dng", "heic" or "quicktime".
    var format: String
    /// A readable format name: "JPEG", "DNG 1.4", "NEF camera raw (LibRaw 0.20.2)", "QuickTime movie".
    var formatName: String
    var width: Int
    var height: Int
    var pixels: Pixels?
    /// Compression and layout of the stored pixels.
    var storage: String?
    /// The colour space's name (from the ICC profile or the format's tags).
    var colorSpace: String?
    var iccProfile: ICCProfile?
    var exif: EXIFSummary?
    /// The size of the XMP packet in bytes.
    var xmpBytes: Int?
    var raw: RawSummary?
    /// A HEIF file's brands and every top-level image with its thumbnails, auxiliary images (depth, HDR gain map),
    /// colour description and metadata items.
    var heif: HEIFContents?
    var movie: MovieSummary?
    var livePhoto: LivePhotoSummary?

    struct Pixels: Codable, Sendable {
        /// "gray", "rgb", "cmyk" or "raw".
        var colorModel: String?
        var pixelFormat: String
        var bitsPerSample: Int
        var samplesPerPixel: Int
        var hasAlpha: Bool
    }

    struct ICCProfile: Codable, Sendable {
        /// The profile's description tag ('desc').
        var description: String?
        var bytes: Int
        /// The profile class: "input", "display", "output", "colour space", ...
        var deviceClass: String?
        /// The data colour space: "RGB", "GRAY", "CMYK", ...
        var colorSpace: String?
        /// The ICC version, such as "4.3".
        var version: String?
    }

    /// The common Exif fields (numbers as decimals: exposureTime in seconds, focalLength in mm).
    struct EXIFSummary: Codable, Sendable {
        var make: String?
        var model: String?
        var lensMake: String?
        var lensModel: String?
        var software: String?
        var artist: String?
        var copyright: String?
        /// Exif orientation 1…8.
        var orientation: Int?
        /// "YYYY:MM:DD HH:MM:SS" as stored.
        var dateTimeOriginal: String?
        var exposureTime: Double?
        var fNumber: Double?
        var iso: Int?
        var focalLength: Double?
        var focalLengthIn35mmFilm: Int?
        var exposureBias: Double?
        var exposureProgram: Int?
        var meteringMode: Int?
        var whiteBalance: Int?
        /// The Exif Flash value (bit 0: fired).
        var flash: Int?
        var latitude: Double?
        var longitude: Double?
        var altitude: Double?
    }

    /// DNG (and TIFF/EP raw) tags.
    struct RawSummary: Codable, Sendable {
        /// DNGVersion, such as [1, 4, 0, 0]; absent for TIFF/EP raws.
        var dngVersion: [Int]?
        var uniqueCameraModel: String?
        /// "CFA RGGB" or "Linear Raw, 3 samples".
        var layout: String
        var bitsPerSample: Int
        /// "RGGB", "GRBG", "GBRG" or "BGGR" for Bayer sensors.
        var cfaPattern: String?
        /// BlackLevel values (per repeat cell and plane).
        var blackLevel: [Double]
        var whiteLevel: [Double]
        var linearizationTableEntries: Int?
        /// ActiveArea: top, left, bottom, right.
        var activeArea: [Int]
        /// DefaultCropOrigin and DefaultCropSize: x, y, width, height.
        var defaultCrop: [Double]?
        /// Row-major 3×3 (XYZ → camera).
        var colorMatrix1: [Double]?
        var colorMatrix2: [Double]?
        /// Exif LightSource code of CalibrationIlluminant1 (21 = D65, 17 = Standard A, …).
        var calibrationIlluminant1: Int?
        var calibrationIlluminant2: Int?
        var forwardMatrix1: [Double]?
        var forwardMatrix2: [Double]?
        var asShotNeutral: [Double]?
        /// AsShotWhiteXY: x, y.
        var asShotWhiteXY: [Double]?
        var analogBalance: [Double]?
        /// The white point the colour tags imply for the scene.
        var sceneWhite: SceneWhite?
        var baselineExposure: Double?
        /// NoiseProfile: scale, offset per plane.
        var noiseProfile: [Double]?
        var opcodeList1: [String]?
        var opcodeList2: [String]?
        var opcodeList3: [String]?
        var previews: [Preview]

        struct SceneWhite: Codable, Sendable {
            var temperature: Double
            var tint: Double
            var x: Double
            var y: Double
        }

        struct Preview: Codable, Sendable {
            var width: Int
            var height: Int
            var encoding: String
        }
    }

    /// A QuickTime movie's streams.
    struct MovieSummary: Codable, Sendable {
        var brand: String
        /// Seconds.
        var duration: Double
        /// The Live Photo still-image time in seconds, when the movie has one.
        var stillImageTime: Double?
        var tracks: [Track]

        struct Track: Codable, Sendable {
            var id: Int
            var kind: String
            var codec: String
            var codecName: String
            var duration: Double
            var samples: Int
            var width: Int?
            var height: Int?
            var frameRate: Double?
            var sampleRate: Double?
            var channels: Int?
        }
    }

    /// Live Photo pairing: the file's content identifier and its partner beside it.
    struct LivePhotoSummary: Codable, Sendable {
        /// The content identifier in this file (Apple maker note of a still, metadata of a movie).
        var contentIdentifier: String?
        /// The partner file beside this one (same base name), when it exists.
        var partner: String?
        /// The partner's content identifier.
        var partnerContentIdentifier: String?
        /// Whether the partner exists and both carry the same identifier: the two files are one Live Photo.
        var paired: Bool
    }
}
