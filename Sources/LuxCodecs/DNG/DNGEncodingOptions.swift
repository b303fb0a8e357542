/// Options for writing DNG files.
public struct DNGEncodingOptions: Hashable, Sendable {
    /// How raw samples are stored.
    public enum Compression: String, Hashable, Sendable, Codable {
        /// 16-bit samples in one strip (read by every DNG reader).
        case uncompressed
        /// Lossless JPEG (Compression 7) in tiles, predictor 1, two components per tile row for CFA data —
        /// the layout Adobe DNG Converter writes; about half the size.
        case losslessJPEG
    }

    /// Raw data storage (default lossless JPEG).
    public var compression: Compression
    /// Tile width and height for lossless JPEG (a multiple of 16); default 256.
    public var tileSize: Int
    /// Whether to add a small RGB thumbnail in IFD0 when the image has no rendered preview (default on).
    public var generatesThumbnail: Bool
    /// The long side of the IFD0 thumbnail in pixels (default 256).
    public var thumbnailSize: Int
    /// JPEG quality of the large preview written from ``RawImage/renderedPreview`` (default 0.9).
    public var previewQuality: Double

    /// Creates options.
    public init(
        compression: Compression = .losslessJPEG, tileSize: Int = 256, generatesThumbnail: Bool = true,
        thumbnailSize: Int = 256, previewQuality: Double = 0.9
    ) {
        self.compression = compression
        self.tileSize = tileSize
        self.generatesThumbnail = generatesThumbnail
        self.thumbnailSize = thumbnailSize
        self.previewQuality = previewQuality
    }
}
