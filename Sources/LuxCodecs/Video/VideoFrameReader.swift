import LuxPixels

/// Decodes the frames of a movie's video track one after another, in presentation order: H.264, HEVC (8- and
/// 10-bit) and the other codecs FFmpeg decodes through FFmpeg's libraries, Motion-JPEG through libjpeg-turbo.
///
/// Each frame comes with its presentation time and duration on the movie's timeline (the edit list applied) and its
/// pixels in RGB, converted with the Y′CbCr matrix and range the stream declares; the Y′CbCr planes themselves are
/// kept on request. At most one decoded picture is held at a time (plus the decoder's reference pictures), so a long
/// movie is read in constant memory.
///
/// ```swift
/// let movie = try QuickTimeMovie(contentsOf: URL(fileURLWithPath: "IMG_0001.MOV"))
/// let reader = try VideoFrameReader(movie: movie)
/// while let frame = try reader.next() {
///     print(frame.index, frame.time.seconds, frame.pixels.width, frame.pixels.height)
/// }
/// ```
///
/// A damaged movie — a sample table pointing past the end of the file, a missing or broken codec configuration, a
/// picture that fails to decode — throws a ``CodecError`` naming the file; so does a codec FFmpeg cannot decode.
/// A reader is used from one thread at a time.
public final class VideoFrameReader: @unchecked Sendable {
    /// The track being decoded.
    public let track: MovieTrack
    /// The options.
    public let options: VideoDecodingOptions
    private let movie: QuickTimeMovie
    private let name: String
    /// The track's samples in presentation order (Lux's reading of the sample table and the edit list).
    private let samples: [MovieSample]
    private let samplesByTime: [Int64: Int]
    private let ffmpeg: FFmpegVideoSource?
    private var position = 0
    /// The presentation time of the last frame FFmpeg gave, which the next may not precede.
    private var lastTime: MediaTime?
    /// The pixel buffers of frames handed out earlier, reused once those frames are gone (a fresh buffer for each
    /// frame costs a page fault and a page clear per 4 KB while several frames are in flight).
    private var buffers: [PixelBuffer] = []
    /// The most idle buffers kept.
    private static let keptBuffers = 8

    /// Opens `track` (default: the movie's first enabled video track) for decoding.
    ///
    /// - Throws: ``CodecError/invalidArgument(_:)`` without a video track or for a reduction other than 1, 2, 4 or
    ///   8; ``CodecError/truncated(what:offset:)`` when a frame lies past the end of the file;
    ///   ``CodecError/unsupported(what:reason:)`` for a codec neither FFmpeg nor LuxCodecs decodes;
    ///   ``CodecError/malformed(what:offset:reason:)`` when the codec configuration is damaged.
    public init(movie: QuickTimeMovie, track: MovieTrack? = nil, options: VideoDecodingOptions = VideoDecodingOptions())
        throws(CodecError)
    {
        guard let track = track ?? movie.videoTrack, track.kind == .video else {
            throw .invalidArgument("\(movie.name) has no video track")
        }
        guard [1, 2, 4, 8].contains(options.reduction) else {
            throw .invalidArgument("frames can be reduced by 1, 2, 4 or 8, not \(options.reduction)")
        }
        self.track = track
        self.options = options
        self.movie = movie
        name = movie.name
        samples = try movie.samples(of: track)
        let scale = track.timescale
        samplesByTime = Dictionary(
            samples.enumerated().map { ($1.time.converted(toTimescale: scale).value, $0) },
            uniquingKeysWith: { a, _ in a })
        // Every stored frame must lie inside the file: a movie cut short fails here, not frames later.
        let size = UInt64(movie.data.count)
        for (i, s) in track.table.samples().enumerated() where s.offset > size || UInt64(s.size) > size - s.offset {
            throw .truncated(
                what: "video frame \(i + 1) of \(track.sampleCount) in \(name) (\(s.size) bytes; the file has \(size))",
                offset: Int(clamping: s.offset))
        }
        if track.isMotionJPEG {
            ffmpeg = nil
        } else {
            ffmpeg = try FFmpegVideoSource(data: movie.data, name: name, track: track, options: options)
        }
    }

