/// The samples of one track as the writer lays them down: sizes, durations and chunks, ready to be described by
/// a sample table.
struct TrackRecorder {
    enum Media {
        case video(QuickTimeWriter.VideoSettings)
        case audio(QuickTimeWriter.AudioSettings)
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
    /// Per-sample sizes (empty when every sample has ``constantSampleSize``).
    private(set) var sampleSizes: [UInt32] = []
    /// The size of every sample when constant (PCM frames), else 0.
    let constantSampleSize: UInt32
    private(set) var sampleCount = 0
    /// Run-length sample durations (count, delta).
    private(set) var timeRuns: [(count: UInt32, delta: UInt32)] = []
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

    /// The sample-to-chunk runs (first chunk 1-based, samples per chunk).
    var sampleToChunkRuns: [(firstChunk: UInt32, samplesPerChunk: UInt32)] {
        var runs: [(UInt32, UInt32)] = []
        for (i, c) in chunks.enumerated() where runs.last?.1 != c.samples {
            runs.append((UInt32(i + 1), c.samples))
        }
        return runs
    }
}
