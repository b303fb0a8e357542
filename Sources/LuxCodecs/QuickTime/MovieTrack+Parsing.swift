import LuxColor
import LuxPixels

extension MovieTrack {
    /// Reads a 'trak' atom.
    static func parse(_ trak: Atom, _ p: AtomParser, movieTimescale: Int32) throws(CodecError) -> MovieTrack {
        let r = p.reader
        var track = MovieTrack(
            id: 0, kind: .other, handler: "", codec: "", isEnabled: true, timescale: 1, mediaDuration: .zero,
            duration: .zero, edits: [], sampleCount: 0, width: 0, height: 0, orientation: .up, colorSpace: nil,
            sampleRate: 0, channelCount: 0, bitsPerSample: 0, metadataKeys: [], references: [:], table: SampleTable())
        var mdia: Atom?
        for a in try p.children(of: trak) {
            switch a.type {
            case "tkhd":
                let (version, flags) = try p.fullHeader(a, minimum: 80)
                track.isEnabled = flags & 1 != 0
                let base = a.payload + 4
                let long = version == 1
                guard !long || a.payloadSize >= 4 + 92 else {
                    throw .truncated(what: "'tkhd' version 1", offset: a.offset)
                }
                track.id = Int(r.u32Unchecked(base + (long ? 16 : 8)))
                let duration = long ? Int64(bitPattern: try r.u64(base + 24, "tkhd")) : Int64(r.u32Unchecked(base + 16))
                track.duration = MediaTime(
                    value: duration == Int64(UInt32.max) && !long ? 0 : duration, timescale: movieTimescale)
                let m = base + (long ? 48 : 36)
                func fixed(_ i: Int) -> Double { Double(Int32(bitPattern: r.u32Unchecked(m + 4 * i))) / 65536 }
                let matrix = MovieMatrix(a: fixed(0), b: fixed(1), c: fixed(3), d: fixed(4), tx: fixed(6), ty: fixed(7))
                track.orientation = matrix.orientation ?? .up
            case "edts":
                if let elst = try p.child("elst", of: a) {
                    track.edits = try parseEdits(elst, p, movieTimescale: movieTimescale)
                }
            case "tref":
                for ref in try p.children(of: a) {
                    let n = ref.payloadSize / 4
                    track.references[ref.type.description] = (0..<n).map { Int(r.u32Unchecked(ref.payload + 4 * $0)) }
                }
            case "mdia": mdia = a
            default: break
            }
        }
        guard let mdia else {
            throw .malformed(what: "track \(track.id)", offset: trak.offset, reason: "it has no 'mdia' atom")
        }
        var stbl: Atom?
        var subtype: FourCC = "    "
        var hasMediaHeader = false
        for a in try p.children(of: mdia) {
            switch a.type {
            case "mdhd":
                hasMediaHeader = true
                let (version, _) = try p.fullHeader(a, minimum: 20)
                let base = a.payload + 4
                if version == 1 {
                    track.timescale = Int32(clamping: try r.u32(base + 16, "mdhd"))
                    let d = try r.u64(base + 20, "mdhd")
                    track.mediaDuration = MediaTime(value: Int64(clamping: d), timescale: max(1, track.timescale))
                } else {
                    track.timescale = Int32(clamping: r.u32Unchecked(base + 8))
                    track.mediaDuration = MediaTime(
                        value: Int64(r.u32Unchecked(base + 12)), timescale: max(1, track.timescale))
                }
                guard track.timescale > 0 else {
                    throw .malformed(
                        what: "'mdhd' of track \(track.id)", offset: a.offset, reason: "the timescale is 0")
                }
            case "hdlr":
                _ = try p.fullHeader(a, minimum: 8)
                subtype = FourCC(r.u32Unchecked(a.payload + 8))
            case "minf":
                stbl = try p.child("stbl", of: a)
            default: break
            }
        }
        // Without 'mdhd' a track has no media timescale, so none of its times mean anything.
        guard hasMediaHeader else {
            throw .malformed(what: "track \(track.id)", offset: mdia.offset, reason: "it has no 'mdhd' atom")
        }
        track.handler = subtype.description
        switch subtype {
        case "vide": track.kind = .video
        case "soun": track.kind = .audio
        case "meta": track.kind = .timedMetadata
        default: track.kind = .other
        }
        if let stbl { try parseSampleTable(stbl, p, into: &track) }
        if track.kind == .timedMetadata, track.codec != "mebx" { track.kind = .other }
        // Edit media times are in the media timescale, known only now.
        let scale = track.timescale
        track.edits = track.edits.map { e in
            var e = e
            if let m = e.mediaTime { e.mediaTime = MediaTime(value: m.value, timescale: scale) }
            return e
        }
        if !track.mediaDuration.isNumeric || track.mediaDuration == .zero {
            track.mediaDuration = MediaTime(value: track.table.mediaDuration, timescale: track.timescale)
        }
        return track
    }

