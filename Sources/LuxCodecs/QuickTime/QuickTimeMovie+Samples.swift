public import LuxPixels

extension QuickTimeMovie {
    /// The samples of `track` as presented on the movie timeline, in time order: the edit list is applied (an
    /// empty edit delays the track; media outside the edits is not shown).
    ///
    /// - Throws: ``CodecError/limitExceeded(what:value:limit:)`` for more samples than `limits.maxChunkCount`
    ///   (use ``audioSamples(of:)`` for PCM audio).
    public func samples(of track: MovieTrack) throws(CodecError) -> [MovieSample] {
        guard track.sampleCount <= limits.maxChunkCount else {
            throw .limitExceeded(
                what: "samples in track \(track.id)", value: track.sampleCount, limit: limits.maxChunkCount)
        }
        let all = track.table.samples()
        let ts = track.timescale
        func sample(_ i: Int, start: Int64, end: Int64, at time: MediaTime) -> MovieSample {
            MovieSample(
                index: i, time: time, duration: MediaTime(value: max(0, end - start), timescale: ts),
                byteCount: all[i].size, offset: all[i].offset)
        }
        guard !track.edits.isEmpty else {
            return all.indices.map { i in
                sample(i, start: 0, end: all[i].duration, at: MediaTime(value: all[i].time, timescale: ts))
            }.sorted { $0.time < $1.time }
        }
        var out: [MovieSample] = []
        var editStart = MediaTime.zero
        for e in track.edits {
            defer { editStart = editStart + e.duration }
            guard let m = e.mediaTime?.value else { continue }
            let length = e.duration.converted(toTimescale: ts).value
            if e.rate == 0 {
                // A dwell: the sample at the media time shows for the whole edit.
                if let i = all.indices.last(where: { all[$0].time <= m }) {
                    out.append(sample(i, start: 0, end: length, at: editStart))
                }
                continue
            }
            let end = m + length
            for (i, s) in all.enumerated() {
                let sEnd = s.time + s.duration
                let overlaps = s.duration > 0 ? (s.time < end && sEnd > m) : (s.time >= m && s.time < end)
                guard overlaps else { continue }
                let a = max(s.time, m)
                out.append(
                    sample(i, start: a, end: min(sEnd, end), at: editStart + MediaTime(value: a - m, timescale: ts)))
            }
        }
        return out.sorted { $0.time < $1.time }
    }

    /// The bytes of a sample.
    ///
    /// - Throws: ``CodecError/truncated(what:offset:)`` when the sample lies outside the file.
    public func sampleData(_ sample: MovieSample) throws(CodecError) -> [UInt8] {
        try withSampleBytes(sample) { Array($0) }
    }

    func withSampleBytes<T>(_ sample: MovieSample, _ body: (UnsafeRawBufferPointer) throws(CodecError) -> T)
        throws(CodecError) -> T
    {
        try withBytes(of: data) { raw throws(CodecError) in
            let r = ByteReader(raw, bigEndian: true)
            guard sample.offset <= UInt64(Int.max) else {
                throw .truncated(what: "sample \(sample.index)", offset: Int.max)
            }
            let view = try r.view(
                Int(sample.offset), sample.byteCount, "sample \(sample.index) (\(sample.byteCount) bytes)")
            return try body(view)
        }
    }

    /// Decodes a Motion-JPEG frame to `.rgba8` pixels in the track's colour space, optionally reduced by
    /// 1/`denominator` (1, 2, 4 or 8) while decoding (see ``JPEG/decode(_:reducedBy:options:)``).
    ///
    /// - Throws: ``CodecError/unsupported(what:reason:)`` for frames of codecs LuxCodecs does not decode (H.264,
    ///   HEVC, ProRes: the movie's timing, metadata and audio are still readable), and the JPEG decoder's errors.
    public func decodeVideoFrame(
        _ sample: MovieSample, of track: MovieTrack, reducedBy denominator: Int = 1, options: DecodingOptions = .default
    ) throws(CodecError) -> PixelBuffer {
        var buffer = PixelBuffer(width: 1, height: 1, format: .rgba8)
        try decodeVideoFrame(sample, of: track, into: &buffer, reducedBy: denominator, options: options)
        return buffer
    }

