public import FoundationEssentials
import LuxColor
public import LuxPixels

/// Writes a QuickTime movie (.mov) as it goes: H.264, HEVC or Motion-JPEG video, AAC or 16-bit PCM audio,
/// movie-level metadata and timed metadata — the layout of an iPhone's Live Photo movie (FORMATS.md §5).
///
/// H.264 and HEVC frames are compressed by libx264 and libx265, AAC by FFmpeg's encoder (FFmpeg's libraries);
/// this writer lays the compressed samples, their timing (key frames, reordering) and the codec configuration out
/// in the file itself, because FFmpeg's muxer cannot write Apple's timed-metadata ('mebx') tracks.
///
/// Frames and audio are written to a temporary file beside the destination as they arrive, so a long movie is
/// never held in memory; ``finish(endTime:)`` drains the encoders, appends the movie header (or, with
/// ``Settings/fastStart``, puts it first) and renames the file into place. A writer that is cancelled, fails or is
/// dropped leaves nothing behind and never replaces an existing file.
///
/// ```swift
/// var settings = QuickTimeWriter.Settings(
///     video: .init(width: 1440, height: 1080), audio: .init(sampleRate: 44_100, channelCount: 1))
/// settings.metadata = [MovieMetadataItem(key: .contentIdentifier, value: .string(identifier))]
/// let writer = try QuickTimeWriter(writingTo: URL(fileURLWithPath: "IMG_0001.MOV"), settings: settings)
/// for (i, frame) in frames.enumerated() {
///     try writer.appendVideoFrame(frame, at: MediaTime(value: Int64(i), timescale: 30))
/// }
/// try writer.appendAudio(samples)
/// try writer.setStillImageTime(MediaTime(value: 3, timescale: 2))
/// try writer.finish()
/// ```
///
/// A writer is used from one thread at a time. Prepare frames in parallel with
/// ``prepareVideoFrame(_:settings:)`` (colour matching and conversion, or JPEG compression) and append the results
/// in order with ``appendVideoFrame(_:at:)-(PreparedVideoFrame,_)``.
public final class QuickTimeWriter {
    /// The file being written.
    public let destination: URL
    /// The settings.
    public let settings: Settings
    private let file: AtomicFile
    private var video: TrackRecorder?
    private var audio: TrackRecorder?
    private var timedMetadata: [(track: TrackRecorder, groups: [TimedMetadataGroup])] = []
    private var videoEncoder: VideoEncoder?
    private var audioEncoder: AudioEncoder?
    /// The first and the latest video frame's time (media ticks).
    private var firstVideoTick: Int64?
    private var lastVideoTick: Int64?
    /// Per compressed sample, in decode order: decode and presentation ticks and whether it is a key frame.
    private var encodedTiming: (decode: [Int64], presentation: [Int64], sync: [Bool]) = ([], [], [])
    private var appendedFrames = 0
    private var audioFramesIn = 0
    private var isFinished = false

    /// Offset of the media data: ftyp (20) + wide (8) + mdat header (8).
    static let mediaDataStart = 36