    static func parseEdits(_ elst: Atom, _ p: AtomParser, movieTimescale: Int32) throws(CodecError) -> [MovieEdit] {
        let r = p.reader
        let (version, _) = try p.fullHeader(elst, minimum: 4)
        let count = r.u32Unchecked(elst.payload + 4)
        let entrySize = version == 1 ? 20 : 12
        try p.checkTable(elst, at: elst.payload + 8, count: count, entrySize: entrySize)
        var edits: [MovieEdit] = []
        for i in 0..<Int(count) {
            let e = elst.payload + 8 + i * entrySize
            let duration: Int64
            let mediaTime: Int64
            if version == 1 {
                duration = Int64(clamping: try r.u64(e, "elst"))
                mediaTime = Int64(bitPattern: try r.u64(e + 8, "elst"))
            } else {
                duration = Int64(r.u32Unchecked(e))
                mediaTime = Int64(Int32(bitPattern: r.u32Unchecked(e + 4)))
            }
            // −1 marks an empty edit; no other media time may be negative.
            guard mediaTime >= -1 else {
                throw .malformed(
                    what: "'elst'", offset: e,
                    reason: "edit \(i + 1) starts at media time \(mediaTime), before the media")
            }
            let rate = Double(Int32(bitPattern: r.u32Unchecked(e + entrySize - 4))) / 65536
            // The media time is in the media timescale; it is filled in by the caller once mdhd is known.
            edits.append(
                MovieEdit(
                    duration: MediaTime(value: duration, timescale: movieTimescale),
                    mediaTime: mediaTime < 0 ? nil : MediaTime(value: mediaTime, timescale: 1), rate: rate))
        }
        return edits
    }

