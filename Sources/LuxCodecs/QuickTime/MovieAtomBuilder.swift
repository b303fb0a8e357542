import LuxColor

/// Serialises the movie header ('moov') of the tracks a ``QuickTimeWriter`` recorded, in the layout Apple's
/// Live Photo movies use (FORMATS.md §5.2): mvhd, one trak per track, then a QuickTime-style 'meta' with 'mdta'
/// keys for the movie-level metadata.
struct MovieAtomBuilder {
    let movieTimescale: Int32
    /// Seconds since 1904-01-01 (UTC).
    let creationTime: UInt64
    let metadata: [MovieMetadataItem]

    /// The track's start and duration on the movie timeline, in movie ticks.
    func presentation(_ t: TrackRecorder) -> (start: Int64, duration: Int64) {
        (convert(t.startTicks, from: t.timescale), convert(t.presentedDuration, from: t.timescale))
    }

    func convert(_ ticks: Int64, from timescale: Int32) -> Int64 {
        if timescale == movieTimescale { return ticks }
        return (ticks * Int64(movieTimescale) + Int64(timescale) / 2) / Int64(timescale)
    }

    /// The movie's duration in movie ticks.
    func movieDuration(_ tracks: [TrackRecorder]) -> Int64 {
        tracks.map {
            let p = presentation($0)
            return p.start + p.duration
        }.max() ?? 0
    }

    /// The 'moov' atom; chunk offsets are shifted by `shift` bytes (for a header placed before the media data).
    func build(_ tracks: [TrackRecorder], shift: UInt64) -> [UInt8] {
        var w = AtomWriter(capacity: 4096)
        let duration = movieDuration(tracks)
        w.atom("moov") { w in
            let long = duration > Int64(UInt32.max) || creationTime > UInt64(UInt32.max)
            w.fullAtom("mvhd", version: long ? 1 : 0) { w in
                timesAndScale(&w, long: long, timescale: movieTimescale, duration: duration)
                w.u32(0x0001_0000)  // rate 1.0
                w.u16(0x0100)  // volume 1.0
                w.zeros(10)
                w.matrix(.identity)
                w.zeros(24)  // preview, poster, selection, current time
                w.u32(UInt32(tracks.count + 1))
            }
            for t in tracks { track(&w, t, shift: shift) }
            if !metadata.isEmpty { movieMetadata(&w) }
        }
        return w.bytes
    }

    private func timesAndScale(_ w: inout AtomWriter, long: Bool, timescale: Int32, duration: Int64) {
        if long {
            w.u64(creationTime)
            w.u64(creationTime)
            w.u32(UInt32(timescale))
            w.u64(UInt64(duration))
        } else {
            w.u32(UInt32(creationTime))
            w.u32(UInt32(creationTime))
            w.u32(UInt32(timescale))
            w.u32(UInt32(duration))
        }
    }