    /// Decodes a Motion-JPEG frame into `buffer`, reusing its memory when it already has the frame's size and
    /// format and is not shared (a frame loop then allocates nothing per frame).
    public func decodeVideoFrame(
        _ sample: MovieSample, of track: MovieTrack, into buffer: inout PixelBuffer, reducedBy denominator: Int = 1,
        options: DecodingOptions = .default
    ) throws(CodecError) {
        guard track.kind == .video else {
            throw .invalidArgument("track \(track.id) holds \(track.kind.rawValue), not video frames")
        }
        guard track.isMotionJPEG else {
            throw .unsupported(
                what: "random access to \(track.codecName) video frames ('\(track.codec)')",
                reason: "frames of codecs with inter-frame prediction are decoded in order by VideoFrameReader")
        }
        guard [1, 2, 4, 8].contains(denominator) else {
            throw .invalidArgument("a frame can be reduced by 1, 2, 4 or 8 while decoding, not \(denominator)")
        }
        try withSampleBytes(sample) { raw throws(CodecError) in
            do throws(CodecError) {
                let header = try JPEGHeader(raw)
                try JPEG.checkDecodable(header)
                guard header.componentCount == 3 else {
                    throw CodecError.unsupported(what: "a grey Motion-JPEG frame", reason: "frames are decoded as RGB")
                }
                try options.limits.check(
                    width: header.width, height: header.height, bytesPerPixel: 4, what: "video frame")
                let w = (header.width + denominator - 1) / denominator
                let h = (header.height + denominator - 1) / denominator
                if buffer.width != w || buffer.height != h || buffer.format != .rgba8 {
                    buffer = PixelBuffer(width: w, height: h, format: .rgba8)
                }
                try JPEG.decodePixels(
                    raw, into: &buffer, gray: false, limits: options.limits, imageWidth: header.width,
                    imageHeight: header.height,
                    reducedBy: denominator)
            } catch {
                throw .malformed(
                    what: "video frame \(sample.index) at \(sample.time)", offset: Int(sample.offset),
                    reason: "\(error)")
            }
        }
        buffer.colorSpace = track.colorSpace ?? .sRGB
    }

    /// The groups of a timed-metadata track, at their presentation times.
    ///
    /// - Throws: ``CodecError/invalidArgument(_:)`` for a track that is not timed metadata; read errors.
    public func timedMetadata(in track: MovieTrack) throws(CodecError) -> [TimedMetadataGroup] {
        guard track.kind == .timedMetadata else {
            throw .invalidArgument("track \(track.id) holds \(track.kind.rawValue), not timed metadata")
        }
        var groups: [TimedMetadataGroup] = []
        for s in try samples(of: track) {
            let items = try withSampleBytes(s) { raw throws(CodecError) -> [MovieMetadataItem] in
                let r = ByteReader(raw, bigEndian: true)
                var items: [MovieMetadataItem] = []
                var pos = 0
                while pos + 8 <= raw.count {
                    let size = Int(r.u32Unchecked(pos))
                    guard size >= 8, size <= raw.count - pos else {
                        throw .malformed(
                            what: "timed-metadata sample \(s.index)", offset: Int(s.offset) + pos,
                            reason: "value size \(size)")
                    }
                    if let (key, type) = track.metadataKeyTable[r.u32Unchecked(pos + 4)] {
                        let bytes = Array(UnsafeRawBufferPointer(rebasing: raw[(pos + 8)..<(pos + size)]))
                        items.append(
                            MovieMetadataItem(key: key, value: MovieMetadataValue(bytes: bytes, dataType: type)))
                    }
                    pos += size
                }
                return items
            }
            if !items.isEmpty { groups.append(TimedMetadataGroup(time: s.time, duration: s.duration, items: items)) }
        }
        return groups
    }

