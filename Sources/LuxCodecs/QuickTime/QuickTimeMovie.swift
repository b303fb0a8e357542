public import FoundationEssentials
public import LuxPixels

/// A QuickTime (.mov) or MPEG-4 movie as read: tracks, timing, movie-level metadata and timed metadata, with
/// access to the samples — Motion-JPEG frames decoded, PCM audio converted, other codecs passed as bytes.
///
/// Reading parses the atom tree only; samples are read from the (memory-mapped) file when asked for. Every size
/// and offset is checked, so a damaged or hostile file produces a ``CodecError``, never a crash.
///
/// ```swift
/// let movie = try QuickTimeMovie(contentsOf: URL(fileURLWithPath: "IMG_0001.MOV"))
/// print(movie.contentIdentifier ?? "-", movie.stillImageTime?.seconds ?? 0, movie.duration.seconds)
/// if let video = movie.videoTrack, video.canDecodeFrames {
///     for sample in movie.samples(of: video) {
///         let frame = try movie.decodeVideoFrame(sample, of: video)    // .rgba8
///     }
/// }
/// let audio = try movie.audioSamples()                                  // 16-bit PCM, interleaved
/// ```
public struct QuickTimeMovie: Sendable {
    /// The movie's duration (movie header).
    public var duration: MediaTime
    /// Ticks per second of the movie timeline.
    public var timescale: Int32
    /// When the movie was created (movie header; `nil` when unset).
    public var creationDate: Date?
    /// Movie-level metadata: 'mdta' keys in moov/meta (Apple) or moov/udta/meta (FFmpeg).
    public var metadata: [MovieMetadataItem]
    /// The tracks in file order.
    public var tracks: [MovieTrack]
    /// The file's major brand ('qt  ', 'isom', …).
    public var brand: String
    let data: Data
    let limits: DecodingLimits
    /// The file's name for messages ("movie" for one read from memory).
    var name = "movie"

    /// Reads a movie file.
    ///
    /// - Throws: ``CodecError`` when the file cannot be read, is not a movie, or its structure is damaged.
    public init(contentsOf url: URL, limits: DecodingLimits = .default) throws(CodecError) {
        do {
            try self.init(data: try FileIO.read(url, limit: limits.maxByteCount), limits: limits)
        } catch {
            if case .io = error { throw error }
            throw error.inFile(url.lastPathComponent)
        }
        name = url.lastPathComponent
    }

    /// Reads a movie held in memory.
    public init(data: Data, limits: DecodingLimits = .default) throws(CodecError) {
        self.data = data
        self.limits = limits
        let parsed = try withBytes(of: data) { raw throws(CodecError) in try Self.parse(raw) }
        duration = parsed.duration
        timescale = parsed.timescale
        creationDate = parsed.creationDate
        metadata = parsed.metadata
        tracks = parsed.tracks
        brand = parsed.brand
    }

    /// The value of movie-level metadata `key`.
    public subscript(key: MovieMetadataItem.Key) -> MovieMetadataValue? {
        metadata.first { $0.key == key }?.value
    }

    /// The Live Photo content identifier (`com.apple.quicktime.content.identifier`).
    public var contentIdentifier: String? { self[.contentIdentifier]?.stringValue }

    /// The first enabled video track.
    public var videoTrack: MovieTrack? {
        tracks.first { $0.kind == .video && $0.isEnabled } ?? tracks.first { $0.kind == .video }
    }

    /// The first enabled audio track.
    public var audioTrack: MovieTrack? {
        tracks.first { $0.kind == .audio && $0.isEnabled } ?? tracks.first { $0.kind == .audio }
    }

    /// The presentation time of the still photo: the first sample of a timed-metadata track whose entry declares
    /// `com.apple.quicktime.still-image-time` (edit lists applied, as players and FFmpeg place it).
    public var stillImageTime: MediaTime? {
        for track in tracks where track.kind == .timedMetadata && track.metadataKeys.contains(.stillImageTime) {
            if let groups = try? timedMetadata(in: track),
                let g = groups.first(where: { $0.items.contains { $0.key == .stillImageTime } })
            {
                return g.time
            }
        }
        return nil
    }

    // MARK: Parsing

    private struct Parsed {
        var duration = MediaTime.zero
        var timescale: Int32 = 600
        var creationDate: Date?
        var metadata: [MovieMetadataItem] = []
        var tracks: [MovieTrack] = []
        var brand = ""
    }

