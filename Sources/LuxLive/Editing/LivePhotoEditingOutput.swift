public import FoundationEssentials
public import LuxCodecs

/// Where and how ``LivePhotoEditingContext/save(to:)`` writes an edited Live Photo (the
/// PHContentEditingOutput role).
public struct LivePhotoEditingOutput: Sendable {
    /// The edited still (JPEG).
    public var photoURL: URL
    /// The edited movie (QuickTime).
    public var movieURL: URL
    /// The edit's recipe, written beside the still so the edit can be re-applied or reverted (`nil`: none).
    public var adjustmentData: AdjustmentData?
    /// Where the adjustment sidecar goes (default: the still's name with the extension
    /// ``LivePhotoEditRecord/fileExtension``, never Apple's `.AAE`).
    public var adjustmentDataURL: URL
    /// The identifier tying the edited still and movie (default: a new one, so the edit does not pair with the
    /// original's files).
    public var contentIdentifier: String
    /// JPEG options for the still (default: quality 0.92).
    public var photoOptions: EncodingOptions
    /// The movie's video compression (default ``VideoCodec/h264``).
    public var videoCodec: VideoCodec
    /// The H.264/HEVC encoder's preset and rate factor.
    public var videoCompression: VideoCompression
    /// JPEG quality of Motion-JPEG movie frames, 0…1 (default 0.85).
    public var videoQuality: Double
    /// How the movie's sound is stored (default ``QuickTimeWriter/AudioCodec/aac``).
    public var audioCodec: QuickTimeWriter.AudioCodec
    /// Whether files are flushed to disk before being renamed into place (default on).
    public var synchronizesFiles: Bool

    /// Creates an output.
    public init(photoURL: URL, movieURL: URL, adjustmentData: AdjustmentData? = nil) {
        self.photoURL = photoURL
        self.movieURL = movieURL
        self.adjustmentData = adjustmentData
        adjustmentDataURL = photoURL.deletingPathExtension().appendingPathExtension(LivePhotoEditRecord.fileExtension)
        contentIdentifier = LivePhoto.makeContentIdentifier()
        photoOptions = EncodingOptions(quality: 0.92)
        videoCodec = .h264
        videoCompression = VideoCompression()
        videoQuality = 0.85
        audioCodec = .aac
        synchronizesFiles = true
    }

    /// An output named `baseName.JPG` and `baseName.MOV` (and `baseName.luxedit`) in `directory`.
    public init(directory: URL, baseName: String, adjustmentData: AdjustmentData? = nil) {
        self.init(
            photoURL: directory.appendingPathComponent(baseName + ".JPG"),
            movieURL: directory.appendingPathComponent(baseName + ".MOV"), adjustmentData: adjustmentData)
    }
}