    private func track(_ w: inout AtomWriter, _ t: TrackRecorder, shift: UInt64) {
        let (start, duration) = presentation(t)
        let total = start + duration
        w.atom("trak") { w in
            let long = total > Int64(UInt32.max) || creationTime > UInt64(UInt32.max)
            w.fullAtom("tkhd", version: long ? 1 : 0, flags: 0xF) { w in
                if long {
                    w.u64(creationTime)
                    w.u64(creationTime)
                    w.u32(UInt32(t.id))
                    w.u32(0)
                    w.u64(UInt64(total))
                } else {
                    w.u32(UInt32(creationTime))
                    w.u32(UInt32(creationTime))
                    w.u32(UInt32(t.id))
                    w.u32(0)
                    w.u32(UInt32(total))
                }
                w.zeros(8)
                w.u16(0)  // layer
                w.u16(0)  // alternate group
                if case .audio = t.media { w.u16(0x0100) } else { w.u16(0) }
                w.u16(0)
                if case .video(let v, _) = t.media {
                    w.matrix(MovieMatrix(orientation: v.orientation, width: v.width, height: v.height))
                    w.u32(UInt32(v.width) << 16)
                    w.u32(UInt32(v.height) << 16)
                } else {
                    w.matrix(.identity)
                    w.u32(0)
                    w.u32(0)
                }
            }
            w.atom("edts") { w in
                var edits: [(Int64, Int32)] = [(duration, Int32(clamping: t.mediaStart))]
                if start > 0 { edits.insert((start, Int32(-1)), at: 0) }
                let long = total > Int64(UInt32.max)
                w.fullAtom("elst", version: long ? 1 : 0) { w in
                    w.u32(UInt32(edits.count))
                    for (d, m) in edits {
                        if long {
                            w.u64(UInt64(d))
                            w.u64(UInt64(bitPattern: Int64(m)))
                        } else {
                            w.u32(UInt32(d))
                            w.i32(m)
                        }
                        w.u32(0x0001_0000)
                    }
                }
            }
            if let described = t.describesTrack {
                w.atom("tref") { w in w.atom("cdsc") { w in w.u32(UInt32(described)) } }
            }
            w.atom("mdia") { w in
                let mediaDuration = t.mediaDuration
                let longMedia = mediaDuration > Int64(UInt32.max) || creationTime > UInt64(UInt32.max)
                w.fullAtom("mdhd", version: longMedia ? 1 : 0) { w in
                    timesAndScale(&w, long: longMedia, timescale: t.timescale, duration: mediaDuration)
                    w.u16(0x55C4)  // 'und'
                    w.u16(0)
                }
                let (subtype, name): (FourCC, String) =
                    switch t.media {
                    case .video: ("vide", "Lux Video Handler")
                    case .audio: ("soun", "Lux Audio Handler")
                    case .metadata: ("meta", "Lux Metadata Handler")
                    }
                handler(&w, component: "mhlr", subtype: subtype, name: name)
                w.atom("minf") { w in
                    switch t.media {
                    case .video:
                        w.fullAtom("vmhd", flags: 1) { w in
                            w.u16(0x40)
                            for _ in 0..<3 { w.u16(0x8000) }
                        }
                    case .audio:
                        w.fullAtom("smhd") { w in w.zeros(4) }
                    case .metadata:
                        w.atom("gmhd") { w in
                            w.fullAtom("gmin") { w in
                                w.u16(0x40)
                                for _ in 0..<3 { w.u16(0x8000) }
                                w.zeros(4)
                            }
                        }
                    }
                    handler(&w, component: "dhlr", subtype: "url ", name: "Lux Data Handler")
                    w.atom("dinf") { w in
                        w.fullAtom("dref") { w in
                            w.u32(1)
                            w.fullAtom("url ", flags: 1) { _ in }
                        }
                    }
                    sampleTable(&w, t, shift: shift)
                }
            }
        }
    }

    private func handler(_ w: inout AtomWriter, component: FourCC, subtype: FourCC, name: String) {
        w.fullAtom("hdlr") { w in
            w.fourCC(component)
            w.fourCC(subtype)
            w.zeros(12)
            let b = Array(name.utf8.prefix(255))
            w.u8(UInt8(b.count))
            w.append(b)
        }
    }

    private func sampleTable(_ w: inout AtomWriter, _ t: TrackRecorder, shift: UInt64) {
        w.atom("stbl") { w in
            w.fullAtom("stsd") { w in
                w.u32(1)
                sampleDescription(&w, t)
            }
            w.fullAtom("stts") { w in
                w.u32(UInt32(t.timeRuns.count))
                for r in t.timeRuns {
                    w.u32(r.count)
                    w.u32(r.delta)
                }
            }
            if !t.compositionRuns.isEmpty {
                w.fullAtom("ctts") { w in
                    w.u32(UInt32(t.compositionRuns.count))
                    for r in t.compositionRuns {
                        w.u32(r.count)
                        w.u32(r.offset)
                    }
                }
            }
            if let sync = t.syncSamples {
                w.fullAtom("stss") { w in
                    w.u32(UInt32(sync.count))
                    for s in sync { w.u32(s) }
                }
            }
            let runs = t.sampleToChunkRuns
            w.fullAtom("stsc") { w in
                w.u32(UInt32(runs.count))
                for r in runs {
                    w.u32(r.firstChunk)
                    w.u32(r.samplesPerChunk)
                    w.u32(1)
                }
            }
            w.fullAtom("stsz") { w in
                w.u32(t.constantSampleSize)
                w.u32(UInt32(t.sampleCount))
                if t.constantSampleSize == 0 { for s in t.sampleSizes { w.u32(s) } }
            }
            let wide = t.chunks.contains { $0.offset + shift > UInt64(UInt32.max) }
            w.fullAtom(wide ? "co64" : "stco") { w in
                w.u32(UInt32(t.chunks.count))
                for c in t.chunks {
                    if wide { w.u64(c.offset + shift) } else { w.u32(UInt32(c.offset + shift)) }
                }
            }
        }
    }

