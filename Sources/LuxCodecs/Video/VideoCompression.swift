/// How an H.264 or HEVC video track is compressed: the encoder's speed preset and its constant rate factor.
///
/// The defaults make a 1440 × 1080 Live Photo movie of about 1–2 MB per second at a quality where the frames
/// differ from the rendered ones by well under one JPEG step (PSNR above 40 dB on camera footage).
///
/// ```swift
/// var video = QuickTimeWriter.VideoSettings(width: 1920, height: 1080, codec: .hevc)
/// video.compression = VideoCompression(preset: .medium, constantRateFactor: 24)
/// ```
public struct VideoCompression: Hashable, Sendable, Codable {
    /// The encoder's speed preset (x264's and x265's names): faster presets search less and make larger files.
    public enum Preset: String, Hashable, Sendable, Codable, CaseIterable {
        case ultrafast, superfast, veryfast, faster, fast, medium, slow, slower, veryslow
    }

    /// The speed preset (default ``Preset/veryfast``).
    public var preset: Preset
    /// The constant rate factor, 0…51: lower is better quality and a larger file (default 20; about 6 steps double
    /// or halve the size).
    public var constantRateFactor: Double
    /// The longest run of frames between key frames (default 30: one a second at 30 fps).
    public var keyFrameInterval: Int
    /// The encoder's threads (0: its own choice — for H.264, one per processor; default 0).
    public var threads: Int

    /// Creates compression settings.
    public init(
        preset: Preset = .veryfast, constantRateFactor: Double = 20, keyFrameInterval: Int = 30, threads: Int = 0
    ) {
        self.preset = preset
        self.constantRateFactor = constantRateFactor
        self.keyFrameInterval = keyFrameInterval
        self.threads = threads
    }
}
