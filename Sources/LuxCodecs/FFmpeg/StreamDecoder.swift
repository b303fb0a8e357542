internal import CAVCodec
internal import CAVFormat
internal import CAVUtil
internal import CLuxMediaShims
import LuxPixels

/// An FFmpeg decoder for one stream of a ``MediaInput``: packets in, frames out.
final class StreamDecoder {
    let input: MediaInput
    let stream: UnsafeMutablePointer<AVStream>
    let context: UnsafeMutablePointer<AVCodecContext>
    /// What the stream holds, for messages ("H.264 video", "AAC audio").
    let what: String
    private let packet: UnsafeMutablePointer<AVPacket>
    private var drained = false
    private var sentEnd = false
    /// The most packets the stream may yield: each edit of the track showing every sample its table lists.
    private let packetLimit: Int
    private var packetCount = 0

    /// Opens a decoder for `track`'s stream.
    ///
    /// - Parameters:
    ///   - track: The track, as Lux read it: its ID finds FFmpeg's stream, its sample count and edits bound the
    ///     packets read (a demuxer yielding more than the tables list is reading a hostile file).
    ///   - threads: FFmpeg's decoding threads (0: one per processor).
    ///   - maxPixels: The largest picture the decoder may allocate.
    /// - Throws: ``CodecError/unsupported(what:reason:)`` when FFmpeg has no decoder for the codec;
    ///   ``CodecError/malformed(what:offset:reason:)`` when the stream is missing or its configuration is damaged.
    init(input: MediaInput, track: MovieTrack, what: String, threads: Int, maxPixels: Int) throws(CodecError) {
        self.input = input
        self.what = what
        let (limit, overflow) = track.sampleCount.multipliedReportingOverflow(by: max(1, track.edits.count))
        packetLimit = overflow ? .max : limit
        guard let stream = input.streams.first(where: { Int($0.pointee.id) == track.id }) else {
            throw .malformed(
                what: "\(what) in \(input.name)", offset: 0, reason: "FFmpeg finds no stream for track \(track.id)")
        }
        self.stream = stream
        // Only this stream's packets are read.
        for other in input.streams where other != stream { other.pointee.discard = AVDISCARD_ALL }
        let parameters = stream.pointee.codecpar!
        guard let codec = av.avcodec_find_decoder(parameters.pointee.codec_id) else {
            throw .unsupported(
                what: "\(what) in \(input.name)", reason: "FFmpeg \(FFmpeg.version) has no decoder for this codec")
        }
        guard let context = av.avcodec_alloc_context3(codec) else {
            throw .io(path: input.name, reason: "out of memory for FFmpeg's decoder")
        }
        self.context = context
        guard let packet = av.av_packet_alloc() else {
            var c: UnsafeMutablePointer<AVCodecContext>? = context
            av.avcodec_free_context(&c)
            throw .io(path: input.name, reason: "out of memory for FFmpeg's decoder")
        }
        self.packet = packet
        var status = av.avcodec_parameters_to_context(context, parameters)
        context.pointee.pkt_timebase = stream.pointee.time_base
        context.pointee.thread_count = Int32(clamping: threads)
        context.pointee.max_pixels = Int64(maxPixels)
        // A damaged picture is an error, not a concealed one.
        context.pointee.err_recognition |= AV_EF_EXPLODE
        if status >= 0 {
            FFmpeg.clearLog()
            status = av.avcodec_open2(context, codec, nil)
        }
        if status < 0 { throw input.error(status, "\(what) configuration") }
    }

    deinit {
        var c: UnsafeMutablePointer<AVCodecContext>? = context
        av.avcodec_free_context(&c)
        var p: UnsafeMutablePointer<AVPacket>? = packet
        av.av_packet_free(&p)
    }

    /// Decodes the next frame into `frame`; `false` once the stream has ended.
    ///
    /// - Throws: ``CodecError`` when demuxing or decoding fails.
    func decode(into frame: UnsafeMutablePointer<AVFrame>) throws(CodecError) -> Bool {
        while !drained {
            try input.checkTimeLimit()
            FFmpeg.clearLog()
            let status = av.avcodec_receive_frame(context, frame)
            if status >= 0 {
                if frame.pointee.decode_error_flags != 0 || frame.pointee.flags & AV_FRAME_FLAG_CORRUPT != 0 {
                    throw .malformed(
                        what: "\(what) frame at \(frame.pointee.best_effort_timestamp) in \(input.name)",
                        offset: Int(frame.pointee.pkt_pos), reason: "FFmpeg decoded a damaged picture")
                }
                return true
            }
            if status == FFmpeg.endOfFile {
                drained = true
                break
            }
            guard status == FFmpeg.tryAgain else { throw input.error(status, what) }
            try send()
        }
        return false
    }

    /// Feeds the decoder the next packet of the stream (or the end of the stream).
    private func send() throws(CodecError) {
        guard !sentEnd else { throw .malformed(what: "\(what) in \(input.name)", offset: 0, reason: "decoder stalled") }
        while true {
            let more = try input.read(into: packet)
            defer { av.av_packet_unref(packet) }
            if !more {
                sentEnd = true
                FFmpeg.clearLog()
                let status = av.avcodec_send_packet(context, nil)
                if status < 0, status != FFmpeg.endOfFile { throw input.error(status, what) }
                return
            }
            guard packet.pointee.stream_index == stream.pointee.index else { continue }
            packetCount += 1
            guard packetCount <= packetLimit else {
                throw .malformed(
                    what: "\(what) in \(input.name)", offset: Int(packet.pointee.pos),
                    reason: "FFmpeg demuxed more than the \(packetLimit) samples the track's tables list")
            }
            FFmpeg.clearLog()
            let status = av.avcodec_send_packet(context, packet)
            if status < 0 { throw input.error(status, what, offset: Int(packet.pointee.pos)) }
            return
        }
    }

    /// `ticks` of the stream's time base as a media time.
    func time(_ ticks: Int64) -> MediaTime {
        let base = stream.pointee.time_base
        guard base.num > 0, base.den > 0 else { return .invalid }
        if base.num == 1 { return MediaTime(value: ticks, timescale: base.den) }
        return MediaTime(seconds: Double(ticks) * Double(base.num) / Double(base.den), preferredTimescale: base.den)
    }
}