    static func parseSampleTable(_ stbl: Atom, _ p: AtomParser, into track: inout MovieTrack) throws(CodecError) {
        let r = p.reader
        var table = SampleTable()
        for a in try p.children(of: stbl) {
            switch a.type {
            case "stsd":
                _ = try p.fullHeader(a, minimum: 4)
                guard r.u32Unchecked(a.payload + 4) >= 1 else { break }
                let entries = try p.children(in: (a.payload + 8)..<a.end, of: "'stsd' of track \(track.id)")
                if let entry = entries.first { try parseSampleEntry(entry, p, into: &track) }
            case "stts":
                _ = try p.fullHeader(a, minimum: 4)
                let n = r.u32Unchecked(a.payload + 4)
                try p.checkTable(a, at: a.payload + 8, count: n, entrySize: 8)
                table.timeRuns = (0..<Int(n)).map {
                    SampleTable.TimeRun(
                        count: r.u32Unchecked(a.payload + 8 + 8 * $0), delta: r.u32Unchecked(a.payload + 12 + 8 * $0))
                }
            case "ctts":
                _ = try p.fullHeader(a, minimum: 4)
                let n = r.u32Unchecked(a.payload + 4)
                try p.checkTable(a, at: a.payload + 8, count: n, entrySize: 8)
                table.compositionOffsets = (0..<Int(n)).map {
                    SampleTable.OffsetRun(
                        count: r.u32Unchecked(a.payload + 8 + 8 * $0),
                        offset: Int32(bitPattern: r.u32Unchecked(a.payload + 12 + 8 * $0)))
                }
            case "stss":
                _ = try p.fullHeader(a, minimum: 4)
                let n = r.u32Unchecked(a.payload + 4)
                try p.checkTable(a, at: a.payload + 8, count: n, entrySize: 4)
                table.syncSamples = (0..<Int(n)).map { r.u32Unchecked(a.payload + 8 + 4 * $0) }
            case "stsc":
                _ = try p.fullHeader(a, minimum: 4)
                let n = r.u32Unchecked(a.payload + 4)
                try p.checkTable(a, at: a.payload + 8, count: n, entrySize: 12)
                table.chunkRuns = (0..<Int(n)).map {
                    SampleTable.ChunkRun(
                        firstChunk: r.u32Unchecked(a.payload + 8 + 12 * $0),
                        samplesPerChunk: r.u32Unchecked(a.payload + 12 + 12 * $0))
                }
                for (i, run) in table.chunkRuns.enumerated()
                where run.firstChunk == 0 || (i > 0 && run.firstChunk <= table.chunkRuns[i - 1].firstChunk) {
                    throw .malformed(
                        what: "'stsc' of track \(track.id)", offset: a.offset,
                        reason: "first chunks must increase from 1")
                }
            case "stsz":
                _ = try p.fullHeader(a, minimum: 8)
                table.constantSize = r.u32Unchecked(a.payload + 4)
                let n = r.u32Unchecked(a.payload + 8)
                table.sampleCount = Int(n)
                if table.constantSize == 0 {
                    try p.checkTable(a, at: a.payload + 12, count: n, entrySize: 4)
                    table.sizes = (0..<Int(n)).map { r.u32Unchecked(a.payload + 12 + 4 * $0) }
                }
            case "stz2":
                _ = try p.fullHeader(a, minimum: 8)
                let field = Int(r.u32Unchecked(a.payload + 4) & 0xFF)
                let n = r.u32Unchecked(a.payload + 8)
                guard [4, 8, 16].contains(field) else {
                    throw .malformed(
                        what: "'stz2' of track \(track.id)", offset: a.offset, reason: "field size \(field)")
                }
                guard Int(n) * field <= 8 * (a.end - a.payload - 12) else {
                    throw .malformed(what: "'stz2' table", offset: a.offset, reason: "\(n) entries do not fit")
                }
                table.sampleCount = Int(n)
                table.sizes = (0..<Int(n)).map { i in
                    let base = a.payload + 12
                    switch field {
                    case 4:
                        let b = r.bytes[base + i / 2]
                        return UInt32(i % 2 == 0 ? b >> 4 : b & 0xF)
                    case 8: return UInt32(r.bytes[base + i])
                    default: return UInt32(r.u16Unchecked(base + 2 * i))
                    }
                }
            case "stco", "co64":
                _ = try p.fullHeader(a, minimum: 4)
                let n = r.u32Unchecked(a.payload + 4)
                let wide = a.type == "co64"
                try p.checkTable(a, at: a.payload + 8, count: n, entrySize: wide ? 8 : 4)
                table.chunkOffsets = (0..<Int(n)).map { i in
                    wide
                        ? UInt64(r.u32Unchecked(a.payload + 8 + 8 * i)) << 32
                            | UInt64(r.u32Unchecked(a.payload + 12 + 8 * i))
                        : UInt64(r.u32Unchecked(a.payload + 8 + 4 * i))
                }
            default: break
            }
        }
        if table.constantSize != 0, table.sampleCount > 0 {
            // Constant-size samples must fit in the file (bounds what the count can claim).
            let (bytes, overflow) = table.sampleCount.multipliedReportingOverflow(by: Int(table.constantSize))
            if overflow || bytes > r.count, track.pcm == nil {
                throw .malformed(
                    what: "'stsz' of track \(track.id)", offset: stbl.offset,
                    reason: "\(table.sampleCount) samples of \(table.constantSize) bytes exceed the file")
            }
        }
        if track.pcm == nil {
            // Each timed sample needs its own size entry (at least 4 bytes of the file), so the time table cannot
            // claim more samples than the size table lists: a decoder would otherwise be handed a flood of them.
            let timed = table.timeRuns.reduce(UInt64(0)) { $0 + UInt64($1.count) }
            if timed > UInt64(table.sampleCount) {
                throw .malformed(
                    what: "'stts' of track \(track.id)", offset: stbl.offset,
                    reason: "it times \(timed) samples, but the size table lists \(table.sampleCount)")
            }
            // Samples without any time table (a missing or unreadable 'stts') have no place on the timeline.
            if timed == 0, table.sampleCount > 0 {
                throw .malformed(
                    what: "'stbl' of track \(track.id)", offset: stbl.offset,
                    reason: "its \(table.sampleCount) samples have no time-to-sample table ('stts')")
            }
        }
        track.table = table
        track.sampleCount = table.sampleCount
    }

