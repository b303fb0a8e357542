public import LuxColor
public import LuxPixels

/// A track of a QuickTime movie as read: what it holds, its timing and its sample description.
///
/// Obtained from ``QuickTimeMovie/tracks``; samples are listed and decoded through the movie
/// (``QuickTimeMovie/samples(of:)``, ``QuickTimeMovie/decodeVideoFrame(_:of:options:)``).
public struct MovieTrack: Hashable, Sendable, CustomStringConvertible {
    /// What a track holds.
    public enum Kind: String, Hashable, Sendable, Codable {
        /// Pictures (handler 'vide').
        case video
        /// Sound (handler 'soun').
        case audio
        /// Timed metadata (handler 'meta', sample entry 'mebx').
        case timedMetadata
        /// Anything else (text, time codes, hints).
        case other
    }

    /// The track ID.
    public var id: Int
    /// What the track holds.
    public var kind: Kind
    /// The media handler type ('vide', 'soun', 'meta', …).
    public var handler: String
    /// The sample entry's format ('jpeg', 'avc1', 'hvc1', 'sowt', 'lpcm', 'mebx', …).
    public var codec: String
    /// Whether the track is enabled (tkhd flag 1).
    public var isEnabled: Bool
    /// Media ticks per second.
    public var timescale: Int32
    /// The media's own duration (all samples).
    public var mediaDuration: MediaTime
    /// The duration on the movie timeline (the track header's, including edits).
    public var duration: MediaTime
    /// The edit list (empty when the track has none: its media plays from time zero).
    public var edits: [MovieEdit]
    /// The number of samples (frames for video, PCM frames for audio).
    public var sampleCount: Int
    /// Stored frame size (video).
    public var width: Int
    /// Stored frame size (video).
    public var height: Int
    /// How the frames are shown upright (from the track matrix; `.up` when it is not a right-angle transform).
    public var orientation: Orientation
    /// The frames' colour space as tagged ('colr'; sRGB when untagged) — video only.
    public var colorSpace: ColorSpace?
    /// Audio frames per second.
    public var sampleRate: Double
    /// Audio channels.
    public var channelCount: Int
    /// Bits per audio sample.
    public var bitsPerSample: Int
    /// The keys of a timed-metadata track's sample entry, in local-ID order.
    public var metadataKeys: [MovieMetadataItem.Key]
    /// Tracks this one refers to ('tref'), such as `["cdsc": [1]]` for metadata describing track 1.
    public var references: [String: [Int]]

    var table: SampleTable
    /// Local key ID → (key, well-known type) of a 'mebx' entry.
    var metadataKeyTable: [UInt32: (key: MovieMetadataItem.Key, dataType: UInt32)] = [:]
    var pcm: PCMLayout?

    /// A readable name of the codec ("H.264", "Motion-JPEG", "16-bit PCM", …).
    public var codecName: String {
        switch codec {
        case "jpeg": "Motion-JPEG (Photo-JPEG)"
        case "mjpa": "Motion-JPEG A"
        case "mjpb": "Motion-JPEG B"
        case "avc1", "avc3": "H.264"
        case "hvc1", "hev1": "HEVC"
        case "ap4h", "ap4x", "apch", "apcn", "apcs", "apco": "ProRes"
        case "mp4a": "AAC"
        case "mebx": "timed metadata"
        default: pcm.map { "\($0.bitsPerSample)-bit PCM" } ?? codec
        }
    }

    /// Whether the frames of this (video) track can be decoded: Motion-JPEG by LuxCodecs, H.264, HEVC and the other
    /// codecs FFmpeg's libraries decode by ``VideoFrameReader``.
    public var canDecodeFrames: Bool {
        kind == .video && (isMotionJPEG || FFmpeg.decodesVideo(fourCC: codec))
    }

    /// Whether the frames are Motion-JPEG that LuxCodecs decodes itself (`jpeg`, `mjpa`).
    var isMotionJPEG: Bool { codec == "jpeg" || codec == "mjpa" }

    /// Whether the movie shows the track's media from its first presented sample at the movie's start: no edit list
    /// and that sample at media time 0, or one edit at normal rate from that sample's media time (no delay before it,
    /// nothing cut from the start) — as a copy of its compressed samples by ``QuickTimeWriter`` shows them.
    package var presentsMediaFromStart: Bool {
        let first = table.samples().map(\.time).min() ?? 0
        guard let edit = edits.first else { return first == 0 }
        return edits.count == 1 && edit.rate == 1 && edit.mediaTime?.converted(toTimescale: timescale).value == first
    }

    /// Frames per second, from the sample count and media duration (video).
    public var nominalFrameRate: Double {
        mediaDuration.seconds > 0 ? Double(sampleCount) / mediaDuration.seconds : 0
    }

    public var description: String {
        switch kind {
        case .video:
            "track \(id): video \(codecName) ('\(codec)') \(width)×\(height), \(sampleCount) frames, "
                + "\(String(format2: nominalFrameRate)) fps, \(String(format3: duration.seconds)) s"
        case .audio:
            "track \(id): audio \(codecName) ('\(codec)') \(Int(sampleRate)) Hz, \(channelCount) channel"
                + "\(channelCount == 1 ? "" : "s"), \(String(format3: duration.seconds)) s"
        case .timedMetadata:
            "track \(id): timed metadata [\(metadataKeys.map(\.rawValue).joined(separator: ", "))], "
                + "\(sampleCount) sample\(sampleCount == 1 ? "" : "s")"
        case .other: "track \(id): '\(handler)' '\(codec)', \(sampleCount) samples"
        }
    }

    public static func == (a: MovieTrack, b: MovieTrack) -> Bool {
        a.id == b.id && a.kind == b.kind && a.codec == b.codec && a.table == b.table && a.edits == b.edits
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(codec)
        hasher.combine(sampleCount)
    }
}

/// How PCM samples are stored.
struct PCMLayout: Hashable, Sendable {
    var bitsPerSample: Int
    var isFloat: Bool
    var isBigEndian: Bool
    var isSigned: Bool
    var channelCount: Int
    var bytesPerFrame: Int { (bitsPerSample / 8) * channelCount }
}

extension String {
    init(format2 v: Double) { self = String((v * 100).rounded() / 100) }
    init(format3 v: Double) { self = String((v * 1000).rounded() / 1000) }
}
