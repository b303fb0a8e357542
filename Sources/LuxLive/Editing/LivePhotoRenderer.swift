import FoundationEssentials
import LuxCodecs
import LuxColor
import LuxFilters
import LuxIO
import LuxPixels
import LuxRender
import Synchronization

/// Renders an edit into a new Live Photo pair: the still strip by strip into its JPEG encoder on a thread of its own,
/// beside the movie frames' pipeline (decoded in order, rendered on the workers, encoded in order), the audio trimmed
/// and scaled.
struct LivePhotoRenderer: Sendable {
    let context: LivePhotoEditingContext
    let output: LivePhotoEditingOutput
    /// The still's render scale (1 when saving, smaller for previews).
    let scale: Double

    /// Runs the render off the caller's task, stopping between frames when the task is cancelled.
    func run() async throws(LivePhotoError) -> LivePhoto {
        try context.validate(output)
        return try await offloadedCancellably { (flag) throws(LivePhotoError) in try render(flag) }
    }

    /// Renders and writes the still alone, as a plain photo, off the caller's task.
    func runStill() async throws(LivePhotoError) -> URL {
        try await offloadedCancellably { (flag) throws(LivePhotoError) in
            let still = try planStill()
            if flag.isCancelled { throw .cancelled }
            var metadata = still.metadata
            metadata.orientation = context.orientation
            metadata.exif.appleMakerNote?.contentIdentifier = nil
            try writeStill(still, to: output.photoURL, metadata: metadata)
            return output.photoURL
        }
    }

    /// Runs `work` on a thread of its own, with a flag raised when the calling task is cancelled.
    private func offloadedCancellably<T: Sendable>(
        _ work: @escaping @Sendable (CancellationFlag) throws(LivePhotoError) -> T
    ) async throws(LivePhotoError) -> T {
        let flag = CancellationFlag()
        let result: Result<T, LivePhotoError> = await withTaskCancellationHandler {
            do throws(LivePhotoError) {
                return .success(try await offloaded { () throws(LivePhotoError) in try work(flag) })
            } catch {
                return .failure(error)
            }
        } onCancel: {
            flag.cancel()
        }
        return try result.get()
    }

    /// The edited still before it is rendered: its recipe, the region to write, its colour space and metadata.
    struct StillPlan: Sendable {
        var image: Image
        var rect: Rect
        var colorSpace: ColorSpace
        var metadata: ImageMetadata
    }

    /// Decodes the still, or the key photo's movie frame (scaled for a preview), and runs the processor on it.
    func planStill() throws(LivePhotoError) -> StillPlan {
        let ctx = context
        let pixels: PixelBuffer
        let metadata: ImageMetadata
        if let key = ctx.keyPhotoTime {
            pixels = try decodeKeyFrame(at: key)
            metadata = ctx.photoInfo.metadata
        } else {
            let still = try decodeStill(threads: threads)
            pixels = still.pixels
            metadata = still.metadata
        }
        let photoFrame = LivePhotoFrame(
            image: Self.resized(
                Image(buffer: pixels), to: (Double(ctx.photoWidth) * scale, Double(ctx.photoHeight) * scale)),
            type: .photo, time: ctx.stillTime, renderScale: scale)
        let image = try process(photoFrame)
        return StillPlan(
            image: image, rect: try Self.outputRect(image, frame: photoFrame),
            colorSpace: pixels.colorSpace ?? .sRGB, metadata: metadata)
    }

    /// The movie frame showing at `time`, at the movie's resolution (the key photo).
    func decodeKeyFrame(at time: MediaTime) throws(LivePhotoError) -> PixelBuffer {
        let url = context.livePhoto.movieURL
        guard let movie = context.movie, let video = movie.videoTrack, context.movieProblem == nil else {
            throw context.movieProblem ?? .noVideo(url)
        }
        let frame: DecodedVideoFrame?
        do {
            let reader = try VideoFrameReader(
                movie: movie, track: video,
                options: VideoDecodingOptions(
                    threads: threads, timeRange: time..<(time + MediaTime(value: 1, timescale: 6000))))
            frame = try reader.next()
        } catch {
            throw .unreadable(url, error)
        }
        guard let frame else { throw .invalidEdit("no movie frame shows at the key photo time \(time.seconds) s") }
        return frame.pixels
    }

