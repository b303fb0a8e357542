public import LuxPixels
public import LuxRender

/// One frame handed to a ``LivePhotoEditingContext/frameProcessor``: the still or a movie frame, with its time
/// and how its resolution compares with the full-size still.
///
/// The same processor runs on the still and on every movie frame. Geometry that depends on the extent (crops,
/// centres) adapts by itself; effects whose size is in pixels (screens, blur radii, stroke widths) multiply it
/// by ``renderScale`` so they look the same on the smaller movie frames and in previews.
public struct LivePhotoFrame: Sendable {
    /// Which kind of frame.
    public enum FrameType: String, Hashable, Sendable, Codable {
        /// The still photo.
        case photo
        /// A frame of the movie.
        case video
    }

    /// The frame's pixels as an image recipe; its extent starts at (0, 0).
    public var image: Image
    /// Whether this is the still or a movie frame.
    public var type: FrameType
    /// The frame's time on the movie timeline (the still's is the photo time).
    public var time: MediaTime
    /// The frame's resolution relative to the full-size still (1 for the still when saving; about 0.36 for
    /// 1440×1080 frames of a 4032×3024 still; smaller in playback previews).
    public var renderScale: Double

    /// Creates a frame.
    public init(image: Image, type: FrameType, time: MediaTime, renderScale: Double) {
        self.image = image
        self.type = type
        self.time = time
        self.renderScale = renderScale
    }
}
