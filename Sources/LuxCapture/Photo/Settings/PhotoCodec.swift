public import LuxPixels

/// A compressed photo format (AVVideoCodecType): the raw values are AVFoundation's codec types.
public enum PhotoCodec: String, Hashable, Sendable, Codable, CaseIterable, CustomStringConvertible {
    /// Baseline JPEG with EXIF and an ICC profile.
    case jpeg
    /// HEVC in a HEIC file, as iOS 11 and later write it: 512 × 512 grid tiles, the ICC profile, Exif (with the
    /// Live Photo content identifier in the Apple maker note) and a thumbnail (the preview when one is requested).
    case hevc = "hvc1"

    /// The file name extension of the codec's files.
    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .hevc: "heic"
        }
    }

    public var description: String { rawValue }
}

/// The form of a processed (non-RAW) photo: compressed, or uncompressed pixels.
public enum ProcessedPhotoFormat: Hashable, Sendable, CustomStringConvertible {
    /// Compressed with a codec from ``PhotoOutput/availablePhotoCodecTypes``.
    case codec(PhotoCodec)
    /// Uncompressed, in a format from ``PhotoOutput/availablePhotoPixelFormatTypes``.
    case pixelFormat(PixelFormat)

    /// JPEG.
    public static let jpeg = ProcessedPhotoFormat.codec(.jpeg)
    /// HEVC in a HEIC file.
    public static let hevc = ProcessedPhotoFormat.codec(.hevc)

    public var description: String {
        switch self {
        case .codec(let c): c.rawValue
        case .pixelFormat(let f): f.fourCharacterCode
        }
    }
}