    /// Renders the still strip by strip into its JPEG encoder (a temporary file, renamed when complete).
    func writeStill(_ still: StillPlan, to url: URL, metadata: ImageMetadata) throws(LivePhotoError) {
        var options = context.renderOptions
        options.threadCount = threads
        var photoOptions = output.photoOptions
        photoOptions.synchronizesFile = output.synchronizesFiles
        do {
            try RenderContext(options: options).write(
                still.image, to: url, format: .jpeg, colorSpace: still.colorSpace, bounds: still.rect,
                metadata: metadata, options: photoOptions)
        } catch {
            throw Self.writeError(error, url: url)
        }
    }

    /// The threads the render uses.
    var threads: Int { max(1, context.threads ?? Parallel.defaultThreadCount) }

    func render(_ flag: CancellationFlag) throws(LivePhotoError) -> LivePhoto {
        let ctx = context
        let movieURL = ctx.livePhoto.movieURL
        let threads = threads
        guard let movie = ctx.movie, let video = movie.videoTrack, ctx.movieProblem == nil else {
            throw ctx.movieProblem ?? .noVideo(movieURL)
        }
        // Saving keeps the frames' resolution; a preview reduces them to at most its own.
        let frameScale = scale >= 1 ? ctx.videoRenderScale : min(ctx.videoRenderScale, scale)
        let reduction = frameScale / ctx.videoRenderScale
        let range = ctx.timeRange

        // The sound and the movie's decoder open on a thread of their own (FFmpeg's libraries load on first use)
        // while the still is decoded.
        let opening = MovieOpening()
        let opener = DetachedThread {
            opening.finish { () throws(LivePhotoError) in
                try openMovie(movie, video: video, reduction: reduction, range: range)
            }
        }
        // The still: decoded, scaled for a preview, processed. Its extent decides the movie's size. It renders and
        // encodes on a thread of its own beside the movie (strip by strip, so in bounded memory) and is renamed into
        // place once the movie is complete.
        let planned = Result { () throws(LivePhotoError) in try planStill() }
        opener.join()
        let opened = try opening.result()
        var audio = opened.0
        let reader = opened.1
        if flag.isCancelled { throw .cancelled }
        let still = try planned.get()
        let photoRect = still.rect
        var metadata = still.metadata
        metadata.orientation = ctx.orientation
        metadata = LivePhotoWriter.taggedMetadata(metadata, contentIdentifier: output.contentIdentifier)
        let stillRender = BackgroundStillRender(url: output.photoURL) { [metadata] (url) throws(LivePhotoError) in
            try writeStill(still, to: url, metadata: metadata)
        }
        defer { stillRender.discard() }

        // The movie: frames overlapping the time range, at the still's geometry scaled to the frames' resolution.
        let codec = output.videoCodec
        // H.264 and HEVC code 4:2:0 chroma over pixel pairs: their frames have an even size.
        let even = codec == .motionJPEG ? 1.0 : 2.0
        let width = max(Int(even), Int((photoRect.width * frameScale / scale / even).rounded() * even))
        let height = max(Int(even), Int((photoRect.height * frameScale / scale / even).rounded() * even))
        let frameDuration =
            video.nominalFrameRate > 0
            ? MediaTime(seconds: 1 / video.nominalFrameRate, preferredTimescale: 600)
            : MediaTime(value: 1, timescale: 30)
        var settings = QuickTimeWriter.VideoSettings(
            width: width, height: height, codec: codec, compression: output.videoCompression,
            frameDuration: frameDuration, quality: output.videoQuality, colorSpace: video.colorSpace ?? .sRGB,
            orientation: ctx.orientation)
        // Frames the edit leaves as they are keep their compression: copied, not decoded and encoded again.
        let plan = try planFrames(
            movie, video: video, width: width, height: height, renderScale: frameScale, range: range, flag: flag)
        if case .copied(let reader, _) = plan {
            settings.timescale = video.timescale
            settings.compressedConfiguration = reader.configuration
        }
        let videoSettings = settings
        if let a = audio {
            let trimmed = a.trimmed(to: range).withVolume(ctx.audioVolume)
            audio = trimmed.frameCount > 0 ? trimmed : nil
        }
        var movieSettings = QuickTimeWriter.Settings(
            video: videoSettings,
            audio: audio.map {
                .init(
                    sampleRate: $0.sampleRate, channelCount: $0.channelCount, startTime: $0.startTime,
                    codec: output.audioCodec)
            },
            metadata: movie.metadata.filter { $0.key != .contentIdentifier && $0.key != .stillImageTime },
            creationDate: movie.creationDate, synchronizesFile: output.synchronizesFiles)
        movieSettings.movieTimescale = 600
        let writer = try LivePhotoWriter(
            photoURL: output.photoURL, movieURL: output.movieURL, contentIdentifier: output.contentIdentifier,
            movie: movieSettings)

        var frameOptions = ctx.renderOptions
        frameOptions.threadCount = 1
        let frameRenderer = RenderContext(options: frameOptions)
        var audioWritten = 0
        func appendAudio(until time: MediaTime?) throws(LivePhotoError) {
            guard let a = audio else { return }
            let end =
                time.map { t in
                    min(a.frameCount, max(0, Int((t - a.startTime).converted(toTimescale: Int32(a.sampleRate)).value)))
                } ?? a.frameCount
            guard end > audioWritten else { return }
            try writer.appendAudio(Array(a.samples[(audioWritten * a.channelCount)..<(end * a.channelCount)]))
            audioWritten = end
        }
        if case .copied(let reader, let end) = plan {
            while let sample = try Self.nextSample(reader, url: movieURL, flag: flag) {
                try writer.appendCompressedVideoSample(sample)
            }
            try appendAudio(until: nil)
            return try writer.finish(photoTime: ctx.stillTime, movieEnd: end) { () throws(LivePhotoError) in
                try stillRender.commit()
            }
        }
        let firstProcessed = plan.firstProcessed
        // Decoding (one thread), rendering (the workers) and encoding (this thread, and the encoder's own) overlap;
        // a few frames are in flight at a time.
        let source = FrameSource(reader: reader, flag: flag, movieURL: movieURL)
        // The frames render into recycled buffers (back in the pool once the frame is converted for the encoder).
        let targets = BufferPool(capacityPerKey: threads + 2)
        var lastEnd: MediaTime?
        try runFramePipeline(
            window: threads + 2, workers: threads,
            source: { () throws(LivePhotoError) in try source.next() },
            transform: { (_, frame) throws(LivePhotoError) in
                // The decoded pixels are let go here, so the reader reuses their buffer for a later frame.
                (
                    frame.time, frame.time + frame.duration,
                    try renderFrame(
                        frame, track: video, reduction: reduction, renderScale: frameScale, settings: videoSettings,
                        renderer: frameRenderer, targets: targets,
                        processed: firstProcessed?.index == frame.index ? firstProcessed?.image : nil)
                )
            },
            sink: { (_, result) throws(LivePhotoError) in
                let (time, end, prepared) = result
                try writer.appendVideoFrame(prepared, at: max(.zero, time - range.lowerBound))
                try appendAudio(until: end - range.lowerBound)
                lastEnd = end
            })
        guard let lastEnd else {
            throw .invalidEdit("no movie frame lies in \(range.lowerBound.seconds)…\(range.upperBound.seconds) s")
        }
        try appendAudio(until: nil)
        if flag.isCancelled { throw .cancelled }

        let movieEnd = min(range.upperBound, lastEnd) - range.lowerBound
        return try writer.finish(photoTime: ctx.stillTime - range.lowerBound, movieEnd: movieEnd) {
            () throws(LivePhotoError) in try stillRender.commit()
        }
    }