    /// Starts a movie at `url`.
    ///
    /// - Throws: ``CodecError/invalidArgument(_:)`` for settings out of range (listing what is allowed);
    ///   ``CodecError/unsupported(what:reason:)`` when FFmpeg lacks an encoder the settings need;
    ///   ``CodecError/io(path:reason:)`` when the folder cannot be written.
    public init(writingTo url: URL, settings: Settings) throws(CodecError) {
        try settings.validate()
        destination = url
        self.settings = settings
        var nextID = 1
        if let v = settings.video {
            var configuration: [UInt8] = v.compressedConfiguration ?? []
            if v.codec != .motionJPEG, v.compressedConfiguration == nil {
                let encoder = try VideoEncoder(settings: v, file: url.lastPathComponent)
                configuration = encoder.configuration
                videoEncoder = encoder
            }
            video = TrackRecorder(id: nextID, media: .video(v, configuration: configuration), timescale: v.timescale)
            nextID += 1
        }
        if let a = settings.audio {
            var track: TrackRecorder
            if a.codec == .aac {
                let encoder = try AudioEncoder(
                    sampleRate: a.sampleRate, channelCount: a.channelCount, file: url.lastPathComponent)
                audioEncoder = encoder
                track = TrackRecorder(
                    id: nextID, media: .audio(a, configuration: encoder.configuration), timescale: Int32(a.sampleRate))
                track.mediaStart = Int64(encoder.priming)
            } else {
                track = TrackRecorder(
                    id: nextID, media: .audio(a, configuration: []), timescale: Int32(a.sampleRate),
                    constantSampleSize: UInt32(2 * a.channelCount))
            }
            track.startTicks = a.startTime.converted(toTimescale: Int32(a.sampleRate)).value
            audio = track
        }
        file = try AtomicFile(destination: url)
        var w = AtomWriter(capacity: 36)
        w.atom("ftyp") { w in
            w.fourCC("qt  ")
            w.u32(0)
            w.fourCC("qt  ")
        }
        w.atom("wide") { _ in }
        w.u32(0)  // mdat size, patched by finish
        w.fourCC("mdat")
        try file.append(w.bytes)
    }

    /// The number of video frames appended.
    public var videoFrameCount: Int { appendedFrames }
    /// The number of audio frames (samples per channel) appended.
    public var audioFrameCount: Int { audioFramesIn }

    // MARK: Video

    /// Prepares `pixels` for a track with `settings`: colour-matched into the track's colour space, then compressed
    /// as a JPEG (Motion-JPEG, no embedded profile: the track's 'colr' atom describes it) or converted to the
    /// encoder's Y′CbCr (H.264, HEVC: 4:2:0, video range, BT.709 matrix).
    ///
    /// Safe to call from several threads at once.
    ///
    /// - Throws: ``CodecError/invalidArgument(_:)`` when the size differs from the settings.
    public static func prepareVideoFrame(_ pixels: PixelBuffer, settings: VideoSettings) throws(CodecError)
        -> PreparedVideoFrame
    {
        guard pixels.width == settings.width, pixels.height == settings.height else {
            throw .invalidArgument(
                "a \(pixels.width)×\(pixels.height) frame does not fit a \(settings.width)×\(settings.height) video track"
            )
        }
        let options = EncodingOptions(
            quality: settings.quality, chromaSubsampling: settings.chromaSubsampling, colorSpace: settings.colorSpace,
            embedsColorProfile: false, threads: 1)
        if settings.codec == .motionJPEG {
            return PreparedVideoFrame(
                payload: .jpeg(try JPEG.encode(pixels, options: options)), width: pixels.width, height: pixels.height,
                codec: .motionJPEG)
        }
        let (matched, _) = try JPEG.prepare(pixels, gray: false, options: options)
        return PreparedVideoFrame(
            payload: .picture(try VideoPicture(converting: matched)), width: pixels.width, height: pixels.height,
            codec: settings.codec)
    }

    /// Prepares, compresses and appends a frame shown from `time` (on the movie's timeline) until the next frame.
    ///
    /// - Throws: ``CodecError/invalidArgument(_:)`` without a video track, for a frame of another size, or a time
    ///   not after the previous frame's; ``CodecError/io(path:reason:)`` when writing fails.
    public func appendVideoFrame(_ pixels: PixelBuffer, at time: MediaTime) throws(CodecError) {
        guard let v = settings.video else {
            throw .invalidArgument("this movie has no video track (settings.video is nil)")
        }
        try Self.checkEncodes(v)
        try appendVideoFrame(try Self.prepareVideoFrame(pixels, settings: v), at: time)
    }

