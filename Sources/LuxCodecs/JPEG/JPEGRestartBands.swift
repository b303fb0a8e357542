internal import CLuxCodecShims
import LuxPixels
import Synchronization

/// A baseline, single-scan JPEG whose restart intervals start MCU rows, decoded as horizontal bands by separate libjpeg
/// decompressors at once (iPhone JPEGs restart every MCU row).
///
/// With `i` MCUs per interval and `n` per row, an interval starts a row every i / gcd(i, n) rows: every row when i
/// divides n, every i / n rows when n divides i.
///
/// Each band's decompressor reads a stream made for it: the file's header segments with the frame height cut to
/// the band, the band's restart intervals with their markers renumbered from RST0, and EOI. Fancy chroma
/// upsampling reads the chroma rows above and below each output row, so a band also decodes the restart interval
/// above it and the MCU row below it and drops their rows: the pixels equal those of one decode of the whole file.
/// Each band writes its rows straight into the output, so the page faults of a fresh buffer are split too.
struct JPEGRestartBands: @unchecked Sendable {  // `bytes` is the caller's, alive while it decodes
    /// Images below this many pixels are decoded whole (starting decompressors would cost more than it saves).
    static let minimumPixelCount = 1 << 18

    private let bytes: UnsafeRawBufferPointer
    /// Where the entropy-coded data starts (just after SOS).
    private let entropyStart: Int
    /// Where the frame height stands in the SOF segment.
    private let heightOffset: Int
    /// The frame size.
    let width: Int
    let height: Int
    /// Whether the file has one component (decoded to gray) rather than three (decoded to RGBA).
    let isGray: Bool
    /// The height of an MCU row in pixels.
    private let mcuHeight: Int
    private let mcuRows: Int
    private let mcusPerRow: Int
    /// MCUs per restart interval (DRI).
    private let interval: Int
    /// The MCU rows from one row where a restart interval starts to the next such row: bands start at multiples.
    private let step: Int
    /// The byte range of each restart interval's data.
    private let intervals: [Range<Int>]

    /// The number of `step`-row units bands are made of.
    var unitCount: Int { (mcuRows + step - 1) / step }

    /// Reads what band decoding needs from the markers and the entropy-coded data; nil when the file is not a
    /// baseline (or extended sequential Huffman) single-scan 8-bit gray or three-component JPEG with restart
    /// markers RST0…RST7 in order, when intervals start rows too far apart to make two bands of two, or when the
    /// image is too small to split.
    init?(_ bytes: UnsafeRawBufferPointer) {
        var sof: JPEGSegment?
        var restartInterval = 0
        var scanComponents = 0
        guard
            let start = try? JPEGSegments.scan(
                bytes, what: "JPEG",
                { segment throws(CodecError) in
                    switch segment.marker {
                    case 0xC0, 0xC1: sof = segment
                    case 0xC2...0xCF where segment.marker != 0xC4 && segment.marker != 0xC8 && segment.marker != 0xCC:
                        throw .unsupported(what: "JPEG process", reason: "not decoded in bands")
                    case 0xDD where segment.payload.count == 2:
                        restartInterval = Int(segment.payload[0]) << 8 | Int(segment.payload[1])
                    case 0xDA where segment.payload.count >= 1: scanComponents = Int(segment.payload[0])
                    default: break
                    }
                }), let sof, sof.payload.count >= 6, sof.payload[0] == 8, restartInterval > 0
        else { return nil }
        let p = sof.payload
        let components = Int(p[5])
        guard scanComponents == components, p.count >= 6 + 3 * components else { return nil }
        var (maxH, maxV) = (1, 1)
        for i in 0..<components {
            let factors = Int(p[7 + 3 * i])
            let (h, v) = (factors >> 4, factors & 15)
            guard (1...4).contains(h), (1...4).contains(v) else { return nil }
            (maxH, maxV) = (max(maxH, h), max(maxV, v))
        }
        // A one-component scan's MCU is one block whatever the factors; only 1×1 keeps MCU and iMCU rows equal.
        guard components == 3 || (components == 1 && maxH == 1 && maxV == 1) else { return nil }
        let mcuWidth = 8 * maxH
        mcuHeight = 8 * maxV
        height = Int(p[1]) << 8 | Int(p[2])
        width = Int(p[3]) << 8 | Int(p[4])
        guard width > 0, height > 0, width * height >= Self.minimumPixelCount else { return nil }
        mcusPerRow = (width + mcuWidth - 1) / mcuWidth
        mcuRows = (height + mcuHeight - 1) / mcuHeight
        interval = restartInterval
        step = interval / greatestCommonDivisor(interval, mcusPerRow)
        // At least two bands of two units each: a band decodes one unit above it as context.
        guard (mcuRows + step - 1) / step >= 4 else { return nil }
        let expected = (mcusPerRow * mcuRows + interval - 1) / interval
        // Every interval but the last ends in a two-byte marker: a header promising more than the data can hold
        // is not split (and allocates nothing for it).
        guard expected - 1 <= (bytes.count - start) / 2 else { return nil }
        var starts = [Int](repeating: 0, count: expected)
        var ends = [Int](repeating: 0, count: expected)
        let found = lux_jpeg_restart_intervals(
            bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count, start, &starts, &ends, expected)
        guard found == expected else { return nil }
        intervals = (0..<expected).map { starts[$0]..<ends[$0] }
        self.bytes = bytes
        entropyStart = start
        heightOffset = sof.payloadOffset + 1
        isGray = components == 1
    }