    /// How the movie's frames are saved.
    enum FramePlan {
        /// Copied as stored, by `reader`; the movie ends at `end`.
        case copied(CompressedVideoReader, end: MediaTime)
        /// Rendered; the processor's result for the first frame it changed, when it was run to find out.
        case rendered(firstProcessed: (index: Int, image: Image)?)

        /// The processor's result for the first frame it changed, when known.
        var firstProcessed: (index: Int, image: Image)? {
            if case .rendered(let first) = self { first } else { nil }
        }
    }

    /// Whether the frames are copied as stored (when the edit leaves every one of them as it is) or rendered.
    ///
    /// Copied when saving (not a preview) the whole movie — its whole media shown from its start — without stabilising
    /// transforms, an `avc1` or `hvc1` track kept in its codec at its size, with the output's default compression
    /// settings, and a processor (if any) that returns every decoded frame's image itself. The
    /// processor is run on the frames in order until one comes back changed; the frames are then rendered, that frame
    /// with the result it gave (the processor sees the frames before it a second time).
    func planFrames(
        _ movie: QuickTimeMovie, video: MovieTrack, width: Int, height: Int, renderScale: Double,
        range: Range<MediaTime>, flag: CancellationFlag
    ) throws(LivePhotoError) -> FramePlan {
        let ctx = context
        let url = ctx.livePhoto.movieURL
        let sameCodec = output.videoCodec != .motionJPEG && video.codec == output.videoCodec.fourCC
        // The copy shows the track's media from its first presented sample at the movie's start: the original must too.
        guard scale >= 1, ctx.videoFrameTransforms == nil, range.lowerBound == .zero, sameCodec,
            video.presentsMediaFromStart,
            output.videoCompression == VideoCompression(), width == video.width, height == video.height,
            let shown = try? movie.samples(of: video), shown.count == video.sampleCount, let last = shown.last,
            shown.first?.time == .zero, range.upperBound >= last.time + last.duration
        else { return .rendered(firstProcessed: nil) }
        if ctx.frameProcessor != nil {
            let reader: VideoFrameReader
            do {
                reader = try VideoFrameReader(
                    movie: movie, track: video, options: VideoDecodingOptions(threads: threads, timeRange: range))
            } catch {
                throw .unreadable(url, error)
            }
            let source = FrameSource(reader: reader, flag: flag, movieURL: url)
            while let decoded = try source.next() {
                // The frame as `renderFrame` makes it (no transform, no reduction: the stored frame).
                let frame = LivePhotoFrame(
                    image: Image(buffer: decoded.pixels), type: .video, time: decoded.time, renderScale: renderScale)
                let out = try process(frame)
                guard out.isSameRecipe(as: frame.image) else {
                    return .rendered(firstProcessed: (decoded.index, out))
                }
            }
        }
        // A track FFmpeg cannot hand over as stored is rendered instead.
        guard let reader = try? CompressedVideoReader(movie: movie, track: video) else {
            return .rendered(firstProcessed: nil)
        }
        return .copied(reader, end: last.time + last.duration)
    }