    /// Appends a prepared frame shown from `time`; an H.264/HEVC frame is compressed now (the encoder may hold a
    /// few frames back to reorder them, and writes them later).
    ///
    /// - Throws: ``CodecError/invalidArgument(_:)`` for a frame of another size or codec, or a time not after the
    ///   previous frame's; the encoder's and the file's errors.
    public func appendVideoFrame(_ frame: PreparedVideoFrame, at time: MediaTime) throws(CodecError) {
        guard var track = video, let v = settings.video else {
            throw .invalidArgument("this movie has no video track (settings.video is nil)")
        }
        try checkOpen()
        try Self.checkEncodes(v)
        guard frame.width == v.width, frame.height == v.height, frame.codec == v.codec else {
            throw .invalidArgument(
                "video frame \(appendedFrames) is a \(frame.width)×\(frame.height) \(frame.codec.name) frame; the track "
                    + "is \(v.width)×\(v.height) \(v.codec.name)")
        }
        let tick = try ticks(time, timescale: v.timescale, what: "video frame time")
        if let last = lastVideoTick {
            guard tick > last else {
                throw .invalidArgument(
                    "video frame \(appendedFrames) at \(time) is not after the previous frame "
                        + "(\(MediaTime(value: last, timescale: v.timescale)))")
            }
            guard tick - last <= Int64(UInt32.max) else {
                throw .invalidArgument("a gap of \(time) between frames is too long")
            }
        } else {
            track.startTicks = tick
            firstVideoTick = tick
        }
        switch frame.payload {
        case .jpeg(let bytes):
            if let last = lastVideoTick { track.addDuration(UInt32(tick - last)) }
            let offset = UInt64(file.size)
            try file.append(bytes)
            track.addSamples(count: 1, size: bytes.count, at: offset)
            video = track
        case .picture(let picture):
            video = track
            try writeEncoded(try videoEncoder!.encode(picture, at: tick - (firstVideoTick ?? tick)))
        }
        lastVideoTick = tick
        appendedFrames += 1
    }

    /// Throws unless the track `v` encodes the frames it is given (a copying track takes compressed samples only).
    private static func checkEncodes(_ v: VideoSettings) throws(CodecError) {
        guard v.compressedConfiguration == nil else {
            throw .invalidArgument(
                "this track copies compressed frames (settings.video.compressedConfiguration is set): append them with "
                    + "appendCompressedVideoSample")
        }
    }

    /// Appends a frame that is already compressed, as it is: nothing is decoded or encoded.
    ///
    /// For a track whose settings give the frames' configuration (``VideoSettings/compressedConfiguration``), with
    /// samples read by a ``CompressedVideoReader``: in decode order, the first a sync sample, with their media times
    /// (any origin; the sample shown first starts the track, at the movie's start).
    ///
    /// - Throws: ``CodecError/invalidArgument(_:)`` on a track that encodes its frames, for a first sample that is not
    ///   a sync sample, a decode time not after the previous sample's (or more than 2³² − 1 ticks after it) or a time
    ///   that is not a number; ``CodecError/io(path:reason:)`` when writing fails.
    public func appendCompressedVideoSample(_ sample: CompressedVideoSample) throws(CodecError) {
        guard let v = settings.video, v.compressedConfiguration != nil, var track = video else {
            throw .invalidArgument(
                "compressed frames go into a video track whose settings give their configuration "
                    + "(settings.video.compressedConfiguration)")
        }
        try checkOpen()
        guard sample.decodeTime.isNumeric, sample.presentationTime.isNumeric else {
            throw .invalidArgument("compressed sample \(appendedFrames) has a time that is not a number")
        }
        let decode = sample.decodeTime.converted(toTimescale: v.timescale).value
        let presentation = sample.presentationTime.converted(toTimescale: v.timescale).value
        if let previous = encodedTiming.decode.last {
            guard decode > previous, decode - previous <= Int64(UInt32.max) else {
                throw .invalidArgument(
                    "compressed sample \(appendedFrames) is decoded at \(sample.decodeTime): not after the previous "
                        + "sample, or too long after it")
            }
        } else {
            guard sample.isSync else {
                throw .invalidArgument("the first compressed sample must be a sync sample (decoding starts there)")
            }
        }
        let offset = UInt64(file.size)
        try file.append(sample.data)
        track.addSamples(count: 1, size: sample.data.count, at: offset)
        video = track
        // Media ticks as they came; `complete` rebases them on the first shown.
        encodedTiming.decode.append(decode)
        encodedTiming.presentation.append(presentation)
        encodedTiming.sync.append(sample.isSync)
        firstVideoTick = min(firstVideoTick ?? presentation, presentation)
        lastVideoTick = max(lastVideoTick ?? presentation, presentation)
        appendedFrames += 1
    }

