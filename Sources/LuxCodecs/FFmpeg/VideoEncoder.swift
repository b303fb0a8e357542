internal import CAVCodec
internal import CAVUtil
internal import CLuxCodecShims
internal import CLuxMediaShims
import LuxColor
import LuxPixels

/// An H.264 (libx264) or HEVC (libx265) encoder through FFmpeg: pictures in presentation order in, compressed
/// samples in decode order out, with the decoder configuration record (`avcC`/`hvcC`) the sample entry needs.
final class VideoEncoder {
    /// One compressed picture.
    struct Sample {
        /// NAL units, each preceded by its 4-byte length.
        var data: [UInt8]
        /// Presentation time in track ticks.
        var presentationTick: Int64
        /// Decode time in track ticks (earlier than the presentation time when pictures are reordered).
        var decodeTick: Int64
        var isSync: Bool
    }

    let codec: VideoCodec
    let context: UnsafeMutablePointer<AVCodecContext>
    /// The `avcC` or `hvcC` record.
    let configuration: [UInt8]
    private let packet: UnsafeMutablePointer<AVPacket>
    private let name: String

    /// Opens the encoder for `settings` (`settings.codec` is `.h264` or `.hevc`), naming `file` in errors.
    ///
    /// - Throws: ``CodecError/unsupported(what:reason:)`` when FFmpeg lacks the encoder;
    ///   ``CodecError/library(name:message:)`` when it refuses the settings.
    init(settings: QuickTimeWriter.VideoSettings, file: String) throws(CodecError) {
        try FFmpeg.prepare()
        codec = settings.codec
        name = file
        let encoderName = settings.codec == .hevc ? "libx265" : "libx264"
        guard let encoder = av.avcodec_find_encoder_by_name(encoderName) else {
            throw .unsupported(
                what: "\(settings.codec.name) encoding", reason: "this FFmpeg \(FFmpeg.version) has no \(encoderName)")
        }
        guard let context = av.avcodec_alloc_context3(encoder), let packet = av.av_packet_alloc() else {
            throw .io(path: file, reason: "out of memory for the \(settings.codec.name) encoder")
        }
        self.context = context
        self.packet = packet
        let c = settings.compression
        context.pointee.width = Int32(settings.width)
        context.pointee.height = Int32(settings.height)
        context.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        context.pointee.time_base = AVRational(num: 1, den: settings.timescale)
        let fps = 1 / max(settings.frameDuration.seconds, 1e-3)
        context.pointee.framerate = av.av_d2q(fps, 100_000)
        context.pointee.gop_size = Int32(clamping: c.keyFrameInterval)
        // x264's own choice is 1.5 frame threads a processor, each holding whole frames; one a processor keeps the
        // processors as busy with ~18 MB less at 1440×1080 and less page clearing. (The stream can differ slightly:
        // a frame thread searches only the rows of its references already encoded.)
        let threads = c.threads == 0 && settings.codec == .h264 ? Parallel.defaultThreadCount : c.threads
        context.pointee.thread_count = Int32(clamping: threads)
        context.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER
        context.pointee.color_range = AVCOL_RANGE_MPEG
        context.pointee.colorspace = AVCOL_SPC_BT709
        context.pointee.color_trc = AVCOL_TRC_BT709
        context.pointee.color_primaries =
            settings.colorSpace.isColorimetricallyEqual(to: .displayP3) ? AVCOL_PRI_SMPTE432 : AVCOL_PRI_BT709
        var options: OpaquePointer?
        _ = av.av_dict_set(&options, "preset", c.preset.rawValue, 0)
        _ = av.av_dict_set(&options, "crf", String(c.constantRateFactor), 0)
        if settings.codec == .h264 {
            // No frames queued for a lookahead thread of its own (x264's default with frame threads: B-frames + 1
            // whole frames, about 5 MB each at 1440×1080): the lookahead runs on the thread that sends the
            // pictures, with the same decisions, so the stream is the same and holds less memory.
            _ = av.av_dict_set(&options, "x264-params", "sync-lookahead=0", 0)
        } else if settings.codec == .hevc {
            _ = av.av_dict_set(&options, "x265-params", "log-level=error", 0)
            _ = av.av_dict_set(&options, "tag", "hvc1", 0)
            // x265 fills process-wide tables in its first encoder open, unguarded; HEIC tiles may be opening
            // encoders on other threads (see lux_x265_prepare).
            _ = lux_x265_prepare(8, c.preset.rawValue)
        }
        FFmpeg.clearLog()
        let status = av.avcodec_open2(context, encoder, &options)
        av.av_dict_free(&options)
        guard status >= 0 else {
            let message = FFmpeg.message(status)
            Self.free(context, packet)
            throw .library(name: encoderName, message: "cannot encode \(file) with these settings: \(message)")
        }
        let extra =
            context.pointee.extradata.map {
                Array(UnsafeBufferPointer(start: $0, count: Int(context.pointee.extradata_size)))
            }
            ?? []
        do {
            let units = ParameterSets.nalUnits(extra)
            configuration =
                settings.codec == .hevc
                ? try ParameterSets.hevcConfiguration(units) : try ParameterSets.avcConfiguration(units)
        } catch {
            Self.free(context, packet)
            throw error
        }
    }

    deinit { Self.free(context, packet) }

    private static func free(_ context: UnsafeMutablePointer<AVCodecContext>, _ packet: UnsafeMutablePointer<AVPacket>)
    {
        var c: UnsafeMutablePointer<AVCodecContext>? = context
        av.avcodec_free_context(&c)
        var p: UnsafeMutablePointer<AVPacket>? = packet
        av.av_packet_free(&p)
    }

    /// Encodes `picture` shown from `tick`, or flushes the encoder at the end of the track (`nil`).
    ///
    /// - Returns: The samples the encoder finished, in decode order.
    func encode(_ picture: VideoPicture?, at tick: Int64) throws(CodecError) -> [Sample] {
        FFmpeg.clearLog()
        var status: Int32
        if let picture {
            picture.frame.pointee.pts = tick
            status = av.avcodec_send_frame(context, picture.frame)
        } else {
            status = av.avcodec_send_frame(context, nil)
        }
        if status < 0, status != FFmpeg.endOfFile {
            throw .library(name: codec.name + " encoder", message: "\(name): \(FFmpeg.message(status))")
        }
        var samples: [Sample] = []
        while true {
            status = av.avcodec_receive_packet(context, packet)
            if status == FFmpeg.tryAgain || status == FFmpeg.endOfFile { break }
            guard status >= 0 else {
                throw .library(name: codec.name + " encoder", message: "\(name): \(FFmpeg.message(status))")
            }
            let bytes = Array(UnsafeBufferPointer(start: packet.pointee.data, count: Int(packet.pointee.size)))
            // Parameter sets travel in the sample entry; samples keep the slices and SEI.
            let units = ParameterSets.nalUnits(bytes).filter { !isParameterSet($0) }
            samples.append(
                Sample(
                    data: ParameterSets.lengthPrefixed(units), presentationTick: packet.pointee.pts,
                    decodeTick: packet.pointee.dts, isSync: packet.pointee.flags & AV_PKT_FLAG_KEY != 0))
            av.av_packet_unref(packet)
        }
        return samples
    }

    private func isParameterSet(_ unit: ArraySlice<UInt8>) -> Bool {
        guard let first = unit.first else { return true }
        return codec == .hevc ? (32...34).contains((first >> 1) & 0x3F) : (7...8).contains(first & 0x1F)
    }
}