    /// The audio of `track` (default: the first audio track) as 16-bit samples, as presented: the edit list is
    /// applied, a leading empty edit becomes ``AudioSamples/startTime`` and later empty edits become silence.
    ///
    /// PCM is read directly (wider samples keep their top 16 bits; float samples are scaled and clipped);
    /// compressed audio (AAC, ALAC, …) is decoded by FFmpeg, which skips the encoder's priming.
    ///
    /// - Throws: ``CodecError/unsupported(what:reason:)`` for audio no decoder reads or no audio track;
    ///   ``CodecError/limitExceeded(what:value:limit:)`` beyond `limits.maxByteCount`; read errors.
    public func audioSamples(of track: MovieTrack? = nil) throws(CodecError) -> AudioSamples {
        guard let track = track ?? audioTrack, track.kind == .audio else {
            throw .unsupported(what: "audio", reason: "the movie has no audio track")
        }
        guard let pcm = track.pcm, pcm.channelCount > 0 else {
            guard FFmpeg.decodesAudio(fourCC: track.codec) else {
                throw .unsupported(
                    what: "\(track.codecName) audio ('\(track.codec)') in \(name)",
                    reason: "neither LuxCodecs nor FFmpeg \(FFmpeg.version) decodes it")
            }
            return try decodedAudio(of: track, timeLimit: nil)
        }
        let rate = track.timescale
        let channels = pcm.channelCount
        // Media frame ranges to present, in order (a negative start is silence of that many frames).
        var segments: [(start: Int64, count: Int64)] = []
        var startTime = MediaTime.zero
        if track.edits.isEmpty {
            segments = [(0, Int64(track.sampleCount))]
        } else {
            var leading = true
            for e in track.edits {
                let length = e.duration.converted(toTimescale: rate).value
                if let m = e.mediaTime?.value, e.rate != 0 {
                    segments.append((m, max(0, min(length, Int64(track.sampleCount) - m))))
                    leading = false
                } else if leading {
                    startTime = startTime + e.duration
                } else {
                    segments.append((-length, length))  // a negative start marks silence
                }
            }
        }
        // Saturating: hostile edit lists can add up past 64 bits.
        let totalFrames = segments.reduce(Int64(0)) { a, s in
            let (sum, overflow) = a.addingReportingOverflow(max(0, s.count))
            return overflow ? .max : sum
        }
        let (frameBytes, overflow) = totalFrames.multipliedReportingOverflow(by: Int64(channels) * 2)
        let bytes = overflow ? Int64.max : frameBytes
        guard bytes <= Int64(limits.maxByteCount) else {
            throw .limitExceeded(what: "decoded audio bytes", value: Int(clamping: bytes), limit: limits.maxByteCount)
        }
        var out = [Int16](repeating: 0, count: Int(totalFrames) * channels)
        let chunks = track.table.chunks()
        try withBytes(of: data) { raw throws(CodecError) in
            var written = 0
            for seg in segments {
                guard seg.count > 0 else { continue }
                if seg.start < 0 {
                    written += Int(seg.count) * channels
                    continue
                }
                var frame = seg.start
                let end = seg.start + seg.count
                // Chunks are in sample order; find those overlapping [frame, end).
                for c in chunks where Int64(c.firstSample + c.count) > frame && Int64(c.firstSample) < end {
                    let from = max(frame, Int64(c.firstSample))
                    let to = min(end, Int64(c.firstSample + c.count))
                    let byteOffset = c.offset + UInt64(from - Int64(c.firstSample)) * UInt64(pcm.bytesPerFrame)
                    let length = Int(to - from) * pcm.bytesPerFrame
                    guard byteOffset <= UInt64(raw.count), length <= raw.count - Int(byteOffset) else {
                        throw .truncated(what: "audio chunk of track \(track.id)", offset: Int(clamping: byteOffset))
                    }
                    let src = UnsafeRawBufferPointer(rebasing: raw[Int(byteOffset)..<(Int(byteOffset) + length)])
                    out.withUnsafeMutableBufferPointer { dst in
                        PCMConversion.convert(src, layout: pcm, into: dst.baseAddress! + written)
                    }
                    written += Int(to - from) * channels
                    frame = to
                }
                if frame < end {
                    throw .truncated(
                        what: "audio of track \(track.id) (frames \(frame)…\(end) have no chunk)", offset: raw.count)
                }
            }
        }
        return AudioSamples(sampleRate: Int(rate), channelCount: channels, startTime: startTime, samples: out)
    }
}

/// Conversion of stored PCM samples to signed 16-bit.
enum PCMConversion {
    static func convert(_ src: UnsafeRawBufferPointer, layout: PCMLayout, into dst: UnsafeMutablePointer<Int16>) {
        let width = layout.bitsPerSample / 8
        let n = src.count / width
        let be = layout.isBigEndian
        switch (layout.isFloat, width) {
        case (false, 1):
            for i in 0..<n {
                let b = src[i]
                dst[i] = layout.isSigned ? Int16(Int8(bitPattern: b)) << 8 : (Int16(b) - 128) << 8
            }
        case (false, 2):
            for i in 0..<n {
                let v = src.loadUnaligned(fromByteOffset: 2 * i, as: Int16.self)
                dst[i] = be ? Int16(bigEndian: v) : Int16(littleEndian: v)
            }
        case (false, 3):
            for i in 0..<n {
                let hi = be ? src[3 * i] : src[3 * i + 2]
                let mid = src[3 * i + 1]
                dst[i] = Int16(bitPattern: UInt16(hi) << 8 | UInt16(mid))
            }
        case (false, 4):
            for i in 0..<n {
                let v = src.loadUnaligned(fromByteOffset: 4 * i, as: Int32.self)
                dst[i] = Int16(truncatingIfNeeded: (be ? Int32(bigEndian: v) : Int32(littleEndian: v)) >> 16)
            }
        case (true, 4):
            for i in 0..<n {
                let v = src.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self)
                let f = Float(bitPattern: be ? UInt32(bigEndian: v) : UInt32(littleEndian: v))
                dst[i] = Int16(max(-32768, min(32767, (f * 32767).rounded())).nanToZero)
            }
        case (true, 8):
            for i in 0..<n {
                let v = src.loadUnaligned(fromByteOffset: 8 * i, as: UInt64.self)
                let f = Double(bitPattern: be ? UInt64(bigEndian: v) : UInt64(littleEndian: v))
                dst[i] = Int16(Float(max(-32768, min(32767, (f * 32767).rounded()))).nanToZero)
            }
        default:
            for i in 0..<n { dst[i] = 0 }
        }
    }
}

extension Float {
    fileprivate var nanToZero: Float { isNaN ? 0 : self }
}

extension QuickTimeMovie {
    /// The sample of `track` showing at `time` on the movie timeline (the last one starting at or before it).
    public func sample(of track: MovieTrack, at time: MediaTime) throws(CodecError) -> MovieSample? {
        try samples(of: track).last { $0.time <= time }
    }
}