    private func sampleDescription(_ w: inout AtomWriter, _ t: TrackRecorder) {
        switch t.media {
        case .video(let v, let configuration):
            visualSampleEntry(&w, v, configuration: configuration)
        case .audio(let a, let configuration):
            if a.codec == .aac {
                aacSampleEntry(&w, a, track: t, configuration: configuration)
            } else if a.sampleRate <= 65535 {
                // Version 0 'sowt' (signed 16-bit little-endian), FFmpeg's and QuickTime 7's layout.
                w.atom("sowt") { w in
                    w.zeros(6)
                    w.u16(1)
                    w.u16(0)
                    w.u16(0)
                    w.u32(0)
                    w.u16(UInt16(a.channelCount))
                    w.u16(16)
                    w.u16(0)  // compression ID
                    w.u16(0)  // packet size
                    w.u32(UInt32(a.sampleRate) << 16)
                }
            } else {
                // Version 2 'lpcm' (iOS's layout), needed above 65 535 Hz.
                w.atom("lpcm") { w in
                    w.zeros(6)
                    w.u16(1)
                    w.u16(2)
                    w.u16(0)
                    w.u32(0)
                    w.u16(3)
                    w.u16(16)
                    w.u16(0xFFFE)
                    w.u16(0)
                    w.u32(0x0001_0000)
                    w.u32(72)
                    w.f64(Double(a.sampleRate))
                    w.u32(UInt32(a.channelCount))
                    w.u32(0x7F00_0000)
                    w.u32(16)
                    w.u32(12)  // signed integer, packed, little-endian
                    w.u32(UInt32(2 * a.channelCount))
                    w.u32(1)
                }
            }
        case .metadata(let keys):
            w.atom("mebx") { w in
                w.zeros(6)
                w.u16(1)
                w.atom("keys") { w in
                    for (i, k) in keys.enumerated() {
                        w.atom(FourCC(UInt32(i + 1))) { w in
                            w.atom("keyd") { w in
                                w.fourCC("mdta")
                                w.append(Array(k.key.rawValue.utf8))
                            }
                            w.atom("dtyp") { w in
                                w.u32(0)
                                w.u32(k.dataType)
                            }
                        }
                    }
                }
            }
        }
    }

    /// A video sample entry: 'jpeg', 'avc1' with 'avcC' or 'hvc1' with 'hvcC', then the colour description and the
    /// pixel aspect ratio.
    private func visualSampleEntry(_ w: inout AtomWriter, _ v: QuickTimeWriter.VideoSettings, configuration: [UInt8]) {
        w.atom(FourCC(stringLiteral: v.codec.fourCC)) { w in
            w.zeros(6)
            w.u16(1)  // data reference index
            w.u16(0)  // version
            w.u16(0)  // revision
            w.u32(0)  // vendor
            let jpeg = v.codec == .motionJPEG
            w.u32(0)  // temporal quality
            w.u32(jpeg ? UInt32(max(0, min(1023, (v.quality * 1023).rounded()))) : 0)  // spatial quality
            w.u16(UInt16(v.width))
            w.u16(UInt16(v.height))
            w.u32(0x0048_0000)
            w.u32(0x0048_0000)
            w.u32(0)  // data size
            w.u16(1)  // frames per sample
            w.pascalString(jpeg ? "Photo - JPEG" : v.codec.name, width: 32)
            w.u16(24)
            w.i16(-1)
            switch v.codec {
            case .h264: w.atom("avcC") { w in w.append(configuration) }
            case .hevc: w.atom("hvcC") { w in w.append(configuration) }
            case .motionJPEG: break
            }
            w.atom("colr") { w in
                w.fourCC("nclc")
                let p3 = v.colorSpace.isColorimetricallyEqual(to: .displayP3)
                w.u16(p3 ? 12 : 1)  // primaries: BT.709 / P3-D65
                w.u16(1)  // transfer: BT.709
                w.u16(jpeg ? 6 : 1)  // matrix: BT.601 (JPEG's Y′CbCr) / BT.709 (the encoders')
            }
            w.atom("pasp") { w in
                w.u32(1)
                w.u32(1)
            }
        }
    }

