internal import CLuxCodecShims
import LuxPixels

/// A zlib stream compressed in segments on several threads.
///
/// zlib compresses on one thread, and a PNG encode spends most of its time there. The input is cut into segments
/// of a fixed size; each is deflated on its own with the 32 KiB before it as its dictionary (so matches across the
/// cut are still found) and ends byte-aligned with a sync flush. Joined, the segments form one deflate stream, which
/// the zlib header and the Adler-32 of the whole input frame. The output depends only on the input, the level and
/// the strategy, never on the thread count.
struct SegmentedDeflate {
    /// Input bytes per segment: large enough that the cuts cost a few bytes in a megabyte, small enough to share a
    /// band of rows among threads.
    static let segmentSize = 1 << 18
    /// The window deflate looks back over.
    static let windowSize = 1 << 15

    /// zlib's level, 0 … 9.
    let level: Int
    /// Whether the input is filtered image data (zlib's `Z_FILTERED` strategy, which libpng uses for it).
    let isFiltered: Bool
    /// Threads the segments are shared among.
    let threads: Int
    /// Input not compressed yet (less than one segment after each ``append(count:_:)``).
    private var pending: [UInt8] = []
    /// The last ≤ 32 KiB of the input compressed so far.
    private var dictionary: [UInt8] = []
    /// The Adler-32 of the input compressed so far.
    private var adler: UInt32 = 1
    private var wroteHeader = false

    init(level: Int, isFiltered: Bool, threads: Int) {
        self.level = max(0, min(9, level))
        self.isFiltered = isFiltered
        self.threads = max(1, threads)
    }

    /// Adds `count` bytes of input that `fill` writes in place (no copy of the input is made), and returns the
    /// compressed bytes of every segment completed (possibly none).
    ///
    /// The input held between calls keeps its memory: after the first call, input of the same size is written where
    /// the last was, without allocating.
    mutating func append(
        count: Int, _ fill: (UnsafeMutableBufferPointer<UInt8>) throws(CodecError) -> Void
    ) throws(CodecError) -> [UInt8] {
        let start = pending.count
        if pending.capacity < start + count {
            // Room for input of this size after any rest (less than a segment) a call leaves, and no more: a
            // doubling array would hold up to twice the input, and growing again would copy it.
            var grown: [UInt8] = []
            grown.reserveCapacity(count + Self.segmentSize)
            grown += pending
            pending = grown
        }
        pending += repeatElement(0, count: count)
        var failure: CodecError?
        pending.withUnsafeMutableBufferPointer { all in
            do throws(CodecError) { try fill(UnsafeMutableBufferPointer(rebasing: all[start...])) } catch {
                failure = error
            }
        }
        if let failure {
            pending.removeLast(count)
            throw failure
        }
        let complete = pending.count / Self.segmentSize
        guard complete > 0 else { return [] }
        let cut = complete * Self.segmentSize
        var out = header()
        try compress(pending[..<cut], endsStream: false, into: &out)
        pending.removeFirst(cut)
        return out
    }

    /// Compresses what remains and returns it with the end of the stream (and the header if nothing came before).
    mutating func finish() throws(CodecError) -> [UInt8] {
        var out = header()
        try compress(pending[...], endsStream: true, into: &out)
        pending = []
        withUnsafeBytes(of: adler.bigEndian) { out += $0 }
        return out
    }

    /// The two-byte zlib header on the first output, nothing after: deflate with a 32 KiB window, the level's
    /// class, and the check bits that make the pair a multiple of 31.
    private mutating func header() -> [UInt8] {
        guard !wroteHeader else { return [] }
        wroteHeader = true
        let levelClass = level < 2 ? 0 : level < 6 ? 1 : level == 6 ? 2 : 3
        let cmf = 0x78
        var flags = levelClass << 6
        flags += 31 - (cmf << 8 | flags) % 31
        return [UInt8(cmf), UInt8(flags)]
    }

    /// Deflates `input` (whole segments, except a shorter last one that ends the stream) in parallel and appends
    /// the segments in order.
    private mutating func compress(_ input: ArraySlice<UInt8>, endsStream: Bool, into out: inout [UInt8])
        throws(CodecError)
    {
        let size = Self.segmentSize
        let count = max(1, (input.count + size - 1) / size)
        let level = Int32(level)
        let strategy: Int32 = isFiltered ? 1 : 0
        nonisolated(unsafe) let slots = UnsafeMutableBufferPointer<(bytes: [UInt8], adler: UInt32)>.allocate(
            capacity: count)
        slots.initialize(repeating: ([], 1))
        defer { slots.deinitialize().deallocate() }
        let failure = FirstError()
        let previous = dictionary
        input.withUnsafeBufferPointer { whole in
            let base = whole.baseAddress
            let total = whole.count
            nonisolated(unsafe) let start = base
            Parallel.forEachBand(count, threads: threads, minimumBand: 1, bandsPerThread: 2) { range in
                for i in range {
                    let lower = i * size
                    let upper = min(total, lower + size)
                    let segment = start.map { $0 + lower }
                    var compressed: UnsafeMutablePointer<UInt8>?
                    var produced = 0
                    var message = [CChar](repeating: 0, count: 256)
                    let status = message.withUnsafeMutableBufferPointer { m in
                        let last: Int32 = endsStream && i == count - 1 ? 1 : 0
                        if i == 0 {
                            return previous.withUnsafeBufferPointer { d in
                                lux_deflate_segment(
                                    segment, upper - lower, d.baseAddress, d.count, level, strategy, last,
                                    &compressed, &produced, m.baseAddress, m.count)
                            }
                        }
                        let window = min(lower, Self.windowSize)
                        return lux_deflate_segment(
                            segment, upper - lower, segment.map { $0 - window }, window, level, strategy, last,
                            &compressed, &produced, m.baseAddress, m.count)
                    }
                    guard status == 0, let compressed else {
                        failure.record(.library(name: "zlib", message: cMessage(message)))
                        continue
                    }
                    slots[i] = (
                        Array(UnsafeBufferPointer(start: compressed, count: produced)),
                        lux_adler32(1, segment, upper - lower)
                    )
                    lux_free(compressed)
                }
            }
        }
        if let error = failure.error { throw error }
        for i in 0..<count {
            out += slots[i].bytes
            let length = min(size, input.count - i * size)
            adler = lux_adler32_combine(adler, slots[i].adler, max(0, length))
        }
        dictionary =
            input.count >= Self.windowSize
            ? Array(input.suffix(Self.windowSize)) : Array((previous + input).suffix(Self.windowSize))
    }
}
