/// The samples of one track as the writer lays them down: sizes, durations, composition offsets, sync samples and
/// chunks, ready to be described by a sample table.
struct TrackRecorder {
    enum Media {
        /// Video; `configuration` is the `avcC`/`hvcC` record of an H.264/HEVC track (empty for Motion-JPEG).
        case video(QuickTimeWriter.VideoSettings, configuration: [UInt8])
        /// Audio; `configuration` is the AudioSpecificConfig of an AAC track (empty for PCM).
        case audio(QuickTimeWriter.AudioSettings, configuration: [UInt8])
        /// Timed metadata: the keys of the 'mebx' sample entry, in local-ID order (ID = index + 1).
        case metadata(keys: [(key: MovieMetadataItem.Key, dataType: UInt32)])
    }

    struct Chunk {
        var offset: UInt64
        var samples: UInt32
    }

    let id: Int
    let media: Media
    /// Media timescale (ticks per second).
    let timescale: Int32
    /// Where the media starts on the movie timeline, in media ticks (an empty edit precedes it when > 0).
    var startTicks: Int64 = 0
    /// The media time the presentation starts at (the edit's media time): the reordering delay of an H.264/HEVC
    /// track, the encoder priming of an AAC track, else 0.
    var mediaStart: Int64 = 0
    /// How long the media is presented, in media ticks (`nil`: from ``mediaStart`` to the end of the media).
    var presentedTicks: Int64?
    /// Per-sample sizes (empty when every sample has ``constantSampleSize``).
    private(set) var sampleSizes: [UInt32] = []
    /// The size of every sample when constant (PCM frames), else 0.
    let constantSampleSize: UInt32
    private(set) var sampleCount = 0
    /// Run-length sample durations (count, delta).
    private(set) var timeRuns: [(count: UInt32, delta: UInt32)] = []
    /// Run-length composition offsets (count, offset); empty when every sample is presented at its decode time.
    private(set) var compositionRuns: [(count: UInt32, offset: UInt32)] = []
    /// The 1-based numbers of the sync samples; `nil` when every sample is one.
    private(set) var syncSamples: [UInt32]?
    private(set) var chunks: [Chunk] = []
    /// The track this one describes (timed metadata → video), written as a 'cdsc' reference.
    var describesTrack: Int?

    init(id: Int, media: Media, timescale: Int32, constantSampleSize: UInt32 = 0) {
        self.id = id
        self.media = media
        self.timescale = timescale
        self.constantSampleSize = constantSampleSize
    }

    /// Total media duration in ticks.
    var mediaDuration: Int64 { timeRuns.reduce(0) { $0 + Int64($1.count) * Int64($1.delta) } }

    /// How long the track is presented, in media ticks.
    var presentedDuration: Int64 { presentedTicks ?? max(0, mediaDuration - mediaStart) }

    /// Records `count` samples of `size` bytes each (or one sample of `size` bytes when sizes vary) written at
    /// `offset`; a write that continues the previous one extends its chunk.
    mutating func addSamples(count: Int, size: Int, at offset: UInt64) {
        let bytes = UInt64(constantSampleSize == 0 ? size : count * Int(constantSampleSize))
        if constantSampleSize == 0 { sampleSizes.append(UInt32(size)) }
        sampleCount += count
        if !chunks.isEmpty, lastChunkEnd == offset {
            chunks[chunks.count - 1].samples += UInt32(count)
        } else {
            chunks.append(Chunk(offset: offset, samples: UInt32(count)))
        }
        lastChunkEnd = offset + bytes
    }

    /// The file offset just after the last chunk.
    private var lastChunkEnd: UInt64 = 0

    /// Appends sample durations.
    mutating func addDuration(_ delta: UInt32, count: UInt32 = 1) {
        guard count > 0 else { return }
        if let last = timeRuns.last, last.delta == delta {
            timeRuns[timeRuns.count - 1].count += count
        } else {
            timeRuns.append((count, delta))
        }
    }

    /// Records the timing of reordered samples (all of them, in decode order): their durations from the decode
    /// times (the last lasting until `end`, a presentation tick), composition offsets, sync samples, and the media
    /// time the first presented sample has.
    mutating func setReorderedTiming(decode: [Int64], presentation: [Int64], sync: [Bool], end: Int64) {
        guard let first = decode.first, let last = decode.last else { return }
        timeRuns = []
        for i in decode.indices {
            let next = i + 1 < decode.count ? decode[i + 1] : max(last + 1, end)
            addDuration(UInt32(clamping: max(0, next - decode[i])))
        }
        compositionRuns = []
        for (d, p) in zip(decode, presentation) {
            let offset = UInt32(clamping: max(0, p - d))
            if let run = compositionRuns.last, run.offset == offset {
                compositionRuns[compositionRuns.count - 1].count += 1
            } else {
                compositionRuns.append((1, offset))
            }
        }
        if compositionRuns.allSatisfy({ $0.offset == 0 }) { compositionRuns = [] }
        syncSamples = sync.allSatisfy { $0 } ? nil : sync.indices.filter { sync[$0] }.map { UInt32($0 + 1) }
        mediaStart = (presentation.min() ?? first) - first
        presentedTicks = end - (presentation.min() ?? first)
    }

    /// The sample-to-chunk runs (first chunk 1-based, samples per chunk).
    var sampleToChunkRuns: [(firstChunk: UInt32, samplesPerChunk: UInt32)] {
        var runs: [(UInt32, UInt32)] = []
        for (i, c) in chunks.enumerated() where runs.last?.1 != c.samples {
            runs.append((UInt32(i + 1), c.samples))
        }
        return runs
    }
}
