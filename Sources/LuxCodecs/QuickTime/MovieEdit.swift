public import LuxPixels

/// One entry of a track's edit list: a stretch of the movie timeline that shows part of the track's media, or
/// nothing (an empty edit, which delays the track).
public struct MovieEdit: Hashable, Sendable {
    /// How long the edit lasts on the movie timeline.
    public var duration: MediaTime
    /// Where in the media the edit starts; `nil` for an empty edit.
    public var mediaTime: MediaTime?
    /// Playback rate (1 = normal).
    public var rate: Double

    /// Creates an edit.
    public init(duration: MediaTime, mediaTime: MediaTime?, rate: Double = 1) {
        self.duration = duration
        self.mediaTime = mediaTime
        self.rate = rate
    }
}

/// A sample of a track as presented on the movie timeline (after the edit list).
public struct MovieSample: Hashable, Sendable {
    /// The sample number in the track (0-based, decode order).
    public var index: Int
    /// When it starts showing on the movie timeline.
    public var time: MediaTime
    /// How long it shows.
    public var duration: MediaTime
    /// Its size in bytes.
    public var byteCount: Int
    /// Its offset in the file.
    var offset: UInt64
}
