public import FoundationEssentials
public import LuxCodecs
public import LuxPixels
public import LuxRender

/// Edits a Live Photo: one frame processor for the still and every movie frame, audio volume, orientation and
/// trimming, rendered quickly for playback or in full for saving (the PHLivePhotoEditingContext role).
///
/// ```swift
/// var context = try LivePhotoEditingContext(livePhoto: live)
/// context.frameProcessor = { frame in
///     // Crop to a square: the still and the movie frames get the same crop.
///     let e = frame.image.extent
///     let side = min(e.width, e.height)
///     return frame.image.cropped(to: Rect(x: (e.width - side) / 2, y: (e.height - side) / 2, width: side, height: side))
/// }
/// context.audioVolume = 0.5
/// let preview = try await context.prepareForPlayback(targetSize: Size(width: 480, height: 480))
/// let edited = try await context.save(to: LivePhotoEditingOutput(directory: outFolder, baseName: "IMG_E0001"))
/// ```
///
/// Reading the context reads the still's header and the movie's structure only. Rendering decodes the still and
/// the movie's frames — H.264 and HEVC (an iPhone's) through FFmpeg's libraries, Motion-JPEG (Lux's older movies)
/// through libjpeg-turbo — in a pipeline: frames are decoded, processed and encoded at the same time on all
/// processors, a few frames in flight, so a long movie never sits in memory. A movie whose frames cannot be decoded
/// (a codec FFmpeg lacks) makes the render methods throw ``LivePhotoError/movieNotDecodable(_:codec:)``; its still
/// can still be edited alone with ``saveStill(to:)``.
public struct LivePhotoEditingContext: Sendable {
    /// The processor's signature: the frame in, the edited image out.
    ///
    /// Return the frame's own ``LivePhotoFrame/image`` to leave a frame as it is. The processor should depend only on
    /// the frame: saving may run it twice on movie frames it leaves as they are (see ``save(to:)``).
    public typealias FrameProcessor = @Sendable (LivePhotoFrame) throws -> Image

    /// The Live Photo being edited.
    public let livePhoto: LivePhoto
    /// When the still was taken, on the original movie's timeline.
    public var photoTime: MediaTime { livePhoto.photoTime }
    /// The original movie's duration.
    public var duration: MediaTime { livePhoto.duration }
    /// The orientation the edited still and movie are shown in (initially the still's Exif orientation).
    public var orientation: Orientation
    /// The audio gain, 0 (silent) … 1 (unchanged); default 1.
    public var audioVolume: Double
    /// Produces the edited image of each frame (`nil`: frames unchanged).
    public var frameProcessor: FrameProcessor?
    /// The part of the movie kept (default: all of it); it must contain ``photoTime`` (or ``keyPhotoTime``).
    public var timeRange: Range<MediaTime>
    /// The time of the movie frame that becomes the edited still, the key photo (`nil`, the default: the original
    /// still).
    ///
    /// The frame showing at that time is decoded at the movie's resolution and scaled to the still's size, then
    /// processed as the ``LivePhotoFrame/FrameType/photo`` frame; the still's metadata is kept and the edited
    /// movie's still-image time moves to the frame. It needs a movie that can be rendered.
    public var keyPhotoTime: MediaTime?
    /// Per movie frame (in the order of ``videoFrameTimes``), a transform applied to the frame before the
    /// processor sees it — the output of ``LivePhotoStabilizer`` (`nil`: none).
    public var videoFrameTransforms: [AffineTransform]?
    /// The render engine's options (working space and format; threads are chosen per job).
    public var renderOptions: RenderOptions
    /// Worker threads (default: one per processor).
    public var threads: Int?

    /// The still's stored size in pixels.
    public let photoWidth: Int
    /// The still's stored size in pixels.
    public let photoHeight: Int
    /// The movie frames' stored size (0 without a video track).
    public let videoWidth: Int
    /// The movie frames' stored size (0 without a video track).
    public let videoHeight: Int
    /// The presentation times of the movie's frames.
    public let videoFrameTimes: [MediaTime]

    /// Why the movie cannot be re-rendered — its structure is unreadable, it has no video, or FFmpeg has no decoder
    /// for its codec — or `nil` when it can; the still can then be edited alone with ``saveStill(to:)``.
    ///
    /// A movie whose structure reads but whose frames turn out to be damaged is found only while rendering: the
    /// render methods then throw, naming the file and the frame.
    public let movieProblem: LivePhotoError?

