/// A file format LuxCodecs reads or writes.
public enum ImageFormat: String, Hashable, Sendable, Codable, CaseIterable, CustomStringConvertible {
    /// JPEG (baseline or progressive DCT), via libjpeg-turbo.
    case jpeg
    /// PNG, via libpng.
    case png
    /// TIFF (strips or tiles; uncompressed, Deflate, LZW, PackBits, and JPEG when reading).
    case tiff
    /// Adobe Digital Negative: raw sensor data in a TIFF container.
    case dng
    /// HEIC: HEVC-coded images in a HEIF container (read through libheif, written as 512 × 512 grid tiles).
    case heic
    /// A camera maker's raw format other than DNG (NEF, CR2, ARW, RAF, ORF, RW2, PEF …), read through LibRaw;
    /// never written.
    case cameraRaw
    /// WebP (lossy VP8 or lossless VP8L, with alpha, ICC, Exif and XMP), via libwebp.
    case webp
    /// AVIF: AV1-coded images in a HEIF container, via libheif (AV1 by dav1d and aom).
    case avif
    /// GIF (a palette of at most 256 colours; animations), via giflib.
    case gif

    /// The usual file name extension.
    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .png: "png"
        case .tiff: "tiff"
        case .dng: "dng"
        case .heic: "heic"
        case .cameraRaw: "raw"
        case .webp: "webp"
        case .avif: "avif"
        case .gif: "gif"
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
        case .cameraRaw: "image/x-dcraw"
        case .webp: "image/webp"
        case .avif: "image/avif"
        case .gif: "image/gif"
        }
    }

    /// The format for a file name extension (case-insensitive: jpg, jpeg, png, tif, tiff, dng, heic, heif, hif, webp,
    /// avif, gif).
    public init?(fileExtension: String) {
        switch fileExtension.lowercased() {
        case "jpg", "jpeg", "jpe": self = .jpeg
        case "png": self = .png
        case "tif", "tiff": self = .tiff
        case "dng": self = .dng
        case "heic", "heif", "hif": self = .heic
        case "webp": self = .webp
        case "avif": self = .avif
        case "gif": self = .gif
        default: return nil
        }
    }

    /// The file name extensions of camera raw formats (lowercase, without the dot): DNG and the makers' formats
    /// LibRaw reads.
    public static let rawFileExtensions: Set<String> = [
        "dng", "3fr", "ari", "arw", "bay", "cap", "cr2", "crw", "cs1", "dc2", "dcr", "dcs", "drf", "eip", "erf", "fff",
        "iiq", "k25", "kc2", "kdc", "mdc", "mef", "mos", "mrw", "nef", "nrw", "orf", "ori", "pef", "ptx", "pxn", "qtk",
        "raf", "raw", "rw2", "rwl", "rwz", "sr2", "srf", "srw", "sti", "x3f",
    ]

    /// Identifies the format of file data (a TIFF with a DNGVersion tag is `.dng`, other camera raws are
    /// `.cameraRaw`); `nil` when the bytes are none of these.
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
        case .cameraRaw: "camera raw"
        case .webp: "WebP"
        case .avif: "AVIF"
        case .gif: "GIF"
        }
    }
}
