public import FoundationEssentials
import Glibc
public import LuxCodecs
public import LuxPixels

/// Writes a Live Photo pair: the movie streamed frame by frame, then the still, both carrying one content
/// identifier, with the still's time marked in the movie (the capture pipeline's last step).
///
/// ```swift
/// let writer = try LivePhotoWriter(
///     photoURL: dir.appendingPathComponent("IMG_0001.JPG"), movieURL: dir.appendingPathComponent("IMG_0001.MOV"),
///     movie: .init(video: .init(width: 1440, height: 1080), audio: .init(sampleRate: 44_100, channelCount: 1)))
/// for frame in ring { try writer.appendVideoFrame(frame.pixels, at: frame.time) }
/// try writer.appendAudio(samples)
/// let live = try writer.finish(photo: still, photoTime: MediaTime(value: 3, timescale: 2))
/// ```
///
/// The movie goes to a temporary file in the destination folder and is renamed into place only after the still
/// has been written, so a failure leaves neither file (and never replaces existing ones).
public final class LivePhotoWriter {
    /// Where the still goes.
    public let photoURL: URL
    /// Where the movie goes.
    public let movieURL: URL
    /// The identifier written into both files.
    public let contentIdentifier: String
    private let movie: QuickTimeWriter
    private let temporaryMovieURL: URL
    private var lastFrameEnd: MediaTime = .zero
    private var isFinished = false

    /// Starts a pair.
    ///
    /// - Parameters:
    ///   - contentIdentifier: The identifier (default: a new UUID).
    ///   - movie: The movie's tracks and metadata; the content identifier is added to its metadata.
    /// - Throws: ``LivePhotoError/write(_:_:)`` for invalid settings or an unwritable folder.
    public init(
        photoURL: URL, movieURL: URL, contentIdentifier: String = LivePhoto.makeContentIdentifier(),
        movie settings: QuickTimeWriter.Settings
    ) throws(LivePhotoError) {
        self.photoURL = photoURL
        self.movieURL = movieURL
        self.contentIdentifier = contentIdentifier
        var s = settings
        s.metadata.removeAll { $0.key == .contentIdentifier }
        s.metadata.insert(MovieMetadataItem(key: .contentIdentifier, value: .string(contentIdentifier)), at: 0)
        temporaryMovieURL = movieURL.deletingLastPathComponent()
            .appendingPathComponent(".\(movieURL.lastPathComponent).lux-pair-\(UUID().uuidString.prefix(8))")
        do { movie = try QuickTimeWriter(writingTo: temporaryMovieURL, settings: s) } catch {
            throw .write(movieURL, error)
        }
    }

    deinit {
        if !isFinished { movie.cancel() }
        try? FileManager.default.removeItem(at: temporaryMovieURL)
    }

    /// The movie's settings.
    public var movieSettings: QuickTimeWriter.Settings { movie.settings }

    /// Appends a video frame shown from `time` (see ``QuickTimeWriter/appendVideoFrame(_:at:)``).
    public func appendVideoFrame(_ pixels: PixelBuffer, at time: MediaTime) throws(LivePhotoError) {
        do { try movie.appendVideoFrame(pixels, at: time) } catch { throw .write(movieURL, error) }
    }

    /// Appends a prepared frame shown from `time` (see ``QuickTimeWriter/appendVideoFrame(_:at:)-(PreparedVideoFrame,_)``).
    public func appendVideoFrame(_ frame: PreparedVideoFrame, at time: MediaTime) throws(LivePhotoError) {
        do { try movie.appendVideoFrame(frame, at: time) } catch { throw .write(movieURL, error) }
    }

    /// Appends a compressed frame copied from another movie (see ``QuickTimeWriter/appendCompressedVideoSample(_:)``).
    public func appendCompressedVideoSample(_ sample: CompressedVideoSample) throws(LivePhotoError) {
        do { try movie.appendCompressedVideoSample(sample) } catch { throw .write(movieURL, error) }
    }

    /// Appends interleaved 16-bit audio.
    public func appendAudio(_ samples: [Int16]) throws(LivePhotoError) {
        do { try movie.appendAudio(samples) } catch { throw .write(movieURL, error) }
    }

    /// Writes the still (with the content identifier in its Apple maker note), completes the movie with the
    /// still-image time, and renames the movie into place.
    ///
    /// - Parameters:
    ///   - photo: The still's pixels and metadata (its maker note is added or updated).
    ///   - photoTime: When the still was taken on the movie's timeline.
    ///   - movieEnd: When the movie's last frame stops (default: its time plus the frame duration).
    ///   - options: JPEG options for the still.
    /// - Returns: The pair as written.
    public func finish(
        photo: ImageFile, photoTime: MediaTime, movieEnd: MediaTime? = nil, options: EncodingOptions = .default
    ) throws(LivePhotoError) -> LivePhoto {
        try finish(photoTime: photoTime, movieEnd: movieEnd) { () throws(LivePhotoError) in
            var file = photo
            file.metadata = Self.taggedMetadata(photo.metadata, contentIdentifier: contentIdentifier)
            do throws(CodecError) { try ImageFile.write(file, to: photoURL, format: .jpeg, options: options) } catch {
                throw .write(photoURL, error)
            }
        }
    }

    /// Completes the pair with a still that `writePhoto` writes to ``photoURL`` (for stills rendered strip by
    /// strip); use ``taggedMetadata(_:contentIdentifier:)`` for its metadata.
    public func finish(
        photoTime: MediaTime, movieEnd: MediaTime? = nil, writePhoto: () throws(LivePhotoError) -> Void
    ) throws(LivePhotoError) -> LivePhoto {
        guard !isFinished else {
            throw .invalidEdit("the Live Photo \(photoURL.lastPathComponent) was already finished")
        }
        isFinished = true
        do {
            try movie.setStillImageTime(photoTime)
            try movie.finish(endTime: movieEnd)
        } catch {
            movie.cancel()
            throw .write(movieURL, error)
        }
        do {
            try writePhoto()
        } catch {
            try? FileManager.default.removeItem(at: temporaryMovieURL)
            throw error
        }
        if rename(temporaryMovieURL.path, movieURL.path) != 0 {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporaryMovieURL)
            throw .write(movieURL, .io(path: movieURL.path, reason: reason))
        }
        let movieFile = try? QuickTimeMovie(contentsOf: movieURL)
        return LivePhoto(
            photoURL: photoURL, movieURL: movieURL, contentIdentifier: contentIdentifier, photoTime: photoTime,
            duration: movieFile?.duration ?? photoTime)
    }

    /// `metadata` with `contentIdentifier` in its Apple maker note (other maker-note tags kept).
    public static func taggedMetadata(_ metadata: ImageMetadata, contentIdentifier: String) -> ImageMetadata {
        var m = metadata
        var note = m.exif.appleMakerNote ?? AppleMakerNote(contentIdentifier: nil)
        note.contentIdentifier = contentIdentifier
        m.exif.appleMakerNote = note
        return m
    }
}