    /// Writes compressed samples into the video track.
    private func writeEncoded(_ samples: [VideoEncoder.Sample]) throws(CodecError) {
        guard var track = video else { return }
        for s in samples {
            let offset = UInt64(file.size)
            try file.append(s.data)
            track.addSamples(count: 1, size: s.data.count, at: offset)
            encodedTiming.decode.append(s.decodeTick)
            encodedTiming.presentation.append(s.presentationTick)
            encodedTiming.sync.append(s.isSync)
        }
        video = track
    }

    // MARK: Audio

    /// Appends interleaved 16-bit samples (`channelCount` per frame); AAC is compressed as whole packets of 1024
    /// frames fill.
    ///
    /// - Throws: ``CodecError/invalidArgument(_:)`` without an audio track or for a count that is not a multiple
    ///   of the channel count.
    public func appendAudio(_ samples: [Int16]) throws(CodecError) {
        try samples.withUnsafeBufferPointer { (p) throws(CodecError) in try appendAudio(p) }
    }

    /// Appends interleaved 16-bit samples (`channelCount` per frame).
    public func appendAudio(_ samples: UnsafeBufferPointer<Int16>) throws(CodecError) {
        guard let a = settings.audio else {
            throw .invalidArgument("this movie has no audio track (settings.audio is nil)")
        }
        try checkOpen()
        guard samples.count % a.channelCount == 0 else {
            throw .invalidArgument("\(samples.count) samples are not whole frames of \(a.channelCount) channels")
        }
        guard !samples.isEmpty else { return }
        audioFramesIn += samples.count / a.channelCount
        if let encoder = audioEncoder {
            try writeAudioPackets(try encoder.encode(samples))
            return
        }
        var bytes = [UInt8](repeating: 0, count: 2 * samples.count)
        bytes.withUnsafeMutableBytes { raw in
            for (i, s) in samples.enumerated() {
                raw.storeBytes(of: s.littleEndian, toByteOffset: 2 * i, as: Int16.self)
            }
        }
        let frames = samples.count / a.channelCount
        let offset = UInt64(file.size)
        try file.append(bytes)
        audio?.addSamples(count: frames, size: 0, at: offset)
        audio?.addDuration(1, count: UInt32(frames))
    }

    /// Writes AAC packets into the audio track.
    private func writeAudioPackets(_ packets: [AudioEncoder.Packet]) throws(CodecError) {
        guard var track = audio else { return }
        for p in packets {
            let offset = UInt64(file.size)
            try file.append(p.data)
            track.addSamples(count: 1, size: p.data.count, at: offset)
            track.addDuration(UInt32(clamping: max(1, p.frameCount)))
        }
        audio = track
    }

    // MARK: Timed metadata

