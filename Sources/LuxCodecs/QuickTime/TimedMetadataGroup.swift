public import LuxPixels

/// Metadata items that apply to a span of a movie's timeline: one sample of a timed-metadata ('mebx') track.
///
/// The still-image-time marker of a Live Photo is a group at the still's time holding
/// `MovieMetadataItem(key: .stillImageTime, value: .int8(-1))`.
public struct TimedMetadataGroup: Hashable, Sendable {
    /// When the group starts on the movie's timeline.
    public var time: MediaTime
    /// How long it applies.
    public var duration: MediaTime
    /// The items.
    public var items: [MovieMetadataItem]

    /// Creates a group.
    public init(time: MediaTime, duration: MediaTime, items: [MovieMetadataItem]) {
        self.time = time
        self.duration = duration
        self.items = items
    }
}
