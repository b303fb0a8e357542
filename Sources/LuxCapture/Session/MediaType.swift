/// The kind of data a device, port or connection carries (AVMediaType).
public enum MediaType: String, Hashable, Sendable, Codable, CaseIterable, CustomStringConvertible {
    /// Pictures: cameras, video and photo outputs.
    case video
    /// Sound: microphones, the audio track of movies.
    case audio

    public var description: String { rawValue }
}
