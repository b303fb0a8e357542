internal import CAVCodec
internal import CAVFormat
internal import CAVUtil
internal import CLuxMediaShims
import LuxPixels

/// Reads the compressed frames of a movie's H.264 (`avc1`) or HEVC (`hvc1`) track as they are stored, in decode
/// order, with the track's decoder configuration (`avcC`/`hvcC`), through FFmpeg's demuxer — to copy them into
/// another movie with ``QuickTimeWriter/appendCompressedVideoSample(_:)``, without decoding or re-encoding them.
///
/// Times are those of the track's media (its edit list is not applied): the writer places the frames with its own.
/// Sync samples are those of the track's 'stss' table (every sample without one).
///
/// ```swift
/// let reader = try CompressedVideoReader(movie: movie)
/// let track = reader.track
/// var video = QuickTimeWriter.VideoSettings(width: track.width, height: track.height, codec: reader.codec)
/// video.timescale = track.timescale
/// video.compressedConfiguration = reader.configuration
/// let writer = try QuickTimeWriter(writingTo: url, settings: .init(video: video))
/// while let sample = try reader.next() { try writer.appendCompressedVideoSample(sample) }
/// try writer.finish()
/// ```
public final class CompressedVideoReader {
    /// The track's codec.
    public let codec: VideoCodec
    /// The decoder configuration record (`avcC` or `hvcC`), as the track's sample entry holds it.
    public let configuration: [UInt8]
    /// The track being read.
    public let track: MovieTrack
    private let input: MediaInput
    private let stream: UnsafeMutablePointer<AVStream>
    private let packet: UnsafeMutablePointer<AVPacket>
    private var count = 0
    /// The stream's ticks per second (its time base is 1/timescale).
    private let timescale: Int32
    /// The samples' sizes in decode order, as the track's tables list them.
    private let sizes: [Int]
    /// The sync samples' numbers (1-based); `nil`: every sample.
    private let sync: Set<UInt32>?

    /// Opens `track` (default: the movie's video track) for reading.
    ///
    /// - Throws: ``CodecError/unsupported(what:reason:)`` for a track that is not `avc1` or `hvc1` (Motion-JPEG,
    ///   ProRes, or parameter sets carried in the frames), ``CodecError/invalidArgument(_:)`` without a video track,
    ///   ``CodecError/malformed(what:offset:reason:)`` when FFmpeg cannot read the movie's structure or the track's
    ///   configuration.
    public init(movie: QuickTimeMovie, track: MovieTrack? = nil) throws(CodecError) {
        guard let track = track ?? movie.videoTrack, track.kind == .video else {
            throw .invalidArgument("\(movie.name) has no video track")
        }
        guard let codec = VideoCodec.allCases.first(where: { $0 != .motionJPEG && $0.fourCC == track.codec }) else {
            throw .unsupported(
                what: "copying \(track.codecName) frames ('\(track.codec)') of \(movie.name)",
                reason: "compressed frames are copied from 'avc1' and 'hvc1' tracks")
        }
        self.codec = codec
        self.track = track
        sizes = track.table.samples().map(\.size)
        sync = track.table.syncSamples.map(Set.init)
        input = try MediaInput(data: movie.data, name: movie.name, timeLimit: nil, appliesEditLists: false)
        guard let stream = input.streams.first(where: { Int($0.pointee.id) == track.id }) else {
            throw .malformed(what: movie.name, offset: 0, reason: "FFmpeg finds no stream for track \(track.id)")
        }
        let base = stream.pointee.time_base
        guard base.num == 1, base.den > 0 else {
            throw .malformed(
                what: "\(track.codecName) video in \(movie.name)", offset: 0,
                reason: "the time base \(base.num)/\(base.den) is not 1/timescale")
        }
        timescale = base.den
        self.stream = stream
        for other in input.streams where other != stream { other.pointee.discard = AVDISCARD_ALL }
        let parameters = stream.pointee.codecpar.pointee
        guard let extradata = parameters.extradata, parameters.extradata_size > 0 else {
            throw .malformed(
                what: "\(track.codecName) configuration in \(movie.name)", offset: 0,
                reason: "the track's sample entry has no \(codec == .h264 ? "avcC" : "hvcC") record")
        }
        configuration = Array(UnsafeBufferPointer(start: extradata, count: Int(parameters.extradata_size)))
        guard let packet = av.av_packet_alloc() else {
            throw .io(path: movie.name, reason: "out of memory for FFmpeg's demuxer")
        }
        self.packet = packet
    }

    deinit {
        var p: UnsafeMutablePointer<AVPacket>? = packet
        av.av_packet_free(&p)
    }

    /// The next sample in decode order, or `nil` after the last.
    ///
    /// - Throws: ``CodecError`` when the movie's data is damaged (a sample outside the file or of another size than
    ///   the tables say, more or fewer samples than they list, a sample without a time).
    public func next() throws(CodecError) -> CompressedVideoSample? {
        while try input.read(into: packet) {
            defer { av.av_packet_unref(packet) }
            guard packet.pointee.stream_index == stream.pointee.index else { continue }
            count += 1
            guard count <= track.sampleCount else {
                throw .malformed(
                    what: "\(track.codecName) video in \(input.name)", offset: Int(packet.pointee.pos),
                    reason: "FFmpeg demuxed more than the \(track.sampleCount) samples the track's tables list")
            }
            let p = packet.pointee
            guard p.dts != Int64.min, let data = p.data, Int(p.size) == sizes[count - 1],
                p.flags & AV_PKT_FLAG_CORRUPT == 0
            else {
                throw .malformed(
                    what: "\(track.codecName) sample \(count) in \(input.name)", offset: Int(p.pos),
                    reason:
                        "the sample has no decode time or data, or not the \(sizes[count - 1]) bytes the tables list")
            }
            return CompressedVideoSample(
                data: Array(UnsafeBufferPointer(start: data, count: Int(p.size))),
                decodeTime: MediaTime(value: p.dts, timescale: timescale),
                presentationTime: MediaTime(value: p.pts == Int64.min ? p.dts : p.pts, timescale: timescale),
                isSync: sync?.contains(UInt32(count)) ?? true)
        }
        guard count == track.sampleCount else {
            throw .truncated(
                what: "\(track.codecName) video in \(input.name) (\(count) of \(track.sampleCount) samples)", offset: 0)
        }
        return nil
    }
}
