internal import CAVCodec
internal import CAVUtil
internal import CLuxMediaShims
import LuxPixels

extension QuickTimeMovie {
    /// Decodes compressed audio (AAC and the other codecs FFmpeg decodes) to interleaved 16-bit samples, as
    /// presented: FFmpeg skips the encoder's priming (the edit list), the end is cut at the track's duration.
    func decodedAudio(of track: MovieTrack, timeLimit: Duration?) throws(CodecError) -> AudioSamples {
        let input = try MediaInput(data: data, name: name, timeLimit: timeLimit)
        let decoder = try StreamDecoder(
            input: input, track: track, what: "\(track.codecName) audio", threads: 1, maxPixels: 0)
        guard let frame = av.av_frame_alloc() else { throw .io(path: name, reason: "out of memory for audio") }
        defer {
            var f: UnsafeMutablePointer<AVFrame>? = frame
            av.av_frame_free(&f)
        }
        let channels = Int(decoder.context.pointee.ch_layout.nb_channels)
        let rate = Int(decoder.context.pointee.sample_rate)
        guard (1...64).contains(channels), rate > 0 else {
            throw .malformed(
                what: "\(track.codecName) audio in \(name)", offset: 0,
                reason: "\(channels) channels at \(rate) Hz")
        }
        // The presented length: the track's duration on the movie timeline.
        let limit = track.duration > .zero ? track.duration.converted(toTimescale: Int32(rate)).value : Int64.max
        var samples: [Int16] = []
        var start: MediaTime?
        while try decoder.decode(into: frame) {
            defer { av.av_frame_unref(frame) }
            if start == nil {
                let pts = frame.pointee.best_effort_timestamp
                start = pts == Int64.min ? .zero : max(.zero, decoder.time(pts))
            }
            let count = Int(frame.pointee.nb_samples)
            guard Int(frame.pointee.ch_layout.nb_channels) == channels else {
                throw .malformed(
                    what: "\(track.codecName) audio in \(name)", offset: Int(frame.pointee.pkt_pos),
                    reason: "the channel count changes")
            }
            let (bytes, overflow) = (samples.count + count * channels).multipliedReportingOverflow(by: 2)
            guard !overflow, bytes <= limits.maxByteCount else {
                throw .limitExceeded(what: "decoded audio bytes", value: bytes, limit: limits.maxByteCount)
            }
            try Self.appendInterleaved(frame, count: count, channels: channels, to: &samples, file: name)
            if Int64(samples.count / channels) >= limit { break }
        }
        if Int64(samples.count / channels) > limit { samples.removeSubrange((Int(limit) * channels)...) }
        return AudioSamples(sampleRate: rate, channelCount: channels, startTime: start ?? .zero, samples: samples)
    }

    /// Appends a decoded frame's samples, interleaved and converted to 16 bits.
    private static func appendInterleaved(
        _ frame: UnsafeMutablePointer<AVFrame>, count: Int, channels: Int, to samples: inout [Int16], file: String
    ) throws(CodecError) {
        let format = AVSampleFormat(rawValue: frame.pointee.format)
        let planar = av.av_sample_fmt_is_planar(format) != 0
        let packed = av.av_get_packed_sample_fmt(format)
        // A planar frame has a plane per channel; past eight channels only `extended_data` lists them all (`data`
        // holds eight), so the planes come from there, each checked.
        var planes: [UnsafeMutablePointer<UInt8>] = []
        for c in 0..<(planar ? channels : 1) {
            guard let plane = frame.pointee.extended_data?[c] else {
                throw .malformed(
                    what: "audio in \(file)", offset: Int(frame.pointee.pkt_pos),
                    reason: "a decoded frame has no samples for channel \(c + 1) of \(channels)")
            }
            planes.append(plane)
        }
        func value(_ c: Int, _ n: Int) -> Float {
            let plane = planes[planar ? c : 0]
            let i = planar ? n : n * channels + c
            switch packed {
            case AV_SAMPLE_FMT_FLT: return plane.withMemoryRebound(to: Float.self, capacity: i + 1) { $0[i] }
            case AV_SAMPLE_FMT_DBL: return Float(plane.withMemoryRebound(to: Double.self, capacity: i + 1) { $0[i] })
            case AV_SAMPLE_FMT_S16:
                return Float(plane.withMemoryRebound(to: Int16.self, capacity: i + 1) { $0[i] }) / 32768
            case AV_SAMPLE_FMT_S32:
                return Float(plane.withMemoryRebound(to: Int32.self, capacity: i + 1) { $0[i] }) / 2_147_483_648
            case AV_SAMPLE_FMT_U8: return (Float(plane[i]) - 128) / 128
            default: return 0
            }
        }
        guard
            [AV_SAMPLE_FMT_FLT, AV_SAMPLE_FMT_DBL, AV_SAMPLE_FMT_S16, AV_SAMPLE_FMT_S32, AV_SAMPLE_FMT_U8].contains(
                packed)
        else {
            throw .unsupported(what: "audio sample format \(format.rawValue) in \(file)", reason: "not a PCM layout")
        }
        samples.reserveCapacity(samples.count + count * channels)
        for n in 0..<count {
            for c in 0..<channels {
                let v = (value(c, n) * 32768).rounded()
                samples.append(v.isNaN ? 0 : Int16(max(-32768, min(32767, v))))
            }
        }
    }
}
