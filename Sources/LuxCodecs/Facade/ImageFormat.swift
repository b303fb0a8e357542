/// A file format LuxCodecs reads or writes.
public enum ImageFormat: String, Hashable, Sendable, Codable, CaseIterable, CustomStringConvertible {
    /// JPEG (baseline or progressive DCT), via libjpeg-turbo.
    case jpeg
    /// PNG, via libpng.
    case png
    /// TIFF (strips or tiles; uncompressed, Deflate, LZW, PackBits).
    case tiff
    /// Adobe Digital Negative: raw sensor data in a TIFF container.
    case dng
    /// HEIC: HEVC-coded images in a HEIF container (read through libheif, written as 512 × 512 grid tiles).
    case heic

    /// The usual file name extension.
    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .png: "png"
        case .tiff: "tiff"
        case .dng: "dng"
        case .heic: "heic"
        }
    }

    /// The MIME type.
    public var mimeType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .tiff: "image/tiff"
        case .dng: "image/x-adobe-dng"
        case .heic: "image/heic"
        }
    }

    /// The format for a file name extension (case-insensitive: jpg, jpeg, png, tif, tiff, dng, heic, heif, hif).
    public init?(fileExtension: String) {
        switch fileExtension.lowercased() {
        case "jpg", "jpeg", "jpe": self = .jpeg
        case "png": self = .png
        case "tif", "tiff": self = .tiff
        case "dng": self = .dng
        case "heic", "heif", "hif": self = .heic
        default: return nil
        }
    }

    /// Identifies the format of file data (a TIFF with a DNGVersion tag, or with CFA raw data, is `.dng`);
    /// `nil` when the bytes are none of these.
    public static func detect(_ bytes: [UInt8]) -> ImageFormat? {
        bytes.withUnsafeBytes { try? ImageFile.detect($0) }
    }

    public var description: String {
        switch self {
        case .jpeg: "JPEG"
        case .png: "PNG"
        case .tiff: "TIFF"
        case .dng: "DNG"
        case .heic: "HEIC"
        }
    }
}