    /// An AAC sample entry as QuickTime writes it: a version 1 sound description whose 'wave' atom holds the
    /// elementary stream descriptor ('esds', ISO/IEC 14496-1 §7.2.6.5) with the AudioSpecificConfig.
    private func aacSampleEntry(
        _ w: inout AtomWriter, _ a: QuickTimeWriter.AudioSettings, track t: TrackRecorder, configuration: [UInt8]
    ) {
        let seconds = Double(t.mediaDuration) / Double(max(t.timescale, 1))
        let total = t.sampleSizes.reduce(0) { $0 + Int($1) }
        let largest = Int(t.sampleSizes.max() ?? 0)
        let average = seconds > 0 ? UInt32(clamping: Int((Double(total * 8) / seconds).rounded())) : 0
        let peak = UInt32(clamping: largest * 8 * a.sampleRate / 1024)
        w.atom("mp4a") { w in
            w.zeros(6)
            w.u16(1)
            w.u16(1)  // version 1
            w.u16(0)
            w.u32(0)
            w.u16(UInt16(a.channelCount))
            w.u16(16)
            w.i16(-2)  // compression ID: variable
            w.u16(0)
            w.u32(UInt32(a.sampleRate) << 16)
            w.u32(1024)  // frames per packet
            w.u32(0)  // bytes per packet (variable)
            w.u32(0)  // bytes per frame
            w.u32(2)  // bytes per sample
            w.atom("wave") { w in
                w.atom("frma") { w in w.fourCC("mp4a") }
                w.atom("mp4a") { w in w.u32(0) }
                w.fullAtom("esds") { w in
                    let specific: [UInt8] = [5, UInt8(configuration.count)] + configuration
                    var decoder: [UInt8] = [0x40, 0x15]  // MPEG-4 audio, audio stream
                    decoder += [UInt8(largest >> 16 & 0xFF), UInt8(largest >> 8 & 0xFF), UInt8(largest & 0xFF)]
                    for v in [peak, average] { decoder += [24, 16, 8, 0].map { UInt8(v >> $0 & 0xFF) } }
                    decoder = [4, UInt8(decoder.count + specific.count)] + decoder + specific
                    let sl: [UInt8] = [6, 1, 2]
                    let es: [UInt8] = [0, UInt8(t.id), 0] + decoder + sl
                    w.append([3, UInt8(es.count)] + es)
                }
                w.u32(8)  // terminator atom
                w.u32(0)
            }
        }
    }

    /// moov/meta, QuickTime style (no version and flags): hdlr 'mdta', keys, ilst.
    private func movieMetadata(_ w: inout AtomWriter) {
        w.atom("meta") { w in
            w.fullAtom("hdlr") { w in
                w.u32(0)
                w.fourCC("mdta")
                w.zeros(12)
                w.zeros(2)
            }
            var keys: [MovieMetadataItem.Key] = []
            for item in metadata where !keys.contains(item.key) { keys.append(item.key) }
            w.fullAtom("keys") { w in
                w.u32(UInt32(keys.count))
                for k in keys { w.atom("mdta") { w in w.append(Array(k.rawValue.utf8)) } }
            }
            w.atom("ilst") { w in
                for item in metadata {
                    let index = UInt32(keys.firstIndex(of: item.key)! + 1)
                    w.atom(FourCC(index)) { w in
                        w.atom("data") { w in
                            w.u32(item.value.dataType & 0xFF_FFFF)
                            w.u32(0)  // locale
                            w.append(item.value.encoded)
                        }
                    }
                }
            }
        }
    }
}
