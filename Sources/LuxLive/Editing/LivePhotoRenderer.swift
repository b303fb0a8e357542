import Dispatch
import FoundationEssentials
import LuxCodecs
import LuxColor
import LuxFilters
import LuxIO
import LuxPixels
import LuxRender
import Synchronization

/// Renders an edit into a new Live Photo pair: the still strip by strip into its JPEG encoder, the movie frames
/// in parallel batches (one frame per worker, frames appended in order), the audio trimmed and scaled.
struct LivePhotoRenderer: Sendable {
    let context: LivePhotoEditingContext
    let output: LivePhotoEditingOutput
    /// The still's render scale (1 when saving, smaller for previews).
    let scale: Double

    /// Runs the render off the caller's task, stopping between frame batches when the task is cancelled.
    func run() async throws(LivePhotoError) -> LivePhoto {
        try context.validate()
        let flag = CancellationFlag()
        let result: Result<LivePhoto, LivePhotoError> = await withTaskCancellationHandler {
            do throws(LivePhotoError) {
                return .success(try await offloaded { () throws(LivePhotoError) in try render(flag) })
            } catch {
                return .failure(error)
            }
        } onCancel: {
            flag.cancel()
        }
        return try result.get()
    }

    func render(_ flag: CancellationFlag) throws(LivePhotoError) -> LivePhoto {
        let ctx = context
        let movieURL = ctx.livePhoto.movieURL
        let threads = max(1, ctx.threads ?? Parallel.defaultThreadCount)
        guard let video = ctx.movie.videoTrack else { throw .noVideo(movieURL) }
        guard video.canDecodeFrames else { throw .movieNotDecodable(movieURL, codec: video.codecName) }
        var audio: AudioSamples?
        if let track = ctx.movie.audioTrack {
            do {
                audio = try ctx.movie.audioSamples(of: track)
            } catch {
                if case .unsupported = error { throw .audioNotDecodable(movieURL, codec: track.codecName) }
                throw .unreadable(movieURL, error)
            }
        }
        if flag.isCancelled { throw .cancelled }

        // The still: decoded, scaled for a preview, processed. Its extent decides the movie's size.
        let still = try decodeStill(threads: threads)
        let photoSpace = still.pixels.colorSpace ?? .sRGB
        let photoFrame = LivePhotoFrame(
            image: Self.resized(
                Image(buffer: still.pixels), to: (Double(ctx.photoWidth) * scale, Double(ctx.photoHeight) * scale)),
            type: .photo, time: ctx.photoTime, renderScale: scale)
        let photoImage = try process(photoFrame)
        let photoRect = try Self.outputRect(photoImage, frame: photoFrame)

        // The movie: frames overlapping the time range, at the still's geometry scaled to the frames' resolution.
        // Saving keeps the frames' resolution; a preview reduces them to at most its own.
        let frameScale = scale >= 1 ? ctx.videoRenderScale : min(ctx.videoRenderScale, scale)
        let reduction = frameScale / ctx.videoRenderScale
        let width = max(1, Int((photoRect.width * frameScale / scale).rounded()))
        let height = max(1, Int((photoRect.height * frameScale / scale).rounded()))
        let range = ctx.timeRange
        let samples: [MovieSample]
        do { samples = try ctx.movie.samples(of: video) } catch { throw .unreadable(movieURL, error) }
        let selected = samples.enumerated().filter { _, s in
            s.time < range.upperBound && (s.time + s.duration > range.lowerBound || s.time >= range.lowerBound)
        }
        guard let last = selected.last?.element else {
            throw .invalidEdit("no movie frame lies in \(range.lowerBound.seconds)…\(range.upperBound.seconds) s")
        }
        let frameDuration =
            video.nominalFrameRate > 0
            ? MediaTime(seconds: 1 / video.nominalFrameRate, preferredTimescale: 600)
            : MediaTime(value: 1, timescale: 30)
        let videoSettings = QuickTimeWriter.VideoSettings(
            width: width, height: height, frameDuration: frameDuration, quality: output.videoQuality,
            colorSpace: video.colorSpace ?? .sRGB, orientation: ctx.orientation)
        if let a = audio {
            let trimmed = a.trimmed(to: range).withVolume(ctx.audioVolume)
            audio = trimmed.frameCount > 0 ? trimmed : nil
        }
        var movieSettings = QuickTimeWriter.Settings(
            video: videoSettings,
            audio: audio.map {
                .init(sampleRate: $0.sampleRate, channelCount: $0.channelCount, startTime: $0.startTime)
            },
            metadata: ctx.movie.metadata.filter { $0.key != .contentIdentifier && $0.key != .stillImageTime },
            creationDate: ctx.movie.creationDate, synchronizesFile: output.synchronizesFiles)
        movieSettings.movieTimescale = 600
        let writer = try LivePhotoWriter(
            photoURL: output.photoURL, movieURL: output.movieURL, contentIdentifier: output.contentIdentifier,
            movie: movieSettings)

        var frameOptions = ctx.renderOptions
        frameOptions.threadCount = 1
        let frameRenderer = RenderContext(options: frameOptions)
        let batch = 2 * threads
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
        let slots = (0..<batch).map { _ in FrameSlot() }
        var start = 0
        while start < selected.count {
            if flag.isCancelled { throw .cancelled }
            let jobs = Array(selected[start..<min(start + batch, selected.count)])
            let results = Mutex([Result<[UInt8], LivePhotoError>?](repeating: nil, count: jobs.count))
            DispatchQueue.concurrentPerform(iterations: jobs.count) { k in
                let (index, sample) = jobs[k]
                let result: Result<[UInt8], LivePhotoError>
                do throws(LivePhotoError) {
                    result = .success(
                        try renderFrame(
                            sample, index: index, track: video, reduction: reduction, renderScale: frameScale,
                            settings: videoSettings, renderer: frameRenderer, slot: slots[k]))
                } catch {
                    result = .failure(error)
                }
                results.withLock { $0[k] = result }
            }
            let done = results.withLock { $0 }
            for (k, r) in done.enumerated() {
                let bytes = try r!.get()
                let time = max(.zero, jobs[k].element.time - range.lowerBound)
                try writer.appendVideoFrame(jpegData: bytes, at: time)
            }
            if let lastJob = jobs.last?.element {
                try appendAudio(until: lastJob.time + lastJob.duration - range.lowerBound)
            }
            start += jobs.count
        }
        try appendAudio(until: nil)
        if flag.isCancelled { throw .cancelled }

        let movieEnd = min(range.upperBound, last.time + last.duration) - range.lowerBound
        var metadata = still.metadata
        metadata.orientation = ctx.orientation
        metadata = LivePhotoWriter.taggedMetadata(metadata, contentIdentifier: output.contentIdentifier)
        var photoOptions = output.photoOptions
        photoOptions.synchronizesFile = output.synchronizesFiles
        let renderOptions = ctx.renderOptions
        return try writer.finish(photoTime: ctx.photoTime - range.lowerBound, movieEnd: movieEnd) {
            () throws(LivePhotoError) in
            var options = renderOptions
            options.threadCount = threads
            // Rendered strip by strip into the JPEG encoder (temporary file, renamed when complete).
            do {
                try RenderContext(options: options).write(
                    photoImage, to: output.photoURL, format: .jpeg, colorSpace: photoSpace, bounds: photoRect,
                    metadata: metadata, options: photoOptions)
            } catch {
                throw Self.writeError(error, url: output.photoURL)
            }
        }
    }

