/// The compression of a movie's video track.
public enum VideoCodec: String, Hashable, Sendable, Codable, CaseIterable {
    /// H.264 (`avc1`), encoded by libx264 through FFmpeg: what an iPhone 6s/7 records, and what every player plays.
    case h264
    /// HEVC (`hvc1`), encoded by libx265 through FFmpeg: what an iPhone 8 and later records; about half the size of
    /// H.264 at the same quality, slower to encode.
    case hevc
    /// Motion-JPEG (`jpeg`, one baseline JPEG per frame), encoded by libjpeg-turbo: no inter-frame compression, so
    /// several times larger; every frame is a key frame.
    case motionJPEG

    /// The sample entry's format.
    public var fourCC: String {
        switch self {
        case .h264: "avc1"
        case .hevc: "hvc1"
        case .motionJPEG: "jpeg"
        }
    }

    /// A readable name.
    public var name: String {
        switch self {
        case .h264: "H.264"
        case .hevc: "HEVC"
        case .motionJPEG: "Motion-JPEG"
        }
    }
}