    /// Decodes the image into `plane` (width × height pixels, RGBA or gray as the file) in bands on up to
    /// `threads` threads; false when a band failed (the plane then holds partial rows: decode the file whole to
    /// learn the error).
    func decode(into plane: MutableRawPlane, threads: Int, libraryBudget: Int) -> Bool {
        let failed = Atomic<Bool>(false)
        Parallel.forEachBand(unitCount, threads: threads, minimumBand: 2, bandsPerThread: 1) { units in
            if failed.load(ordering: .relaxed) { return }
            if !decodeBand(units, into: plane, libraryBudget: libraryBudget) { failed.store(true, ordering: .relaxed) }
        }
        return !failed.load(ordering: .relaxed)
    }

    /// Decodes the MCU rows of `units` (after a unit of context above, and one MCU row below, each dropped).
    private func decodeBand(_ units: Range<Int>, into plane: MutableRawPlane, libraryBudget: Int) -> Bool {
        let first = units.lowerBound * step
        let end = min(mcuRows, units.upperBound * step)
        let contextFirst = max(0, first - step)
        let contextEnd = min(mcuRows, end + 1)
        let top = contextFirst * mcuHeight
        let bandHeight = min(height, contextEnd * mcuHeight) - top
        let firstInterval = contextFirst * mcusPerRow / interval
        let endInterval = min(intervals.count, (contextEnd * mcusPerRow + interval - 1) / interval)
        let pieces = intervals[firstInterval..<endInterval]
        let size = entropyStart + pieces.reduce(0) { $0 + $1.count + 2 }
        let source = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let stream = [UInt8](unsafeUninitializedCapacity: size) { out, count in
            let o = out.baseAddress!
            o.update(from: source, count: entropyStart)
            o[heightOffset] = UInt8(bandHeight >> 8)
            o[heightOffset + 1] = UInt8(bandHeight & 255)
            var at = entropyStart
            for (k, piece) in pieces.enumerated() {
                (o + at).update(from: source + piece.lowerBound, count: piece.count)
                at += piece.count
                o[at] = 0xFF
                o[at + 1] = k == pieces.count - 1 ? 0xD9 : 0xD0 + UInt8(k & 7)
                at += 2
            }
            count = at
        }
        let rows = min(height, end * mcuHeight) - first * mcuHeight
        var message = [CChar](repeating: 0, count: 256)
        return stream.withUnsafeBufferPointer { s in
            message.withUnsafeMutableBufferPointer { m in
                lux_jpeg_decode_rows(
                    s.baseAddress, s.count, Int32(isGray ? LUX_JPEG_OUT_GRAY : LUX_JPEG_OUT_RGBA),
                    (plane.baseAddress + first * mcuHeight * plane.bytesPerRow).assumingMemoryBound(to: UInt8.self),
                    plane.bytesPerRow, Int32(width), Int32(bandHeight), Int32((first - contextFirst) * mcuHeight),
                    Int32(rows), libraryBudget, m.baseAddress, m.count)
            }
        } == 0
    }
}
