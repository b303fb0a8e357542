import FoundationEssentials
import LuxCodecs
import LuxColor
import LuxFusion
import LuxIO
import LuxPixels
import LuxRender

/// Records and writes a Live Photo's movie: the ring buffer's pre-roll, the frames after the still, the microphone's
/// sound over the same span, shoe-shot trimming and stabilisation, then a QuickTime movie with the content identifier
/// and the still-image time (LuxCodecs' ``QuickTimeWriter``): H.264 and AAC by default, as an iPhone writes it.
///
/// Frames wait in the ring buffer as JPEGs (a fraction of a raw frame's memory); writing decodes them, warps them
/// when stabilising and converts them on worker threads while the encoder compresses the previous ones.
struct LivePhotoRecorder: Sendable {
    /// How much of the movie comes before the still (and after it).
    static let preRoll = MediaTime(value: 3, timescale: 2)
    static let postRoll = MediaTime(value: 3, timescale: 2)

    let pump: FramePump
    let ring: LivePhotoRingBuffer
    let dimensions: PixelDimensions
    let colorSpace: CaptureColorSpace
    /// The movie's video codec.
    let codec: VideoCodec
    let stabilizer = LivePhotoStabilizer()

    /// A recorder of the movie `capabilities` describe (its size and colour space), with `codec`.
    init(pump: FramePump, ring: LivePhotoRingBuffer, capabilities: PhotoCapabilities, codec: VideoCodec = .h264) {
        self.pump = pump
        self.ring = ring
        dimensions = capabilities.livePhotoMovieDimensions
        colorSpace = capabilities.colorSpace
        self.codec = codec
    }

    var videoSettings: QuickTimeWriter.VideoSettings {
        QuickTimeWriter.VideoSettings(
            width: dimensions.width, height: dimensions.height, codec: codec, quality: 0.9,
            colorSpace: colorSpace.colorSpace)
    }

    /// How ring-buffer frames are compressed: with libjpeg's standard Huffman tables, not tables fitted to each frame
    /// (that second pass over a frame's coefficients doubles the time a frame takes to compress, for a file 3–4 %
    /// smaller that lives only until the movie is written; the pixels decoded are the same either way).
    var ringOptions: EncodingOptions {
        EncodingOptions(
            quality: 0.9, optimizesHuffmanTables: false, colorSpace: colorSpace.colorSpace, embedsColorProfile: false,
            threads: 1)
    }

    /// Makes one movie-size stream frame, compresses it and returns it.
    func record() async throws(CaptureError) -> LivePhotoMovieFrame {
        try compress(try await produceFrame())
    }

    /// Makes one movie-size stream frame, asked for in 8-bit RGBA (what its JPEG is compressed from; a device that
    /// cannot make it delivers its own format, which the compression converts).
    func produceFrame() async throws(CaptureError) -> CaptureFrame {
        let size = StreamConfiguration.Dimensions(width: dimensions.width, height: dimensions.height)
        return try await pump.produce(raw: false, processed: true, outputDimensions: size, pixelFormat: .rgba8)
    }

    /// Compresses a movie-size stream frame for the ring buffer and reduces it for motion analysis.
    func compress(_ frame: CaptureFrame) throws(CaptureError) -> LivePhotoMovieFrame {
        guard var image = frame.image else { throw .processing("the camera delivered a movie frame without pixels") }
        if image.colorSpace == nil { image.colorSpace = colorSpace.colorSpace }
        do {
            // The JPEG's 8-bit pixels, converted once and shared with the motion analysis's reduction.
            let pixels = try JPEG.encodedPixels(of: image, options: ringOptions)
            var reduced = stabilizer.reduced(pixels)
            // A frame no wider than the analysis is its own reduction: the ring keeps a copy, so that the camera's
            // buffer goes back to its pool.
            if reduced.width == image.width { reduced = reduced.copy() }
            return LivePhotoMovieFrame(
                jpeg: try JPEG.encode(pixels, options: ringOptions), reduced: reduced, time: frame.presentationTime,
                duration: frame.duration)
        } catch {
            throw .processing("encoding a Live Photo movie frame failed: \(error)")
        }
    }

    /// Records movie frames until `isLast` says a frame is the last.
    ///
    /// Each frame is compressed (on one thread) while the camera makes the next (on all of them), and `keep`
    /// receives the frames in order, each before `isLast` sees the next one: the frames made and their order are
    /// those of recording one frame after another.
    func record(
        until isLast: (CaptureFrame) -> Bool, keep: (LivePhotoMovieFrame) -> Void
    ) async throws(CaptureError) {
        var compressing: Task<Result<LivePhotoMovieFrame, CaptureError>, Never>?
        while true {
            let frame = try await produceFrame()
            let previous = compressing
            compressing = Task { () -> Result<LivePhotoMovieFrame, CaptureError> in
                do throws(CaptureError) { return .success(try compress(frame)) } catch { return .failure(error) }
            }
            if let previous { keep(try await previous.value.get()) }
            if isLast(frame) { break }
        }
        if let last = compressing {
            compressing = nil
            keep(try await last.value.get())
        }
    }

