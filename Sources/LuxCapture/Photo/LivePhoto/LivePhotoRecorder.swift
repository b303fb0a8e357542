import FoundationEssentials
import LuxCodecs
import LuxColor
import LuxFusion
import LuxIO
import LuxPixels
import LuxRender

/// Records and writes a Live Photo's movie: the ring buffer's pre-roll, the frames after the still, the microphone's
/// sound over the same span, shoe-shot trimming and stabilisation, then a QuickTime movie with the content identifier
/// and the still-image time (LuxCodecs' ``QuickTimeWriter``).
struct LivePhotoRecorder: Sendable {
    /// How much of the movie comes before the still (and after it).
    static let preRoll = MediaTime(value: 3, timescale: 2)
    static let postRoll = MediaTime(value: 3, timescale: 2)

    let pump: FramePump
    let ring: LivePhotoRingBuffer
    let dimensions: PixelDimensions
    let colorSpace: CaptureColorSpace
    let stabilizer = LivePhotoStabilizer()

    var videoSettings: QuickTimeWriter.VideoSettings {
        QuickTimeWriter.VideoSettings(
            width: dimensions.width, height: dimensions.height, quality: 0.9, colorSpace: colorSpace.colorSpace)
    }

    /// Makes one movie-size stream frame, compresses it and returns it.
    func record() async throws(CaptureError) -> LivePhotoMovieFrame {
        let size = StreamConfiguration.Dimensions(width: dimensions.width, height: dimensions.height)
        let frame = try await pump.produce(raw: false, processed: true, outputDimensions: size)
        guard var image = frame.image else { throw .processing("the camera delivered a movie frame without pixels") }
        if image.colorSpace == nil { image.colorSpace = colorSpace.colorSpace }
        do {
            let jpeg = try QuickTimeWriter.encodeVideoFrame(image, settings: videoSettings)
            return LivePhotoMovieFrame(
                jpeg: jpeg, reduced: stabilizer.reduced(image), time: frame.presentationTime, duration: frame.duration)
        } catch {
            throw .processing("encoding a Live Photo movie frame failed: \(error)")
        }
    }

    /// Tops the ring buffer up until it holds the pre-roll (frames made now stand for the ones a continuously
    /// running device would already hold).
    func fillPreRoll() async throws(CaptureError) {
        var guardCount = 0
        while ring.span < Self.preRoll {
            ring.append(try await record(), span: Self.preRoll)
            guardCount += 1
            if guardCount > 1000 { throw .processing("the camera's frame rate is too low for a Live Photo movie") }
        }
    }

    /// The frames after the still, until ``postRoll`` past it; stops after the first frame when `isSuspended`
    /// turns true (so a movie always has a frame at the still).
    func recordPostRoll(after stillTime: MediaTime, isSuspended: @Sendable () -> Bool) async throws(CaptureError)
        -> [LivePhotoMovieFrame]
    {
        var frames: [LivePhotoMovieFrame] = []
        repeat {
            let f = try await record()
            frames.append(f)
            ring.append(f, span: Self.preRoll)
            if f.end - stillTime >= Self.postRoll { break }
        } while !isSuspended()
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
        let kept = frames.indices.filter {
            times[$0] < range.upperBound && times[$0] + frames[$0].duration > range.lowerBound
        }
        guard !kept.isEmpty else { throw .processing("the Live Photo movie's trim kept no frame") }
        let start = max(range.lowerBound, times[kept[0]])
        // Stabilisation warps the kept frames (decoded, warped, encoded again).
        var jpegs = kept.map { frames[$0].jpeg }
        if stabilize, kept.count >= 3, dimensions.width >= 64, dimensions.height >= 64 {
            let transforms: [AffineTransform]
            do {
                transforms = try stabilizer.transforms(
                    reduced: kept.map { frames[$0].reduced }, width: dimensions.width, height: dimensions.height)
            } catch {
                throw .processing("stabilising the Live Photo movie failed: \(error)")
            }
            let settings = videoSettings
            let frameRect = Rect(width: dimensions.width, height: dimensions.height)
            var frame = PixelBuffer(width: dimensions.width, height: dimensions.height, format: .rgba8)
            for (k, t) in transforms.enumerated() {
                do {
                    let decoded = try JPEG.decode(jpegs[k]).pixels
                    let warped = Image(buffer: decoded).clampedToExtent().transformed(by: t).cropped(to: frameRect)
                    jpegs[k] = try renderer.encodeVideoFrame(
                        warped, bounds: frameRect, settings: settings, reusing: &frame)
                } catch {
                    throw .processing("stabilising Live Photo movie frame \(k) failed: \(error)")
                }
            }
        }
        let movieEnd =
            min(range.upperBound, times[kept[kept.count - 1]] + frames[kept[kept.count - 1]].duration) - start
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
        do {
            let writer = try QuickTimeWriter(writingTo: url, settings: settings)
            for (k, index) in kept.enumerated() {
                try writer.appendVideoFrame(jpegData: jpegs[k], at: max(.zero, times[index] - start))
                // Sound interleaved by the half second.
                if k == kept.count / 2, let a = audio {
                    try writer.appendAudio(
                        Array(a.samples.prefix(a.samples.count / 2 / a.channelCount * a.channelCount)))
                }
            }
            if let a = audio {
                try writer.appendAudio(
                    Array(a.samples.dropFirst(a.samples.count / 2 / a.channelCount * a.channelCount)))
            }
            try writer.setStillImageTime(min(max(photo - start, .zero), movieEnd))
            try writer.finish(endTime: movieEnd)
        } catch {
            throw .processing("writing the Live Photo movie \(url.lastPathComponent) failed: \(error)")
        }
        return Movie(
            duration: movieEnd, photoTime: min(max(photo - start, .zero), movieEnd), frameCount: kept.count,
            wasTrimmed: range != MediaTime.zero..<end)
    }
}
