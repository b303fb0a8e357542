public import FoundationEssentials
public import LuxCodecs
public import LuxPixels
public import LuxRender

/// Errors thrown by LuxLive, each saying what was wrong and what to do.
public enum LivePhotoError: Error, CustomStringConvertible {
    /// A file of the pair could not be read (the codec error says why).
    case unreadable(URL, CodecError)
    /// The other file of the pair (the movie beside a still, or the still beside a movie) was not found.
    case noMovie(photo: URL, tried: [String])
    /// The still or the movie carries no content identifier, so the pair cannot be confirmed.
    case missingContentIdentifier(URL)
    /// The still's and the movie's content identifiers differ: they are not one Live Photo.
    case identifierMismatch(photo: String, movie: String)
    /// The movie has no video track.
    case noVideo(URL)
    /// The movie's frames are in a codec Lux cannot decode (H.264, HEVC), and the operation needs its pixels.
    case movieNotDecodable(URL, codec: String)
    /// The movie's audio is compressed (AAC) and the operation needs to re-write it.
    case audioNotDecodable(URL, codec: String)
    /// An edit setting is out of range or inconsistent.
    case invalidEdit(String)
    /// The frame processor threw for a frame.
    case frameProcessorFailed(frame: LivePhotoFrame.FrameType, time: MediaTime, error: any Error)
    /// Rendering failed.
    case render(RenderError)
    /// Writing an output file failed.
    case write(URL, CodecError)
    /// Filters of an adjustment recipe could not be built.
    case adjustments(String)
    /// The task was cancelled.
    case cancelled

    public var description: String {
        switch self {
        case .unreadable(let url, let e): "\(url.lastPathComponent): \(e)"
        case .noMovie(let photo, let tried):
            "no Live Photo partner beside \(photo.lastPathComponent) (looked for \(tried.joined(separator: ", ")))"
        case .missingContentIdentifier(let url):
            "\(url.lastPathComponent) has no Live Photo content identifier (Apple maker note tag 17 in a still, "
                + "com.apple.quicktime.content.identifier in a movie)"
        case .identifierMismatch(let photo, let movie):
            "the still's content identifier \(photo) differs from the movie's \(movie): they are not one Live Photo"
        case .noVideo(let url): "\(url.lastPathComponent) has no video track"
        case .movieNotDecodable(let url, let codec):
            "\(url.lastPathComponent) holds \(codec) video, which Lux cannot decode (it decodes Motion-JPEG); its "
                + "metadata, timing and audio are readable. Convert it first, e.g. "
                + "`ffmpeg -i \(url.lastPathComponent) -c:v mjpeg -q:v 2 -c:a pcm_s16le -map 0 -c:d copy out.mov`"
        case .audioNotDecodable(let url, let codec):
            "\(url.lastPathComponent) holds \(codec) audio; Lux re-writes uncompressed PCM audio only"
        case .invalidEdit(let message): message
        case .frameProcessorFailed(let type, let time, let error):
            "the frame processor failed on the \(type.rawValue) frame at \(time.seconds) s: \(error)"
        case .render(let e): "rendering failed: \(e)"
        case .write(let url, let e): "writing \(url.lastPathComponent) failed: \(e)"
        case .adjustments(let message): "adjustments: \(message)"
        case .cancelled: "cancelled"
        }
    }
}
