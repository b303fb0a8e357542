public import LuxPixels

/// A compressed photo format (AVVideoCodecType).
///
/// Lux has a JPEG encoder; HEIC is not offered because there is no HEVC encoder.
public enum PhotoCodec: String, Hashable, Sendable, Codable, CaseIterable, CustomStringConvertible {
    /// Baseline JPEG with EXIF and an ICC profile.
    case jpeg

    /// The file name extension of the codec's files.
    public var fileExtension: String { "jpg" }

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

    public var description: String {
        switch self {
        case .codec(let c): c.rawValue
        case .pixelFormat(let f): f.fourCharacterCode
        }
    }
}
