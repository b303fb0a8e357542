internal import CLuxKernels
import FoundationEssentials
import LuxColor
import LuxPixels
import Synchronization

/// A TIFF encoder fed band by band: complete strips are converted (and compressed) in parallel and written
/// out as soon as they are full, so only a strip's worth of rows is held between bands; the directory goes
/// at the end of the file and the header is patched to point at it.
final class TIFFStreamEncoder {
    /// Where finished strips go: memory, or a temporary file renamed into place at the end.
    private enum Sink {
        case memory([UInt8])
        case file(AtomicFile)
    }

    let width: Int
    let height: Int
    private let plan: TIFF.SamplePlan
    private let rowsPerStrip: Int
    private let colorSpace: ColorSpace?
    private let metadata: ImageMetadata
    private let options: EncodingOptions
    private var counter: BandCounter
    private var sink: Sink
    private var position = 8
    private var stripOffsets: [Int] = []
    private var stripCounts: [Int] = []
    /// Prepared rows that do not yet fill a strip.
    private var pending: PixelBuffer?
    private var outputSpace: ColorSpace?
    private var premultiplied = false

    /// The rows written so far.
    var rowsWritten: Int { counter.rowsWritten }

    deinit { packed.deallocate() }

    /// - Parameter destination: the file to write (through a temporary file beside it), or `nil` to keep the
    ///   bytes in memory for ``finish()``.
    init(
        width: Int, height: Int, pixelFormat: PixelFormat, colorSpace: ColorSpace?, metadata: ImageMetadata,
        options: EncodingOptions, destination: URL?
    ) throws(CodecError) {
        guard width > 0, height > 0, width <= 0xFFFF_FFFF, height <= 0xFFFF_FFFF else {
            throw .invalidArgument("invalid TIFF size \(width)×\(height)")
        }
        guard options.tiffTileSize == nil else {
            throw .invalidArgument("a streamed TIFF is written in strips; tiles need the whole image (ImageFile.write)")
        }
        let base = try TIFF.SamplePlan(pixelFormat: pixelFormat, options: options)
        plan = base.storing(alpha: pixelFormat.hasAlpha && options.alpha != .discard)
        self.width = width
        self.height = height
        rowsPerStrip = plan.rowsPerStrip(width: width, height: height)
        self.colorSpace = colorSpace
        self.metadata = metadata
        self.options = options
        counter = BandCounter(width: width, height: height, name: "TIFF")
        if let destination {
            let file = try AtomicFile(destination: destination)
            try file.append([UInt8](repeating: 0, count: 8))
            sink = .file(file)
        } else {
            sink = .memory([UInt8](repeating: 0, count: 8))
        }
    }

    /// Encodes the next rows (a band `width` pixels wide; its colour space defaults to the stream's).
    func append(_ band: PixelBuffer) throws(CodecError) {
        try counter.check(band)
        var source = band
        if source.colorSpace == nil { source.colorSpace = colorSpace }
        let (prepared, space) = try IntegerEncoding.prepare(source, format: plan.memoryFormat, options: options)
        if counter.rowsWritten == 0 {
            outputSpace = space
            premultiplied = prepared.isPremultiplied
        }
        counter.advance(by: band.height)
        var next = 0
        if let held = pending {
            // Top up the held rows to a whole strip (or to the end of the image).
            let take = min(rowsPerStrip - held.height, prepared.height)
            let joined = Self.stacking([(held, 0..<held.height), (prepared, 0..<take)])
            next = take
            if joined.height == rowsPerStrip || counter.rowsWritten == height && next == prepared.height {
                try writeStrips(of: joined, from: 0, count: 1)
                pending = nil
            } else {
                pending = joined
                return
            }
        }
        let whole = (prepared.height - next) / rowsPerStrip
        try writeStrips(of: prepared, from: next, count: whole)
        next += whole * rowsPerStrip
        if next < prepared.height {
            let rest = Self.stacking([(prepared, next..<prepared.height)])
            if counter.rowsWritten == height {
                try writeStrips(of: rest, from: 0, count: 1)
            } else {
                pending = rest
            }
        }
    }

    /// Whether ``append(storedRGB8Of:)`` can write the rows: 8-bit RGB strips without alpha, uncompressed, and no
    /// band appended yet.
    var acceptsStoredRGB8: Bool {
        plan.sample == .uint8 && !plan.gray && plan.samplesPerPixel == 3 && !plan.deflate && counter.rowsWritten == 0
    }

