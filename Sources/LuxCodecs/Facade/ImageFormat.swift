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

    /// The usual file name extension.
    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .png: "png"
        case .tiff: "tiff"
        case .dng: "dng"
        }
    }

    /// The MIME type.
    public var mimeType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .tiff: "image/tiff"
        case .dng: "image/x-adobe-dng"
        }
    }

    /// The format for a file name extension (case-insensitive: jpg, jpeg, png, tif, tiff, dng).
    public init?(fileExtension: String) {
        switch fileExtension.lowercased() {
        case "jpg", "jpeg", "jpe": self = .jpeg
        case "png": self = .png
        case "tif", "tiff": self = .tiff
        case "dng": self = .dng
        default: return nil
        }
    }

    /// Identifies the format from the first bytes of a file (a TIFF with a DNGVersion tag is `.dng`);
    /// `nil` when the bytes are none of these.
    public static func detect(_ bytes: some Collection<UInt8>) -> ImageFormat? {
        let head = Array(bytes.prefix(8))
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        let isTIFF = head.withUnsafeBytes { TIFFParser.isTIFF($0) }
        guard isTIFF else { return nil }
        return Array(bytes).withUnsafeBytes { raw in (try? DNGReader.isDNG(raw)) == true } ? .dng : .tiff
    }

    public var description: String {
        switch self {
        case .jpeg: "JPEG"
        case .png: "PNG"
        case .tiff: "TIFF"
        case .dng: "DNG"
        }
    }
}