    private static func parse(_ raw: UnsafeRawBufferPointer) throws(CodecError) -> Parsed {
        let p = AtomParser(raw)
        let r = p.reader
        guard raw.count >= 8 else { throw .truncated(what: "QuickTime file header", offset: 0) }
        let top = try p.children(in: 0..<raw.count, of: "file", topLevel: true)
        let known: Set<FourCC> = ["ftyp", "moov", "mdat", "wide", "free", "skip", "pnot", "uuid", "meta"]
        guard let first = top.first, known.contains(first.type) else {
            throw .unknownFormat(signature: Array(UnsafeRawBufferPointer(rebasing: raw[0..<min(8, raw.count)])))
        }
        var parsed = Parsed()
        if let ftyp = top.first(where: { $0.type == "ftyp" }), ftyp.payloadSize >= 4 {
            parsed.brand = FourCC(r.u32Unchecked(ftyp.payload)).description
        }
        guard let moov = top.first(where: { $0.type == "moov" }) else {
            throw .malformed(
                what: "QuickTime file", offset: 0,
                reason: "there is no movie header ('moov' atom); the recording may have been interrupted")
        }
        var traks: [Atom] = []
        for a in try p.children(of: moov) {
            switch a.type {
            case "mvhd":
                let (version, _) = try p.fullHeader(a, minimum: 20)
                let base = a.payload + 4
                let created: UInt64
                if version == 1 {
                    created = try r.u64(base, "mvhd")
                    parsed.timescale = Int32(clamping: try r.u32(base + 16, "mvhd"))
                    parsed.duration = MediaTime(
                        value: Int64(clamping: try r.u64(base + 20, "mvhd")), timescale: max(1, parsed.timescale))
                } else {
                    created = UInt64(r.u32Unchecked(base))
                    parsed.timescale = Int32(clamping: r.u32Unchecked(base + 8))
                    parsed.duration = MediaTime(
                        value: Int64(r.u32Unchecked(base + 12)), timescale: max(1, parsed.timescale))
                }
                guard parsed.timescale > 0 else {
                    throw .malformed(what: "movie header 'mvhd'", offset: a.offset, reason: "the timescale is 0")
                }
                if created > 0 { parsed.creationDate = Date(timeIntervalSince1970: Double(created) - 2_082_844_800) }
            case "trak": traks.append(a)
            case "meta": parsed.metadata += try metadataItems(a, p)
            case "udta":
                for u in try p.children(of: a) where u.type == "meta" {
                    for item in try metadataItems(u, p) where !parsed.metadata.contains(where: { $0.key == item.key }) {
                        parsed.metadata.append(item)
                    }
                }
            default: break
            }
        }
        parsed.tracks = try traks.map { (t) throws(CodecError) in
            try MovieTrack.parse(t, p, movieTimescale: parsed.timescale)
        }
        return parsed
    }

    /// The items of a 'meta' atom with an 'mdta' handler (QuickTime style, or ISO style with version and flags).
    private static func metadataItems(_ meta: Atom, _ p: AtomParser) throws(CodecError) -> [MovieMetadataItem] {
        let r = p.reader
        guard meta.payloadSize >= 8 else { return [] }
        // QuickTime's 'meta' has no version/flags: its first child ('hdlr') starts right away.
        let prefix = FourCC(r.u32Unchecked(meta.payload + 4)) == "hdlr" ? 0 : 4
        let children = try p.children(of: meta, skipping: prefix)
        var keys: [MovieMetadataItem.Key] = []
        if let k = children.first(where: { $0.type == "keys" }) {
            _ = try p.fullHeader(k, minimum: 4)
            let entries = try p.children(in: (k.payload + 8)..<k.end, of: "'keys' atom")
            keys = entries.map { e in
                // Entry: size, namespace ('mdta'), key bytes — parsed as an atom whose type is the namespace.
                MovieMetadataItem.Key(
                    rawValue: String(
                        decoding: UnsafeRawBufferPointer(rebasing: r.bytes[e.payload..<e.end]), as: UTF8.self))
            }
        }
        guard let ilst = children.first(where: { $0.type == "ilst" }) else { return [] }
        var items: [MovieMetadataItem] = []
        for item in try p.children(of: ilst) {
            let index = Int(item.type.rawValue)
            let key =
                index >= 1 && index <= keys.count
                ? keys[index - 1] : MovieMetadataItem.Key(rawValue: item.type.description)
            for d in try p.children(of: item) where d.type == "data" && d.payloadSize >= 8 {
                let type = r.u32Unchecked(d.payload) & 0xFF_FFFF
                let bytes = try r.slice(d.payload + 8, d.payloadSize - 8, "metadata value")
                items.append(MovieMetadataItem(key: key, value: MovieMetadataValue(bytes: bytes, dataType: type)))
                break
            }
        }
        return items
    }
}

extension CodecError {
    /// The error with the file's name added to its location.
    func inFile(_ name: String) -> CodecError {
        switch self {
        case .truncated(let what, let offset): .truncated(what: "\(what) in \(name)", offset: offset)
        case .malformed(let what, let offset, let reason):
            .malformed(what: "\(what) in \(name)", offset: offset, reason: reason)
        default: self
        }
    }
}