    static func parseSampleEntry(_ entry: Atom, _ p: AtomParser, into track: inout MovieTrack) throws(CodecError) {
        let r = p.reader
        track.codec = entry.type.description
        let base = entry.offset  // field offsets below are from the entry's first byte (header included)
        switch track.kind {
        case .video:
            guard entry.size >= 86 else {
                throw .truncated(what: "video sample entry '\(entry.type)'", offset: entry.offset)
            }
            track.width = Int(r.u16Unchecked(base + 32))
            track.height = Int(r.u16Unchecked(base + 34))
            track.colorSpace = .sRGB
            if let children = try? p.children(in: (base + 86)..<entry.end, of: "sample entry '\(entry.type)'"),
                let colr = children.first(where: { $0.type == "colr" }), colr.payloadSize >= 10
            {
                let kind = FourCC(r.u32Unchecked(colr.payload))
                if kind == "nclc" || kind == "nclx", r.u16Unchecked(colr.payload + 4) == 12 {
                    track.colorSpace = .displayP3
                }
            }
        case .audio:
            guard entry.size >= 36 else {
                throw .truncated(what: "sound sample entry '\(entry.type)'", offset: entry.offset)
            }
            let version = r.u16Unchecked(base + 16)
            var channels = Int(r.u16Unchecked(base + 24))
            var bits = Int(r.u16Unchecked(base + 26))
            var rate = Double(r.u32Unchecked(base + 32)) / 65536
            var flags: UInt32 = 0
            if version == 2 {
                guard entry.size >= 72 else {
                    throw .truncated(what: "version 2 sound sample entry", offset: entry.offset)
                }
                rate = Double(bitPattern: UInt64(r.u32Unchecked(base + 40)) << 32 | UInt64(r.u32Unchecked(base + 44)))
                channels = Int(r.u32Unchecked(base + 48))
                bits = Int(r.u32Unchecked(base + 56))
                flags = r.u32Unchecked(base + 60)
            }
            track.sampleRate = rate.isFinite ? rate : 0
            track.channelCount = channels
            track.bitsPerSample = bits
            let layout: PCMLayout? =
                switch entry.type {
                case "sowt":
                    PCMLayout(
                        bitsPerSample: bits == 8 ? 8 : 16, isFloat: false, isBigEndian: false, isSigned: true,
                        channelCount: channels)
                case "twos":
                    PCMLayout(
                        bitsPerSample: bits == 8 ? 8 : 16, isFloat: false, isBigEndian: true, isSigned: true,
                        channelCount: channels)
                case "raw ":
                    PCMLayout(
                        bitsPerSample: 8, isFloat: false, isBigEndian: false, isSigned: false, channelCount: channels)
                case "in24":
                    PCMLayout(
                        bitsPerSample: 24, isFloat: false, isBigEndian: true, isSigned: true, channelCount: channels)
                case "in32":
                    PCMLayout(
                        bitsPerSample: 32, isFloat: false, isBigEndian: true, isSigned: true, channelCount: channels)
                case "fl32":
                    PCMLayout(
                        bitsPerSample: 32, isFloat: true, isBigEndian: true, isSigned: true, channelCount: channels)
                case "fl64":
                    PCMLayout(
                        bitsPerSample: 64, isFloat: true, isBigEndian: true, isSigned: true, channelCount: channels)
                case "lpcm" where version == 2 && [8, 16, 24, 32, 64].contains(bits):
                    PCMLayout(
                        bitsPerSample: bits, isFloat: flags & 1 != 0, isBigEndian: flags & 2 != 0,
                        isSigned: flags & 4 != 0 || flags & 1 != 0, channelCount: channels)
                default: nil
                }
            if let layout, (1...64).contains(channels),
                layout.isFloat ? [32, 64].contains(bits) || entry.type != "lpcm" : true
            {
                track.pcm = layout
                track.bitsPerSample = layout.bitsPerSample
            }
        case .timedMetadata:
            guard entry.type == "mebx" else { break }
            guard
                let keys = try p.children(in: (base + 16)..<entry.end, of: "'mebx' sample entry").first(where: {
                    $0.type == "keys"
                })
            else { break }
            for k in try p.children(of: keys) {
                var key: MovieMetadataItem.Key?
                var type: UInt32 = 0
                for a in try p.children(of: k) {
                    if a.type == "keyd", a.payloadSize >= 4 {
                        key = MovieMetadataItem.Key(
                            rawValue: String(
                                decoding: try r.slice(a.payload + 4, a.payloadSize - 4, "keyd"), as: UTF8.self))
                    } else if a.type == "dtyp", a.payloadSize >= 8, r.u32Unchecked(a.payload) == 0 {
                        type = r.u32Unchecked(a.payload + 4)
                    }
                }
                if let key {
                    track.metadataKeyTable[k.type.rawValue] = (key, type)
                    track.metadataKeys.append(key)
                }
            }
        case .other: break
        }
    }
}