    let movie: QuickTimeMovie?
    let photoInfo: ImageInfo

    /// Opens a Live Photo for editing (reads the still's header and the movie's structure).
    ///
    /// A movie that cannot be read does not stop the context from opening: ``movieProblem`` says why, and the still
    /// can be edited alone.
    ///
    /// - Throws: ``LivePhotoError/unreadable(_:_:)`` when the still cannot be read.
    public init(livePhoto: LivePhoto) throws(LivePhotoError) {
        self.livePhoto = livePhoto
        let info: ImageInfo
        do { info = try ImageFile.info(url: livePhoto.photoURL) } catch { throw .unreadable(livePhoto.photoURL, error) }
        var file: QuickTimeMovie?
        var problem: LivePhotoError?
        do { file = try QuickTimeMovie(contentsOf: livePhoto.movieURL) } catch {
            problem = .unreadable(livePhoto.movieURL, error)
        }
        let video = file?.videoTrack
        if problem == nil, video == nil { problem = .noVideo(livePhoto.movieURL) }
        if problem == nil, let video, !video.canDecodeFrames {
            problem = .movieNotDecodable(livePhoto.movieURL, codec: video.codecName)
        }
        movieProblem = problem
        photoInfo = info
        movie = file
        photoWidth = info.width
        photoHeight = info.height
        videoWidth = video?.width ?? 0
        videoHeight = video?.height ?? 0
        videoFrameTimes = video.flatMap { v in try? file?.samples(of: v).map(\.time) } ?? []
        orientation = info.metadata.orientation
        audioVolume = 1
        frameProcessor = nil
        timeRange = .zero..<max(livePhoto.duration, MediaTime(value: 1, timescale: 600))
        keyPhotoTime = nil
        videoFrameTransforms = nil
        renderOptions = RenderOptions(cacheIntermediates: false)
        threads = nil
    }

    /// The movie frames' resolution relative to the still (long side over long side).
    public var videoRenderScale: Double {
        guard videoWidth > 0, photoWidth > 0 else { return 1 }
        return Double(max(videoWidth, videoHeight)) / Double(max(photoWidth, photoHeight))
    }

    /// When the edited still is taken, on the original movie's timeline: ``keyPhotoTime`` or ``photoTime``.
    var stillTime: MediaTime { keyPhotoTime ?? photoTime }

    /// Whether the movie's frames can be decoded and re-rendered (H.264, HEVC, Motion-JPEG and the other codecs
    /// FFmpeg decodes); see ``movieProblem`` when not.
    public var canRenderMovie: Bool { movieProblem == nil }