    /// The next compressed frame to copy, stopping when the task is cancelled.
    static func nextSample(_ reader: CompressedVideoReader, url: URL, flag: CancellationFlag) throws(LivePhotoError)
        -> CompressedVideoSample?
    {
        if flag.isCancelled { throw .cancelled }
        do { return try reader.next() } catch { throw .unreadable(url, error) }
    }

    /// The movie's sound and a reader of its frames in `range`, reduced for a preview.
    func openMovie(_ movie: QuickTimeMovie, video: MovieTrack, reduction: Double, range: Range<MediaTime>)
        throws(LivePhotoError) -> (AudioSamples?, VideoFrameReader)
    {
        let movieURL = context.livePhoto.movieURL
        var audio: AudioSamples?
        if let track = movie.audioTrack {
            do {
                audio = try movie.audioSamples(of: track)
            } catch {
                if case .unsupported = error { throw .audioNotDecodable(movieURL, codec: track.codecName) }
                throw .unreadable(movieURL, error)
            }
        }
        do {
            let reader = try VideoFrameReader(
                movie: movie, track: video,
                options: VideoDecodingOptions(
                    threads: 1, reduction: Self.denominator(for: reduction), timeRange: range))
            return (audio, reader)
        } catch {
            throw .unreadable(movieURL, error)
        }
    }