    /// Makes one movie-size stream frame for the ring buffer while the session idles (``PhotoOutput``'s
    /// ``PhotoOutput/recordsLivePhotoRing``); it is compressed and appended while the caller makes the next frame.
    func recordIntoRing() async throws(CaptureError) {
        let frame = try await produceFrame()
        await ring.append(compressing: { try? compress(frame) }, span: Self.preRoll)
    }

    /// Tops the ring buffer up until it holds the pre-roll (frames made now stand for the ones a continuously
    /// running device would already hold).
    ///
    /// It is bounded by the device clock, not by a count of frames: once twice the pre-roll has passed since it
    /// began, the capture goes on with what the ring holds (a shorter pre-roll), however the stream's frames were
    /// shared out meanwhile.
    func fillPreRoll() async throws(CaptureError) {
        await ring.waitForPendingFrame()
        guard ring.span < Self.preRoll else { return }
        var start: MediaTime?
        try await record(
            until: { frame in
                let first = start ?? frame.presentationTime
                start = first
                let end = frame.presentationTime + frame.duration
                return ring.span(appendingFrom: frame.presentationTime, to: end, span: Self.preRoll) >= Self.preRoll
                    || end - first >= Self.preRoll.multiplied(by: 2)
            },
            keep: { ring.append($0, span: Self.preRoll) })
    }

    /// The frames after the still, until ``postRoll`` past it; stops after the first frame when `isSuspended`
    /// turns true (so a movie always has a frame at the still).
    func recordPostRoll(after stillTime: MediaTime, isSuspended: @Sendable () -> Bool) async throws(CaptureError)
        -> [LivePhotoMovieFrame]
    {
        var frames: [LivePhotoMovieFrame] = []
        try await record(
            until: { frame in frame.presentationTime + frame.duration - stillTime >= Self.postRoll || isSuspended() },
            keep: { f in
                frames.append(f)
                ring.append(f, span: Self.preRoll)
            })
        return frames
    }

    /// What ``write(_:stillTime:to:identifier:metadata:microphone:autoTrim:stabilize:renderer:)`` produced.
    struct Movie: Sendable {
        var duration: MediaTime
        var photoTime: MediaTime
        var frameCount: Int
        var wasTrimmed: Bool
    }