    /// Adds a timed-metadata track ('mebx', handler 'meta') holding `groups`, which describes the video track.
    ///
    /// Groups are sorted by time; a gap between two groups is closed by extending the earlier one, and the track
    /// starts with an empty edit when the first group starts after zero (the layout of Apple's still-image-time
    /// track). The samples are written by ``finish(endTime:)``.
    ///
    /// - Throws: ``CodecError/invalidArgument(_:)`` for no groups, an empty group, overlapping groups, negative
    ///   times or durations shorter than one tick of the movie timescale.
    public func addTimedMetadata(_ groups: [TimedMetadataGroup]) throws(CodecError) {
        try checkOpen()
        guard !groups.isEmpty else { throw .invalidArgument("a timed-metadata track needs at least one group") }
        let sorted = groups.sorted { $0.time < $1.time }
        var keys: [(key: MovieMetadataItem.Key, dataType: UInt32)] = []
        for (i, g) in sorted.enumerated() {
            guard !g.items.isEmpty else { throw .invalidArgument("timed-metadata group \(i) has no items") }
            guard g.time.isNumeric, g.time >= .zero, g.duration.isNumeric,
                g.duration.converted(toTimescale: settings.movieTimescale).value >= 1
            else {
                throw .invalidArgument(
                    "timed-metadata group \(i) at \(g.time) lasting \(g.duration) needs a time ≥ 0 and a duration of at "
                        + "least 1/\(settings.movieTimescale) s")
            }
            if i > 0, sorted[i - 1].time + sorted[i - 1].duration > g.time {
                throw .invalidArgument("timed-metadata groups at \(sorted[i - 1].time) and \(g.time) overlap")
            }
            for item in g.items where !keys.contains(where: { $0.key == item.key }) {
                keys.append((item.key, item.value.dataType))
            }
        }
        let id = (video == nil ? 0 : 1) + (audio == nil ? 0 : 1) + timedMetadata.count + 1
        var track = TrackRecorder(id: id, media: .metadata(keys: keys), timescale: settings.movieTimescale)
        track.describesTrack = video?.id
        timedMetadata.append((track, sorted))
    }

    /// Marks the still photo's time: a timed-metadata track with one `com.apple.quicktime.still-image-time`
    /// sample (`int8` −1) one tick long, placed at `time` with an empty edit — as an iPhone writes it.
    public func setStillImageTime(_ time: MediaTime) throws(CodecError) {
        try addTimedMetadata([
            TimedMetadataGroup(
                time: time, duration: MediaTime(value: 1, timescale: settings.movieTimescale),
                items: [MovieMetadataItem(key: .stillImageTime, value: .int8(-1))])
        ])
    }

    // MARK: Finishing

    /// Completes the movie and renames it into place.
    ///
    /// - Parameter endTime: When the last video frame stops showing (default: its time plus
    ///   ``VideoSettings/frameDuration``).
    /// - Throws: ``CodecError/invalidArgument(_:)`` for a video track without frames or an `endTime` not after the
    ///   last frame; ``CodecError/io(path:reason:)`` when writing fails (the destination is then untouched).
    public func finish(endTime: MediaTime? = nil) throws(CodecError) {
        try checkOpen()
        isFinished = true
        do throws(CodecError) {
            try complete(endTime: endTime)
        } catch {
            file.abandon()
            throw error
        }
    }

    /// Abandons the movie: the temporary file is removed and the destination is untouched.
    public func cancel() {
        isFinished = true
        file.abandon()
    }