    /// Decodes, transforms, processes and encodes one movie frame, in `slot`'s reusable buffers.
    func renderFrame(
        _ sample: MovieSample, index: Int, track: MovieTrack, reduction: Double, renderScale: Double,
        settings: QuickTimeWriter.VideoSettings, renderer: RenderContext, slot: FrameSlot
    ) throws(LivePhotoError) -> [UInt8] {
        let ctx = context
        do {
            try ctx.movie.decodeVideoFrame(
                sample, of: track, into: &slot.decoded, reducedBy: Self.denominator(for: reduction))
        } catch {
            throw .unreadable(ctx.livePhoto.movieURL, error)
        }
        var image = Image(buffer: slot.decoded)
        let size = (Double(track.width) * reduction, Double(track.height) * reduction)
        if let t = ctx.videoFrameTransforms?[index] {
            // Transforms are in full-size frame coordinates.
            image = Self.resized(image, to: (Double(track.width), Double(track.height)))
            image = image.clampedToExtent().transformed(by: t).cropped(
                to: Rect(width: track.width, height: track.height))
        }
        let frame = LivePhotoFrame(
            image: Self.resized(image, to: size), type: .video, time: sample.time, renderScale: renderScale)
        let out = try process(frame)
        // The frame's result keeps the movie's size, centred on its own extent (an animated crop moves it).
        let e = out.extent.isInfinite || out.extent.isEmpty ? frame.image.extent : out.extent
        let w = Double(settings.width)
        let h = Double(settings.height)
        let rect = Rect(x: (e.midX - w / 2).rounded(), y: (e.midY - h / 2).rounded(), width: w, height: h)
        do {
            return try renderer.encodeVideoFrame(out, bounds: rect, settings: settings, reusing: &slot.rendered)
        } catch {
            throw Self.writeError(error, url: output.movieURL)
        }
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

/// The reusable buffers of one frame job (used by one thread at a time: the job with that index in a batch).
final class FrameSlot: @unchecked Sendable {
    var decoded = PixelBuffer(width: 1, height: 1, format: .rgba8)
    var rendered = PixelBuffer(width: 1, height: 1, format: .rgba8)
}

/// Set when the task that started a render is cancelled; checked between frame batches.
final class CancellationFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    var isCancelled: Bool { flag.load(ordering: .relaxed) }
    func cancel() { flag.store(true, ordering: .relaxed) }
}