    /// Writes the movie of `frames` (pre-roll and post-roll, in order) with the still at `stillTime`.
    func write(
        _ frames: [LivePhotoMovieFrame], stillTime: MediaTime, to url: URL, identifier: String,
        metadata: [LivePhotoMetadataItem], microphone: SimulatedMicrophone?, autoTrim: Bool, stabilize: Bool,
        renderer: RenderContext
    ) throws(CaptureError) -> Movie {
        guard let first = frames.first, let last = frames.last else {
            throw .processing("no frames were recorded for the Live Photo movie")
        }
        let t0 = first.time
        let times = frames.map { $0.time - t0 }
        let end = last.end - t0
        let photo = min(max(stillTime - t0, .zero), end)
        // Shoe shot: keep the part without the camera being raised or lowered.
        var range = MediaTime.zero..<end
        if autoTrim, frames.count > 2 {
            let motion = FrameMotion.measure(frames.map(\.reduced))
            range = LivePhotoAutoTrimmer().trimRange(
                motion: motion, frameTimes: times, frameWidth: first.reduced.width, photoTime: photo, duration: end)
        }
        var kept = frames.indices.filter {
            times[$0] < range.upperBound && times[$0] + frames[$0].duration > range.lowerBound
        }
        guard !kept.isEmpty else { throw .processing("the Live Photo movie's trim kept no frame") }
        let start = max(range.lowerBound, times[kept[0]])
        // Stabilisation warps the kept frames with transforms computed from all of them.
        var transforms: [AffineTransform]?
        if stabilize, kept.count >= 3, dimensions.width >= 64, dimensions.height >= 64 {
            do {
                transforms = try stabilizer.transforms(
                    reduced: kept.map { frames[$0].reduced }, width: dimensions.width, height: dimensions.height)
            } catch {
                throw .processing("stabilising the Live Photo movie failed: \(error)")
            }
        }
        let movieEnd =
            min(range.upperBound, times[kept[kept.count - 1]] + frames[kept[kept.count - 1]].duration) - start
        // A frame that begins within half a tick of a trimmed end would show for no time in the movie's timescale
        // (the writer refuses it): the frame before it shows to the end instead.
        let timescale = videoSettings.timescale
        let endTick = movieEnd.converted(toTimescale: timescale).value
        while kept.count > 1, (times[kept[kept.count - 1]] - start).converted(toTimescale: timescale).value >= endTick {
            kept.removeLast()
        }
        var items = [MovieMetadataItem(key: .contentIdentifier, value: .string(identifier))]
        for item in metadata {
            let key = item.key.contains(".") ? item.key : "com.apple.quicktime.\(item.key)"
            if key != MovieMetadataItem.Key.contentIdentifier.rawValue,
                !items.contains(where: { $0.key.rawValue == key })
            {
                items.append(MovieMetadataItem(key: MovieMetadataItem.Key(rawValue: key), value: .string(item.value)))
            }
        }
        if autoTrim { items.append(MovieMetadataItem(key: .livePhotoAuto, value: .uint8(1))) }
        let audio = microphone.map {
            $0.buffer(at: t0 + start, frameCount: Int(movieEnd.seconds * Double($0.sampleRate)))
        }
        var settings = QuickTimeWriter.Settings(
            video: videoSettings,
            audio: audio.map { .init(sampleRate: $0.sampleRate, channelCount: $0.channelCount) }, metadata: items)
        settings.video?.frameDuration = first.duration
        let writer: QuickTimeWriter
        do { writer = try QuickTimeWriter(writingTo: url, settings: settings) } catch {
            throw .processing("writing the Live Photo movie \(url.lastPathComponent) failed: \(error)")
        }
        var frameOptions = renderer.options
        frameOptions.threadCount = 1
        let workers = max(1, renderer.options.threadCount ?? Parallel.defaultThreadCount)
        let job = MovieFrameJob(
            frames: kept.map { frames[$0].jpeg }, transforms: transforms, settings: settings.video!,
            renderer: RenderContext(options: frameOptions), targets: BufferPool(capacityPerKey: workers + 2))
        do {
            try runFramePipeline(
                count: kept.count, window: workers + 2, workers: workers,
                transform: { (k) throws(CaptureError) in try job.prepare(k) },
                sink: { (k, prepared) throws(CaptureError) in
                    do {
                        try writer.appendVideoFrame(prepared, at: max(.zero, times[kept[k]] - start))
                        // Sound interleaved by the half second.
                        if k == kept.count / 2, let a = audio {
                            try writer.appendAudio(
                                Array(a.samples.prefix(a.samples.count / 2 / a.channelCount * a.channelCount)))
                        }
                    } catch {
                        throw .processing("writing the Live Photo movie \(url.lastPathComponent) failed: \(error)")
                    }
                })
            if let a = audio {
                try writer.appendAudio(
                    Array(a.samples.dropFirst(a.samples.count / 2 / a.channelCount * a.channelCount)))
            }
            try writer.setStillImageTime(min(max(photo - start, .zero), movieEnd))
            try writer.finish(endTime: movieEnd)
        } catch {
            writer.cancel()
            throw error as? CaptureError
                ?? .processing("writing the Live Photo movie \(url.lastPathComponent) failed: \(error)")
        }
        return Movie(
            duration: movieEnd, photoTime: min(max(photo - start, .zero), movieEnd), frameCount: kept.count,
            wasTrimmed: range != MediaTime.zero..<end)
    }
}

/// Turns a kept ring-buffer frame into a frame for the movie's codec: decoded, warped when stabilising (bilinear in
/// the 8-bit values, `PixelBuffer.warpRGBA8(by:into:)`), converted (or, for a Motion-JPEG movie without
/// stabilisation, passed on as it is).
struct MovieFrameJob: Sendable {
    let frames: [[UInt8]]
    let transforms: [AffineTransform]?
    let settings: QuickTimeWriter.VideoSettings
    let renderer: RenderContext
    /// The warped frames' 8-bit buffers, reused from frame to frame (back in the pool once a frame is converted for
    /// the encoder); a fresh buffer per frame cost the kernel a page clear per 4 KB.
    let targets: BufferPool

    func prepare(_ k: Int) throws(CaptureError) -> PreparedVideoFrame {
        do {
            if transforms == nil, settings.codec == .motionJPEG { return try PreparedVideoFrame(jpegData: frames[k]) }
            var decoded = try JPEG.decode(frames[k]).pixels
            decoded.colorSpace = settings.colorSpace
            guard let t = transforms?[k] else {
                return try QuickTimeWriter.prepareVideoFrame(decoded, settings: settings)
            }
            var buffer = try targets.buffer(
                format: .rgba8, width: settings.width, height: settings.height, colorSpace: settings.colorSpace)
            // The decoded 8-bit pixels warped in their stored values, as video stabilisers do (the engine's route, for
            // other formats, interpolates in linear light through float rows: five times the work).
            if decoded.warpRGBA8(by: t, into: &buffer) {
                return try QuickTimeWriter.prepareVideoFrame(buffer, settings: settings)
            }
            let frameRect = Rect(width: settings.width, height: settings.height)
            let warped = Image(buffer: decoded).clampedToExtent().transformed(by: t).cropped(to: frameRect)
            return try renderer.prepareVideoFrame(warped, bounds: frameRect, settings: settings, reusing: &buffer)
        } catch {
            throw .processing("preparing Live Photo movie frame \(k) failed: \(error)")
        }
    }
}