    /// Transforms, processes, renders (into a buffer of `targets`) and prepares one decoded movie frame for the
    /// writer; `processed` is the processor's result for the frame when it is already known.
    func renderFrame(
        _ decoded: DecodedVideoFrame, track: MovieTrack, reduction: Double, renderScale: Double,
        settings: QuickTimeWriter.VideoSettings, renderer: RenderContext, targets: BufferPool, processed: Image?
    ) throws(LivePhotoError) -> PreparedVideoFrame {
        let ctx = context
        var image = Image(buffer: decoded.pixels)
        let size = (Double(track.width) * reduction, Double(track.height) * reduction)
        if let t = ctx.videoFrameTransforms, decoded.index < t.count {
            if let warped = Self.warpedInStoredValues(decoded.pixels, by: t[decoded.index], track: track) {
                image = Image(buffer: warped)
            } else {
                // Transforms are in full-size frame coordinates.
                image = Self.resized(image, to: (Double(track.width), Double(track.height)))
                image = image.clampedToExtent().transformed(by: t[decoded.index]).cropped(
                    to: Rect(width: track.width, height: track.height))
            }
        }
        let frame = LivePhotoFrame(
            image: Self.resized(image, to: size), type: .video, time: decoded.time, renderScale: renderScale)
        let out: Image
        if let processed { out = processed } else { out = try process(frame) }
        // The frame's result keeps the movie's size, centred on its own extent (an animated crop moves it).
        let e = out.extent.isInfinite || out.extent.isEmpty ? frame.image.extent : out.extent
        let w = Double(settings.width)
        let h = Double(settings.height)
        let rect = Rect(x: (e.midX - w / 2).rounded(), y: (e.midY - h / 2).rounded(), width: w, height: h)
        do {
            var buffer = try targets.buffer(format: .rgba8, width: settings.width, height: settings.height)
            return try renderer.prepareVideoFrame(out, bounds: rect, settings: settings, reusing: &buffer)
        } catch {
            throw Self.writeError(error, url: output.movieURL)
        }
    }

    /// A full-size 8-bit RGBA frame warped by `transform` in its stored values, as the movie was stabilised when
    /// captured (`PixelBuffer.warpRGBA8(by:into:)`); `nil` for other frames, which the engine warps.
    static func warpedInStoredValues(_ pixels: PixelBuffer, by transform: AffineTransform, track: MovieTrack)
        -> PixelBuffer?
    {
        guard pixels.width == track.width, pixels.height == track.height, pixels.format == .rgba8 else { return nil }
        var warped = PixelBuffer(
            width: track.width, height: track.height, format: .rgba8, colorSpace: pixels.colorSpace)
        return pixels.warpRGBA8(by: transform, into: &warped) ? warped : nil
    }

    /// The still, decoded reduced in the DCT domain when a preview needs a fraction of it.
    func decodeStill(threads: Int) throws(LivePhotoError) -> ImageFile {
        let url = context.livePhoto.photoURL
        let denominator = Self.denominator(for: scale)
        do {
            if denominator > 1, context.photoInfo.format == .jpeg {
                let bytes = [UInt8](try Data(contentsOf: url))
                return try JPEG.decode(bytes, reducedBy: denominator)
            }
            return try ImageFile.read(url: url, options: DecodingOptions(threads: threads))
        } catch let e as CodecError {
            throw .unreadable(url, e)
        } catch {
            throw .unreadable(url, .io(path: url.path, reason: "\(error)"))
        }
    }