    private func complete(endTime: MediaTime?) throws(CodecError) {
        if settings.video?.compressedConfiguration != nil, let origin = firstVideoTick, let last = lastVideoTick {
            // Copied samples: their media times rebased on the first shown, which the track shows at the movie's start.
            encodedTiming.decode = encodedTiming.decode.map { $0 - origin }
            encodedTiming.presentation = encodedTiming.presentation.map { $0 - origin }
            (firstVideoTick, lastVideoTick) = (0, last - origin)
        }
        if let v = settings.video {
            guard let last = lastVideoTick, let first = firstVideoTick else {
                throw .invalidArgument("the movie has a video track but no frames were appended")
            }
            let end =
                try endTime.map { (t) throws(CodecError) in try ticks(t, timescale: v.timescale, what: "end time") }
                ?? last + max(1, v.frameDuration.converted(toTimescale: v.timescale).value)
            guard end > last else { throw .invalidArgument("the end time \(endTime!) is not after the last frame") }
            if let encoder = videoEncoder {
                try writeEncoded(try encoder.encode(nil, at: 0))
                guard encodedTiming.decode.count == appendedFrames else {
                    throw .library(
                        name: "\(v.codec.name) encoder",
                        message: "\(appendedFrames) frames in, \(encodedTiming.decode.count) compressed frames out")
                }
            }
            if videoEncoder != nil || v.compressedConfiguration != nil {
                let timing = encodedTiming
                video?.setReorderedTiming(
                    decode: timing.decode, presentation: timing.presentation, sync: timing.sync, end: end - first)
            } else {
                video?.addDuration(UInt32(clamping: end - last))
            }
        }
        if let encoder = audioEncoder {
            try writeAudioPackets(try encoder.finish())
            audio?.presentedTicks = Int64(audioFramesIn)
        }
        var tracks = [video, audio].compactMap { $0 }
        for (var track, groups) in timedMetadata {
            let scale = settings.movieTimescale
            track.startTicks = groups[0].time.converted(toTimescale: scale).value
            guard case .metadata(let keys) = track.media else { continue }
            for (i, g) in groups.enumerated() {
                var sample = AtomWriter()
                for item in g.items {
                    let value = item.value.encoded
                    sample.u32(UInt32(8 + value.count))
                    sample.u32(UInt32(keys.firstIndex { $0.key == item.key }! + 1))
                    sample.append(value)
                }
                let offset = UInt64(file.size)
                try file.append(sample.bytes)
                track.addSamples(count: 1, size: sample.count, at: offset)
                let start = g.time.converted(toTimescale: scale).value
                let end =
                    i + 1 < groups.count
                    ? groups[i + 1].time.converted(toTimescale: scale).value
                    : start + g.duration.converted(toTimescale: scale).value
                track.addDuration(UInt32(clamping: max(1, end - start)))
            }
            tracks.append(track)
        }
        // Media data size: 32-bit when it fits, else a 64-bit header over the 'wide' placeholder.
        let dataEnd = file.size
        if dataEnd - 28 <= Int(UInt32.max) {
            var w = AtomWriter()
            w.u32(UInt32(dataEnd - 28))
            try file.write(w.bytes, at: 28)
        } else {
            var w = AtomWriter()
            w.u32(1)
            w.fourCC("mdat")
            w.u64(UInt64(dataEnd - 20))
            try file.write(w.bytes, at: 20)
        }
        let creation = UInt64(max(0, (settings.creationDate ?? Date()).timeIntervalSince1970 + 2_082_844_800))
        let builder = MovieAtomBuilder(
            movieTimescale: settings.movieTimescale, creationTime: creation, metadata: settings.metadata)
        if !settings.fastStart {
            try file.append(builder.build(tracks, shift: 0))
            try file.commit(synchronize: settings.synchronizesFile)
            return
        }
        // Fast start: ftyp, moov (offsets shifted by its own size), then the media data copied from the first file.
        var moov = builder.build(tracks, shift: 0)
        while true {
            let next = builder.build(tracks, shift: UInt64(moov.count))
            if next.count == moov.count {
                moov = next
                break
            }
            moov = next
        }
        let out = try AtomicFile(destination: destination)
        try out.append(try file.read(at: 0, count: 20))
        try out.append(moov)
        var offset = 20
        while offset < dataEnd {
            let piece = try file.read(at: offset, count: min(4 << 20, dataEnd - offset))
            guard !piece.isEmpty else { throw .io(path: destination.path, reason: "the temporary file ended early") }
            try out.append(piece)
            offset += piece.count
        }
        try out.commit(synchronize: settings.synchronizesFile)
        file.abandon()
    }

    private func checkOpen() throws(CodecError) {
        if isFinished {
            throw .invalidArgument("the movie \(destination.lastPathComponent) was already finished or cancelled")
        }
    }

    private func ticks(_ time: MediaTime, timescale: Int32, what: String) throws(CodecError) -> Int64 {
        guard time.isNumeric, time >= .zero else { throw .invalidArgument("\(what) \(time) must be a time ≥ 0") }
        return time.converted(toTimescale: timescale).value
    }
}
