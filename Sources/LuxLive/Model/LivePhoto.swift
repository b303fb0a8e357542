public import FoundationEssentials
public import LuxPixels

/// A Live Photo: a still and a short movie tied by a content identifier, with the time in the movie at which the
/// still was taken.
///
/// Read a pair from disk (written by Lux, an iPhone, or any tool that writes the identifiers):
///
/// ```swift
/// let live = try LivePhoto(photoURL: URL(fileURLWithPath: "IMG_0001.JPG"))   // finds IMG_0001.MOV beside it
/// print(live.contentIdentifier, live.photoTime.seconds, live.duration.seconds)
/// ```
///
/// The still's identifier is the Apple maker note's tag 17; the movie's is the
/// `com.apple.quicktime.content.identifier` key; the photo time is the presentation time of the movie's
/// `com.apple.quicktime.still-image-time` sample (FORMATS.md §6).
public struct LivePhoto: Hashable, Sendable, Codable {
    /// The still (JPEG).
    public var photoURL: URL
    /// The movie (QuickTime).
    public var movieURL: URL
    /// The identifier both files carry (an uppercase UUID string).
    public var contentIdentifier: String
    /// When, on the movie's timeline, the still was taken.
    public var photoTime: MediaTime
    /// The movie's duration.
    public var duration: MediaTime

    /// Creates a Live Photo from known values (nothing is read).
    public init(photoURL: URL, movieURL: URL, contentIdentifier: String, photoTime: MediaTime, duration: MediaTime) {
        self.photoURL = photoURL
        self.movieURL = movieURL
        self.contentIdentifier = contentIdentifier
        self.photoTime = photoTime
        self.duration = duration
    }

    /// A fresh content identifier: a random UUID in the uppercase form Apple writes.
    public static func makeContentIdentifier() -> String { UUID().uuidString.uppercased() }
}
