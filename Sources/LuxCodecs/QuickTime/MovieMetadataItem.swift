/// One movie-level or timed metadata item: a key in the `mdta` (reverse-DNS) key space and a typed value.
///
/// ```swift
/// let items: [MovieMetadataItem] = [
///     MovieMetadataItem(key: .contentIdentifier, value: "5B4D0C8E-1C2A-4F8E-9A57-0D2C1F3E4B6A"),
///     MovieMetadataItem(key: .author, value: "Brad Ford"),
/// ]
/// ```
public struct MovieMetadataItem: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The key (`com.apple.quicktime.content.identifier`, …).
    public var key: Key
    /// The value.
    public var value: MovieMetadataValue

    /// Creates an item.
    public init(key: Key, value: MovieMetadataValue) {
        self.key = key
        self.value = value
    }

    public var description: String { "\(key.rawValue) = \(value)" }

    /// A metadata key in the `mdta` key space (QuickTime metadata, reverse-DNS names).
    public struct Key: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral {
        /// The key text.
        public var rawValue: String

        /// Creates a key.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Creates a key from a literal.
        public init(stringLiteral value: String) { rawValue = value }

        /// The Live Photo asset identifier shared with the still (movie level, UTF-8 uppercase UUID).
        public static let contentIdentifier: Key = "com.apple.quicktime.content.identifier"
        /// The timed-metadata key whose sample time marks the still photo (value: `int8` −1).
        public static let stillImageTime: Key = "com.apple.quicktime.still-image-time"
        /// The author (AVFoundation's common key `author`).
        public static let author: Key = "com.apple.quicktime.author"
        /// The title.
        public static let title: Key = "com.apple.quicktime.title"
        /// A description.
        public static let description: Key = "com.apple.quicktime.description"
        /// A comment.
        public static let comment: Key = "com.apple.quicktime.comment"
        /// The copyright notice.
        public static let copyright: Key = "com.apple.quicktime.copyright"
        /// The camera maker.
        public static let make: Key = "com.apple.quicktime.make"
        /// The camera model.
        public static let model: Key = "com.apple.quicktime.model"
        /// The software that made the movie.
        public static let software: Key = "com.apple.quicktime.software"
        /// When the movie was recorded (ISO 8601 text with a UTC offset).
        public static let creationDate: Key = "com.apple.quicktime.creationdate"
        /// The location as ISO 6709 text (`+52.2097-000.8955+103.640/`).
        public static let locationISO6709: Key = "com.apple.quicktime.location.ISO6709"
        /// Whether the Live Photo movie was auto-trimmed (`int8`/`uint8` 1).
        public static let livePhotoAuto: Key = "com.apple.quicktime.live-photo.auto"
    }
}
