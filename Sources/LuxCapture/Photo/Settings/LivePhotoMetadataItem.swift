/// A movie-level metadata item for a Live Photo's movie (AVMetadataItem in the common key space); the Live
/// Photo writer stores it in the movie's metadata.
public struct LivePhotoMetadataItem: Hashable, Sendable, Codable {
    /// The key (for example ``author``).
    public var key: String
    /// The value.
    public var value: String

    /// Creates an item.
    public init(key: String, value: String) {
        self.key = key
        self.value = value
    }

    /// The common "author" key.
    public static let author = "author"
}