    /// Whether frames of `track` can be decoded (video in a codec FFmpeg or LuxCodecs decodes).
    public static func canDecode(_ track: MovieTrack) -> Bool { track.canDecodeFrames }

    /// The next frame in presentation order that shows within ``VideoDecodingOptions/timeRange``, or `nil` after
    /// the last.
    ///
    /// - Throws: ``CodecError`` when a frame cannot be demuxed or decoded (the message names the file and the frame),
    ///   or when the movie ends before all the frames its sample table lists were decoded.
    public func next() throws(CodecError) -> DecodedVideoFrame? {
        guard let ffmpeg else { return try nextJPEG() }
        while let (rawTime, rawDuration) = try ffmpeg.next() {
            // Lux's table gives the exact presentation span (clipped by the edit list); FFmpeg's values otherwise.
            let tick = rawTime.converted(toTimescale: track.timescale).value
            let sample = samplesByTime[tick].map { samples[$0] }
            let time = sample?.time ?? rawTime
            let duration = sample?.duration ?? rawDuration
            guard time >= .zero else { continue }
            let index = position
            position += 1
            // Frames leave the decoder in presentation order; one that goes back in time has timestamps its sample
            // table contradicts (what editors and encoders downstream cannot lay out).
            if let lastTime, time < lastTime {
                throw .malformed(
                    what: "\(track.codecName) video in \(name)", offset: 0,
                    reason: "frame \(index + 1) is presented at \(time.seconds) s, before frame \(index) at "
                        + "\(lastTime.seconds) s")
            }
            lastTime = time
            guard shows(time, duration) else { continue }
            let (w, h) = ffmpeg.size
            guard w <= options.limits.maxDimension, h <= options.limits.maxDimension else {
                throw .limitExceeded(
                    what: "video frame dimension in \(name)", value: max(w, h), limit: options.limits.maxDimension)
            }
            // The frame must be the size the sample description declares (what editors lay the movie out by).
            guard w == track.width, h == track.height else {
                throw .malformed(
                    what: "\(track.codecName) video in \(name)", offset: 0,
                    reason: "frame \(index + 1) is \(w)×\(h), but the track declares \(track.width)×\(track.height)")
            }
            var buffer = idleBuffer()
            try ffmpeg.convert(into: &buffer, reduction: options.reduction)
            keep(buffer)
            return DecodedVideoFrame(
                index: index, time: time, duration: duration, pixels: buffer,
                planes: options.keepsPlanes ? ffmpeg.planes() : nil)
        }
        if position < samples.count {
            throw .truncated(
                what: "\(track.codecName) video in \(name): \(position) of \(samples.count) frames decoded",
                offset: movie.data.count)
        }
        return nil
    }

    private func nextJPEG() throws(CodecError) -> DecodedVideoFrame? {
        while position < samples.count {
            let sample = samples[position]
            let index = position
            position += 1
            guard shows(sample.time, sample.duration) else { continue }
            var options = DecodingOptions.default
            options.limits = self.options.limits
            var buffer = idleBuffer()
            do throws(CodecError) {
                try movie.decodeVideoFrame(
                    sample, of: track, into: &buffer, reducedBy: self.options.reduction, options: options)
            } catch {
                throw error.inFile(name)
            }
            keep(buffer)
            return DecodedVideoFrame(index: index, time: sample.time, duration: sample.duration, pixels: buffer)
        }
        return nil
    }

    /// A kept buffer that no frame uses any more (the decoders replace it when its size or format differs), or a
    /// placeholder they replace.
    private func idleBuffer() -> PixelBuffer {
        for i in buffers.indices where buffers[i].isUniquelyReferenced { return buffers.remove(at: i) }
        return PixelBuffer(width: 1, height: 1, format: .rgba8)
    }

    /// Keeps `buffer` for reuse after its frame is gone.
    private func keep(_ buffer: PixelBuffer) {
        if buffers.count < Self.keptBuffers { buffers.append(buffer) }
    }

    /// Whether a frame showing from `time` for `duration` falls in the requested time range.
    private func shows(_ time: MediaTime, _ duration: MediaTime) -> Bool {
        guard let range = options.timeRange else { return true }
        return time < range.upperBound && (time + duration > range.lowerBound || time >= range.lowerBound)
    }
}