    /// The largest JPEG decoding reduction (1, 2, 4 or 8) that keeps at least `scale` of the size.
    static func denominator(for scale: Double) -> Int {
        [8, 4, 2].first { 1 / Double($0) >= scale * 1.0001 } ?? 1
    }

    func process(_ frame: LivePhotoFrame) throws(LivePhotoError) -> Image {
        guard let processor = context.frameProcessor else { return frame.image }
        do { return try processor(frame) } catch {
            throw .frameProcessorFailed(frame: frame.type, time: frame.time, error: error)
        }
    }

    /// The whole-pixel region of a processed frame to write: its extent, or the input frame's when the result is
    /// infinite.
    static func outputRect(_ image: Image, frame: LivePhotoFrame) throws(LivePhotoError) -> Rect {
        let e = image.extent.isInfinite ? image.extent.intersection(frame.image.extent) : image.extent
        guard !e.isEmpty else {
            throw .invalidEdit("the frame processor returned an empty image for the \(frame.type.rawValue) frame")
        }
        return e.integral
    }

    /// `image` (extent at the origin) resampled (Lanczos-3) to `size` — the size it would have at full resolution
    /// times the render scale — or unchanged when it already has it.
    static func resized(_ image: Image, to size: (Double, Double)) -> Image {
        let e = image.extent
        let w = max(1, size.0.rounded())
        let h = max(1, size.1.rounded())
        if w == e.width && h == e.height { return image }
        let sy = h / e.height
        return image.lanczosScaleTransform(scale: sy, aspectRatio: (w / e.width) / sy)
    }

    /// What failed while rendering into or encoding `url`, as a Live Photo error.
    static func writeError(_ error: any Error, url: URL) -> LivePhotoError {
        switch error {
        case let e as RenderError: .render(e)
        case let e as CodecError: .write(url, e)
        default: .write(url, .io(path: url.path, reason: "\(error)"))
        }
    }
}

/// The decoded frames of a render, handed to the pipeline one at a time (from its source thread only).
final class FrameSource: @unchecked Sendable {
    // @unchecked: `next()` is called from one thread at a time (the pipeline's source).
    private let reader: VideoFrameReader
    private let flag: CancellationFlag
    private let movieURL: URL

    init(reader: VideoFrameReader, flag: CancellationFlag, movieURL: URL) {
        self.reader = reader
        self.flag = flag
        self.movieURL = movieURL
    }

    /// The next frame in the time range; `nil` after the last.
    func next() throws(LivePhotoError) -> DecodedVideoFrame? {
        if flag.isCancelled { throw .cancelled }
        do { return try reader.next() } catch { throw .unreadable(movieURL, error) }
    }
}

/// What opening a movie on another thread gave: its sound and frame reader, or the error.
final class MovieOpening: Sendable {
    private let outcome = Mutex<Result<(AudioSamples?, VideoFrameReader), LivePhotoError>?>(nil)

    /// Runs `open` and keeps what it gives.
    func finish(_ open: () throws(LivePhotoError) -> (AudioSamples?, VideoFrameReader)) {
        let result = Result { () throws(LivePhotoError) in try open() }
        outcome.withLock { $0 = result }
    }

    /// What the opening gave (after the thread that ran ``finish(_:)`` is joined).
    func result() throws(LivePhotoError) -> (AudioSamples?, VideoFrameReader) {
        try (outcome.withLock { $0 } ?? .failure(.cancelled)).get()
    }
}

/// Set when the task that started a render is cancelled; checked between frame batches.
final class CancellationFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    var isCancelled: Bool { flag.load(ordering: .relaxed) }
    func cancel() { flag.store(true, ordering: .relaxed) }
}