    /// Writes every row of an uncompressed 8-bit RGB TIFF (``ImageRegionReader/hasStoredRGB8Rows``) as the file's
    /// strips: rows are read as the input stores them, converted in place from the reader's colour space to the
    /// file's by table (``ColorConverter/convert(rgba8:into:count:)``) and written at their strip's place — uncompressed
    /// strips have known sizes, so every place is known before any strip is written — in groups of strips spread
    /// over ``EncodingOptions/threads`` threads, each with one reused buffer.
    ///
    /// The file's values are those of a render whose final 8-bit colour match is by table (not the float match that
    /// ``append(_:)`` applies to 8-bit bands of another colour space, which may round a value the other way).
    func append(storedRGB8Of reader: ImageRegionReader) throws(CodecError) {
        guard acceptsStoredRGB8, reader.hasStoredRGB8Rows, reader.width == width, reader.height == height else {
            throw .invalidArgument("the rows of this reader cannot be written as they are stored")
        }
        let target = IntegerEncoding.outputSpace(for: colorSpace, format: plan.memoryFormat, options: options)
        let converter: ColorConverter?
        if let s = reader.colorSpace, let t = target, !s.isColorimetricallyEqual(to: t) || s.isExtendedRange {
            do { converter = try ColorConverter(from: s, to: t) } catch {
                throw .invalidArgument("cannot convert the pixels to \(t.name): \(error)")
            }
        } else {
            converter = nil
        }
        outputSpace = target
        premultiplied = false
        counter.advance(by: height)
        let rowBytes = width * 3
        let per = rowsPerStrip
        let strips = (height + per - 1) / per
        for i in 0..<strips {
            position += position & 1
            stripOffsets.append(position)
            stripCounts.append(min(per, height - i * per) * rowBytes)
            position += stripCounts[i]
        }
        // Groups of about 512 KiB: few reads and writes, and several groups a thread to balance the load.
        let group = max(1, (512 << 10) / (per * rowBytes))
        let offsets = stripOffsets
        let w = width
        let h = height
        let failure = FirstError()
        func run(_ write: @Sendable (UnsafeRawBufferPointer, Int) throws(CodecError) -> Void) {
            Parallel.forEachBand((strips + group - 1) / group, threads: options.threads, minimumBand: 1) { groups in
                let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: group * per * rowBytes, alignment: 64)
                defer { buffer.deallocate() }
                let base = buffer.baseAddress!
                for g in groups where !failure.hasError {
                    let first = g * group
                    let last = min(strips, first + group) - 1
                    let rows = (first * per)..<min(h, (last + 1) * per)
                    do throws(CodecError) {
                        try reader.readStoredRGB8(rows: rows, into: base)
                        let p = base.assumingMemoryBound(to: UInt8.self)
                        if let converter { Self.convert(rgb8: p, count: rows.count * w, converter) }
                        // Padding between odd-sized strips breaks a group into one write a strip.
                        if offsets[last] - offsets[first] == (last - first) * per * rowBytes {
                            try write(UnsafeRawBufferPointer(start: base, count: rows.count * rowBytes), offsets[first])
                        } else {
                            for i in first...last {
                                let start = base + (i - first) * per * rowBytes
                                let count = (min(h, (i + 1) * per) - i * per) * rowBytes
                                try write(UnsafeRawBufferPointer(start: start, count: count), offsets[i])
                            }
                        }
                    } catch {
                        failure.record(error)
                    }
                }
            }
        }
        switch sink {
        case .memory(var bytes):
            sink = .memory([])
            bytes += [UInt8](repeating: 0, count: position - bytes.count)
            bytes.withUnsafeMutableBytes { all in
                nonisolated(unsafe) let file = all
                run { (chunk: UnsafeRawBufferPointer, offset: Int) in
                    UnsafeMutableRawBufferPointer(rebasing: file[offset..<(offset + chunk.count)]).copyMemory(
                        from: chunk)
                }
            }
            sink = .memory(bytes)
        case .file(let file):
            // Writes go to the file one at a time (the file's size is updated by each).
            nonisolated(unsafe) let shared = file
            let lock = Mutex(())
            run { (chunk: UnsafeRawBufferPointer, offset: Int) throws(CodecError) in
                try lock.withLock { (_: inout ()) throws(CodecError) in try shared.write(chunk, at: offset) }
            }
        }
        if let error = failure.error { throw error }
    }

    /// Converts packed 8-bit RGB pixels in place by `converter`'s 8-bit tables, widened to RGBA a stack chunk at a
    /// time (the values of ``ColorConverter/convert(rgba8:into:count:)``).
    private static func convert(rgb8 p: UnsafeMutablePointer<UInt8>, count: Int, _ converter: ColorConverter) {
        let chunk = 1024
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4 * chunk) { scratch in
            let rgba = scratch.baseAddress!
            var start = 0
            while start < count {
                let n = min(chunk, count - start)
                lux_rgb8_to_rgba8(p + 3 * start, rgba, n)
                converter.convert(rgba8: rgba, into: rgba, count: n)
                lux_rgba8_to_rgb8(rgba, p + 3 * start, n)
                start += n
            }
        }
    }

    /// Completes the file: the directory after the strips, then the header pointing at it.
    ///
    /// Returns the bytes for an in-memory encoder, nothing for a file (which is renamed into place).
    func finish() throws(CodecError) -> [UInt8] {
        try counter.finish()
        var d = TIFF.directory(
            width: width, height: height, plan: plan, premultiplied: premultiplied, space: outputSpace,
            metadata: metadata, options: options)
        d[TIFFTag.rowsPerStrip] = .longs([UInt32(rowsPerStrip)])
        d.data = TIFFImageData(
            offsetsTag: TIFFTag.stripOffsets, countsTag: TIFFTag.stripByteCounts,
            blobs: zip(stripOffsets, stripCounts).map { .placed(offset: $0, count: $1) })
        let (trailer, root) = TIFFEncoder.encodeDirectories(d, at: position, bigEndian: false)
        guard position + trailer.count <= Int(UInt32.max) else {
            throw .invalidArgument("the TIFF would exceed 4 GiB; BigTIFF writing is not implemented")
        }
        let header = TIFFEncoder.header(bigEndian: false, firstDirectory: root)
        // The trailer's first byte belongs at `position` (its layout pads to even offsets itself).
        switch sink {
        case .memory(var bytes):
            bytes += trailer
            bytes.replaceSubrange(0..<8, with: header)
            sink = .memory([])
            return bytes
        case .file(let file):
            try file.write(trailer, at: position)
            try file.write(header, at: 0)
            try file.commit(synchronize: options.synchronizesFile)
            return []
        }
    }

    /// Converts `count` strips of `rows` starting at row `first` and writes them in order: uncompressed strips one
    /// after another through one reused buffer (packing is cheaper than the memory of a strip set in flight), others
    /// compressed in parallel.
    private func writeStrips(of rows: PixelBuffer, from first: Int, count: Int) throws(CodecError) {
        guard count > 0 else { return }
        let per = rowsPerStrip
        let l = plan
        let w = width
        if !l.deflate {
            let rowBytes = w * l.samplesPerPixel * l.bytesPerSample
            if packed.count < per * rowBytes {
                packed.deallocate()
                packed = .allocate(byteCount: per * rowBytes, alignment: 64)
            }
            for i in 0..<count {
                let y0 = first + i * per
                let n = min(per, rows.height - y0) * rowBytes
                TIFF.pack(
                    rows, x0: 0, y0: y0, width: w, rows: min(per, rows.height - y0), plan: l, into: packed.baseAddress!)
                try place(UnsafeRawBufferPointer(rebasing: packed[0..<n]))
            }
            return
        }
        let chunks = try TIFF.encodeChunks(count: count, plan: l, options: options) { i in
            let y0 = first + i * per
            return TIFF.chunkBytes(rows, x0: 0, y0: y0, width: w, rows: min(per, rows.height - y0), plan: l)
        }
        for chunk in chunks {
            try withBytes(of: chunk) { raw throws(CodecError) in try place(raw) }
        }
    }

    /// Memory uncompressed strips are packed into, reused from strip to strip.
    private var packed = UnsafeMutableRawBufferPointer(start: nil, count: 0)

    /// Writes one strip's bytes at the next (even) position and records where it went.
    private func place(_ chunk: UnsafeRawBufferPointer) throws(CodecError) {
        position += position & 1
        stripOffsets.append(position)
        stripCounts.append(chunk.count)
        switch sink {
        case .memory(var bytes):
            sink = .memory([])
            if bytes.count < position { bytes.append(0) }
            bytes.append(contentsOf: chunk)
            sink = .memory(bytes)
        case .file(let file):
            try file.write(chunk, at: position)
        }
        position += chunk.count
    }

    /// The given row ranges of buffers of one width and format, one after another in a new buffer.
    private static func stacking(_ parts: [(PixelBuffer, Range<Int>)]) -> PixelBuffer {
        let first = parts[0].0
        var out = PixelBuffer(width: first.width, height: parts.reduce(0) { $0 + $1.1.count }, format: first.format)
        out.colorSpace = first.colorSpace
        out.isPremultiplied = first.isPremultiplied
        let rowBytes = first.width * first.format.bytesPerPixel()
        out.withUnsafeMutablePlane { dst in
            var y = 0
            for (buffer, rows) in parts {
                buffer.withUnsafePlane { src in
                    for r in rows {
                        dst.row(y).copyMemory(from: src.row(r), byteCount: rowBytes)
                        y += 1
                    }
                }
            }
        }
        return out
    }
}