    /// Renders a small version of the edit for playback: a still and a movie no larger than `targetSize` (in
    /// display orientation), written to `directory` (default: a new temporary folder; delete it when done).
    ///
    /// The processor sees frames at the preview's resolution with the matching ``LivePhotoFrame/renderScale``.
    ///
    /// - Throws: ``LivePhotoError`` (``LivePhotoError/cancelled`` when the task is cancelled).
    public func prepareForPlayback(targetSize: Size, in directory: URL? = nil) async throws(LivePhotoError) -> LivePhoto
    {
        guard targetSize.width >= 1, targetSize.height >= 1, targetSize.width.isFinite, targetSize.height.isFinite
        else {
            throw .invalidEdit("the playback target size \(targetSize.width)×\(targetSize.height) must be at least 1×1")
        }
        let folder =
            directory
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("lux-live-preview-\(UUID().uuidString)")
        do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) } catch {
            throw .write(folder, .io(path: folder.path, reason: "\(error)"))
        }
        let (w, h) =
            orientation.swapsDimensions ? (targetSize.height, targetSize.width) : (targetSize.width, targetSize.height)
        let scale = min(1, w / Double(photoWidth), h / Double(photoHeight))
        var output = LivePhotoEditingOutput(directory: folder, baseName: "preview")
        output.photoOptions = EncodingOptions(quality: 0.8, optimizesHuffmanTables: false, synchronizesFile: false)
        output.videoQuality = 0.7
        output.synchronizesFiles = false
        let job = LivePhotoRenderer(context: self, output: output, scale: scale)
        return try await job.run()
    }

    /// Renders the edit in full and writes the edited still and movie (audio kept at ``audioVolume``, the pair
    /// re-linked under ``LivePhotoEditingOutput/contentIdentifier``, the still's and the movie's other metadata
    /// kept), then the adjustment data sidecar when the output has one.
    ///
    /// Both files are written to temporary names in their folders and renamed at the end: a failure or a
    /// cancellation leaves no partial file and replaces nothing.
    ///
    /// An edit that leaves every movie frame as it is — no processor, or one that returns each movie frame's own
    /// image (an edit of the still alone), with the whole movie kept, no ``videoFrameTransforms``, the frames kept at
    /// their size, and an H.264 or HEVC movie saved in its own codec with the output's default
    /// ``LivePhotoEditingOutput/videoCompression`` (asking for another rate factor or preset re-encodes) — copies the
    /// movie's compressed frames instead of decoding and encoding them again: no loss, and a fraction of the time. To
    /// find out, the processor is run on the decoded frames in order before anything is encoded; from the first frame
    /// it changes on, the frames are rendered as usual (the processor then runs a second time on the frames before
    /// that one, which it left as they were).
    ///
    /// - Returns: The edited Live Photo.
    /// - Throws: ``LivePhotoError``.
    @discardableResult
    public func save(to output: LivePhotoEditingOutput) async throws(LivePhotoError) -> LivePhoto {
        let job = LivePhotoRenderer(context: self, output: output, scale: 1)
        let edited = try await job.run()
        if let data = output.adjustmentData {
            let record = LivePhotoEditRecord(adjustmentData: data, original: livePhoto, edited: edited)
            try record.write(to: output.adjustmentDataURL)
        }
        return edited
    }

    /// Renders the edited still alone and writes it to `output`'s ``LivePhotoEditingOutput/photoURL`` as a plain photo.
    ///
    /// For a pair whose movie cannot be rendered (``movieProblem``); the movie is left as it is. The Live Photo
    /// content identifier is left out (without its movie the still no longer pairs); the still's other metadata is
    /// kept.
    ///
    /// The frame processor sees the still as a ``LivePhotoFrame/FrameType/photo`` frame at full resolution.
    ///
    /// - Returns: The still's URL.
    /// - Throws: ``LivePhotoError``; a failure leaves no partial file and replaces nothing.
    @discardableResult
    public func saveStill(to output: LivePhotoEditingOutput) async throws(LivePhotoError) -> URL {
        let job = LivePhotoRenderer(context: self, output: output, scale: 1)
        return try await job.runStill()
    }

    func validate(_ output: LivePhotoEditingOutput? = nil) throws(LivePhotoError) {
        if let output, output.adjustmentData != nil, AppleAdjustmentSidecar.isSidecarName(output.adjustmentDataURL) {
            throw .invalidEdit(
                "the adjustment sidecar \(output.adjustmentDataURL.lastPathComponent) would take Apple Photos' .AAE "
                    + "name; Lux's sidecars are .\(LivePhotoEditRecord.fileExtension)")
        }
        guard audioVolume.isFinite, (0...1).contains(audioVolume) else {
            throw .invalidEdit("the audio volume \(audioVolume) is outside 0…1")
        }
        guard timeRange.lowerBound >= .zero, timeRange.lowerBound < timeRange.upperBound else {
            throw .invalidEdit(
                "the time range \(timeRange.lowerBound.seconds)…\(timeRange.upperBound.seconds) s is empty or negative")
        }
        if let key = keyPhotoTime {
            if let movieProblem { throw movieProblem }
            guard key >= .zero, key < duration else {
                throw .invalidEdit("the key photo time \(key.seconds) s is outside the movie (0…\(duration.seconds) s)")
            }
        }
        guard timeRange.contains(stillTime) else {
            throw .invalidEdit(
                "the time range \(timeRange.lowerBound.seconds)…\(timeRange.upperBound.seconds) s must contain the "
                    + "\(keyPhotoTime == nil ? "photo" : "key photo") time \(stillTime.seconds) s")
        }
        if let t = videoFrameTransforms, t.count != videoFrameTimes.count {
            throw .invalidEdit("\(t.count) frame transforms for \(videoFrameTimes.count) movie frames")
        }
    }
}
