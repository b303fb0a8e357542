import FoundationEssentials
import LuxColor
import LuxPixels

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

    /// Converts `count` strips of `rows` starting at row `first` in parallel and writes them in order.
    private func writeStrips(of rows: PixelBuffer, from first: Int, count: Int) throws(CodecError) {
        guard count > 0 else { return }
        let per = rowsPerStrip
        let l = plan
        let w = width
        let chunks = try TIFF.encodeChunks(count: count, plan: l, options: options) { i in
            let y0 = first + i * per
            return TIFF.chunkBytes(rows, x0: 0, y0: y0, width: w, rows: min(per, rows.height - y0), plan: l)
        }
        for chunk in chunks {
            position += position & 1
            stripOffsets.append(position)
            stripCounts.append(chunk.count)
            switch sink {
            case .memory(var bytes):
                sink = .memory([])
                if bytes.count < position { bytes.append(0) }
                bytes += chunk
                sink = .memory(bytes)
            case .file(let file):
                try file.write(chunk, at: position)
            }
            position += chunk.count
        }
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
