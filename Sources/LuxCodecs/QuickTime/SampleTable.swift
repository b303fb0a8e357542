/// A track's sample table as stored ('stts', 'ctts', 'stsc', 'stsz', 'stco'/'co64'), kept in run-length form so
/// that a track of millions of PCM frames costs a few entries.
struct SampleTable: Hashable, Sendable {
    struct TimeRun: Hashable, Sendable {
        var count: UInt32
        var delta: UInt32
    }

    struct OffsetRun: Hashable, Sendable {
        var count: UInt32
        var offset: Int32
    }

    struct ChunkRun: Hashable, Sendable {
        var firstChunk: UInt32
        var samplesPerChunk: UInt32
    }

    var timeRuns: [TimeRun] = []
    var compositionOffsets: [OffsetRun] = []
    /// The sync samples' numbers (1-based, from 'stss'); `nil` without the table: every sample is a sync sample.
    var syncSamples: [UInt32]?
    var chunkRuns: [ChunkRun] = []
    /// The size of every sample when constant, else 0.
    var constantSize: UInt32 = 0
    var sizes: [UInt32] = []
    var sampleCount = 0
    var chunkOffsets: [UInt64] = []

    /// Sum of the sample durations, in media ticks (saturating at `Int64.max` for a hostile table: 2³² runs of
    /// 2³² samples of 2³² ticks overflow 64 bits).
    var mediaDuration: Int64 {
        var total: UInt64 = 0
        for r in timeRuns {
            let (sum, overflow) = total.addingReportingOverflow(UInt64(r.count) * UInt64(r.delta))
            guard !overflow, sum <= UInt64(Int64.max) else { return .max }
            total = sum
        }
        return Int64(total)
    }

    /// Every chunk with its first sample number and sample count, in file order.
    func chunks() -> [(firstSample: Int, count: Int, offset: UInt64)] {
        var out: [(Int, Int, UInt64)] = []
        out.reserveCapacity(chunkOffsets.count)
        var sample = 0
        var run = 0
        for (i, offset) in chunkOffsets.enumerated() {
            while run + 1 < chunkRuns.count, Int(chunkRuns[run + 1].firstChunk) <= i + 1 { run += 1 }
            let n = chunkRuns.isEmpty ? 0 : Int(chunkRuns[run].samplesPerChunk)
            let count = min(n, max(0, sampleCount - sample))
            out.append((sample, count, offset))
            sample += count
        }
        return out
    }

    /// Per sample in decode order: file offset, size, presentation time (decode time plus composition offset) and
    /// how long it shows, in media ticks.
    ///
    /// Only for tracks with per-sample records (video, metadata); the caller bounds the count.
    func samples() -> [(offset: UInt64, size: Int, time: Int64, duration: Int64)] {
        var out: [(offset: UInt64, size: Int, time: Int64, duration: Int64)] = []
        out.reserveCapacity(sampleCount)
        var times: [(Int64, Int64)] = []
        times.reserveCapacity(sampleCount)
        var t: Int64 = 0
        outer: for r in timeRuns {
            for _ in 0..<r.count {
                if times.count == sampleCount { break outer }
                times.append((t, Int64(r.delta)))
                t += Int64(r.delta)
            }
        }
        var composition: [Int64] = []
        // At most sampleCount entries: a run may claim 2³² − 1 samples, which must not be counted one by one.
        for r in compositionOffsets where composition.count < sampleCount {
            composition += repeatElement(Int64(r.offset), count: min(Int(r.count), sampleCount - composition.count))
        }
        for c in chunks() {
            var offset = c.offset
            for s in c.firstSample..<(c.firstSample + c.count) {
                let size = Int(constantSize != 0 ? constantSize : (s < sizes.count ? sizes[s] : 0))
                let (time, duration) = s < times.count ? times[s] : (t, 0)
                let cts = s < composition.count ? composition[s] : 0
                out.append((offset, size, time + cts, duration))
                // A chunk offset near 2⁶⁴ (co64) must not wrap: the sample then lies beyond any file.
                offset = offset.addingReportingOverflow(UInt64(size)).overflow ? .max : offset + UInt64(size)
            }
        }
        if !composition.isEmpty {
            // Reordered samples show until the next one in presentation order (the last keeps its own duration).
            let order = out.indices.sorted { out[$0].time < out[$1].time }
            for (k, i) in order.dropLast().enumerated() {
                let next = out[order[k + 1]].time
                if next > out[i].time { out[i].duration = next - out[i].time }
            }
        }
        return out
    }
}
