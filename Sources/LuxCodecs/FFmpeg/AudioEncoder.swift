internal import CAVCodec
internal import CAVUtil
internal import CLuxMediaShims

/// An AAC-LC encoder (FFmpeg's own): interleaved 16-bit samples in, packets of 1024 frames out, with the
/// AudioSpecificConfig the `esds` needs and the encoder's priming (the frames of silence it adds in front).
final class AudioEncoder {
    /// One compressed packet.
    struct Packet {
        var data: [UInt8]
        /// Frames it decodes to.
        var frameCount: Int
    }

    let context: UnsafeMutablePointer<AVCodecContext>
    /// The AudioSpecificConfig.
    let configuration: [UInt8]
    /// Frames of priming in front of the first real frame (skipped by the track's edit list).
    let priming: Int
    /// The bit rate in bits per second.
    let bitRate: Int
    private let frame: UnsafeMutablePointer<AVFrame>
    private let packet: UnsafeMutablePointer<AVPacket>
    private let channels: Int
    private var pending: [Int16] = []
    private var nextPTS: Int64 = 0
    private let name: String

    /// Opens an encoder for `sampleRate` and `channelCount` (1…8), naming `file` in errors.
    ///
    /// - Throws: ``CodecError/library(name:message:)`` when FFmpeg refuses the settings.
    init(sampleRate: Int, channelCount: Int, file: String) throws(CodecError) {
        try FFmpeg.prepare()
        name = file
        channels = channelCount
        guard let encoder = av.avcodec_find_encoder(AV_CODEC_ID_AAC), let context = av.avcodec_alloc_context3(encoder),
            let frame = av.av_frame_alloc(), let packet = av.av_packet_alloc()
        else { throw .unsupported(what: "AAC encoding", reason: "this FFmpeg \(FFmpeg.version) has no AAC encoder") }
        self.context = context
        self.frame = frame
        self.packet = packet
        context.pointee.sample_rate = Int32(sampleRate)
        context.pointee.sample_fmt = AV_SAMPLE_FMT_FLTP
        av.av_channel_layout_default(&context.pointee.ch_layout, Int32(channelCount))
        bitRate = 64_000 * min(channelCount, 2) + 32_000 * max(0, channelCount - 2)
        context.pointee.bit_rate = Int64(bitRate)
        context.pointee.time_base = AVRational(num: 1, den: Int32(sampleRate))
        context.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER
        FFmpeg.clearLog()
        let status = av.avcodec_open2(context, encoder, nil)
        guard status >= 0, context.pointee.frame_size > 0 else {
            let message = FFmpeg.message(status)
            Self.free(context, frame, packet)
            throw .library(name: "AAC encoder", message: "\(file): \(message)")
        }
        configuration =
            context.pointee.extradata.map {
                Array(UnsafeBufferPointer(start: $0, count: Int(context.pointee.extradata_size)))
            }
            ?? []
        priming = Int(context.pointee.initial_padding)
    }

    deinit { Self.free(context, frame, packet) }

    private static func free(
        _ context: UnsafeMutablePointer<AVCodecContext>, _ frame: UnsafeMutablePointer<AVFrame>,
        _ packet: UnsafeMutablePointer<AVPacket>
    ) {
        var c: UnsafeMutablePointer<AVCodecContext>? = context
        av.avcodec_free_context(&c)
        var f: UnsafeMutablePointer<AVFrame>? = frame
        av.av_frame_free(&f)
        var p: UnsafeMutablePointer<AVPacket>? = packet
        av.av_packet_free(&p)
    }

    /// Encodes interleaved samples (whole frames); returns the packets finished so far.
    func encode(_ samples: UnsafeBufferPointer<Int16>) throws(CodecError) -> [Packet] {
        pending += samples
        let size = Int(context.pointee.frame_size) * channels
        var out: [Packet] = []
        var used = 0
        while pending.count - used >= size {
            out += try send(pending[used..<(used + size)])
            used += size
        }
        pending.removeFirst(used)
        return out
    }

    /// Encodes what is left and drains the encoder.
    func finish() throws(CodecError) -> [Packet] {
        var out: [Packet] = []
        if !pending.isEmpty { out += try send(pending[...]) }
        pending = []
        out += try send(nil)
        return out
    }

    private func send(_ samples: ArraySlice<Int16>?) throws(CodecError) -> [Packet] {
        FFmpeg.clearLog()
        var status: Int32
        if let samples {
            av.av_frame_unref(frame)
            let count = samples.count / channels
            frame.pointee.nb_samples = Int32(count)
            frame.pointee.format = AV_SAMPLE_FMT_FLTP.rawValue
            frame.pointee.sample_rate = context.pointee.sample_rate
            av.av_channel_layout_copy(&frame.pointee.ch_layout, &context.pointee.ch_layout)
            guard av.av_frame_get_buffer(frame, 0) >= 0 else {
                throw .io(path: name, reason: "out of memory for audio")
            }
            for c in 0..<channels {
                // `extended_data` lists every channel's plane (`data` holds only eight).
                guard let bytes = frame.pointee.extended_data?[c] else {
                    throw .io(path: name, reason: "no audio buffer for channel \(c + 1) of \(channels)")
                }
                let plane = bytes.withMemoryRebound(to: Float.self, capacity: count) { $0 }
                var i = samples.startIndex + c
                for n in 0..<count {
                    plane[n] = Float(samples[i]) / 32768
                    i += channels
                }
            }
            frame.pointee.pts = nextPTS
            nextPTS += Int64(count)
            status = av.avcodec_send_frame(context, frame)
        } else {
            status = av.avcodec_send_frame(context, nil)
        }
        if status < 0, status != FFmpeg.endOfFile {
            throw .library(name: "AAC encoder", message: "\(name): \(FFmpeg.message(status))")
        }
        var out: [Packet] = []
        while true {
            status = av.avcodec_receive_packet(context, packet)
            if status == FFmpeg.tryAgain || status == FFmpeg.endOfFile { break }
            guard status >= 0 else {
                throw .library(name: "AAC encoder", message: "\(name): \(FFmpeg.message(status))")
            }
            out.append(
                Packet(
                    data: Array(UnsafeBufferPointer(start: packet.pointee.data, count: Int(packet.pointee.size))),
                    frameCount: Int(packet.pointee.duration)))
            av.av_packet_unref(packet)
        }
        return out
    }
}
