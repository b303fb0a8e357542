/// A preview or thumbnail stored in a DNG or TIFF/EP file (an IFD with NewSubFileType 1).
public struct EmbeddedPreview: Hashable, Sendable, Codable {
    /// How the preview is stored.
    public enum Encoding: String, Hashable, Sendable, Codable {
        /// A complete baseline JPEG (Compression 7 or 6 with PhotometricInterpretation 6).
        case jpeg
        /// Uncompressed 8-bit RGB or gray samples.
        case uncompressed
        /// Anything else (kept for information only).
        case other
    }

    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// The storage.
    public var encoding: Encoding
    /// NewSubFileType (1 preview, 0x10001 alternative preview).
    public var newSubfileType: Int
    /// Samples per pixel (3 RGB, 1 gray).
    public var samplesPerPixel: Int
    /// Bits per sample.
    public var bitsPerSample: Int
    /// PreviewColorSpace (0 unknown, 1 gray gamma 2.2, 2 sRGB, 3 Adobe RGB, 4 ProPhoto), when given.
    public var previewColorSpace: Int?
    /// Where the data lies in the file: one (offset, length) per strip or tile.
    public var byteRanges: [ByteRange]
    /// The stored bytes (the JPEG file, or packed RGB rows), loaded by a full read; `nil` after a header read.
    public var data: [UInt8]?

    /// A span of bytes in a file.
    public struct ByteRange: Hashable, Sendable, Codable {
        /// The first byte, from the start of the file.
        public var offset: Int
        /// The number of bytes.
        public var length: Int
    }
}
