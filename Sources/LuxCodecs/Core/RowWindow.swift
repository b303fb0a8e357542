internal import CLuxCodecShims
import LuxPixels
import Synchronization

/// A JPEG or PNG decoded top to bottom as regions ask for its rows, holding only a window of recent rows: the region
/// reader's backing for those files, so a streaming render never holds (or zeroes the pages of) the whole image,
/// and the decode runs beside the work on the rows already given.
///
/// One decoder (libjpeg's or libpng's) reads on while requests move down the image. The window holds at least the
/// tallest request (a quarter more than the first request that did not fit, and at least 256 rows): a streaming render
/// renders its strips one after another, the tiles of a strip asking for rows of one span, so the next strip's rows,
/// which overlap the last span by a filter's margin, are either held or still to come.
/// A request for rows above the window restarts the decode from the top with a window of the whole image, so a
/// render that reads in another order decodes the file at most twice.
final class RowWindow: Sendable {
    /// The decoders a window can run.
    enum Codec: Sendable {
        case jpeg
        case png
    }

    let width: Int
    let height: Int
    /// `.rgba8`, `.gray8`, or for a PNG also `.rgba16` and `.gray16`.
    let format: PixelFormat
    let codec: Codec
    /// The file's bytes.
    let file: FileContents
    let limits: DecodingLimits
    /// The most bytes the decoder's own buffers may take.
    let libraryBudget: Int
    private let state: Mutex<State>

    /// Opens the decode of a JPEG `file` (whose header is `header`), or returns `nil` for a file decoded whole
    /// instead: CMYK, or one whose restart markers let bands decode it on several threads.
    convenience init?(jpeg file: FileContents, header: JPEGHeader, options: DecodingOptions) throws(CodecError) {
        guard !header.isCMYK else { return nil }
        if options.threads > 1, JPEGRestartBands(file.bytes) != nil { return nil }
        let gray = header.componentCount == 1
        try self.init(
            file, codec: .jpeg, width: header.width, height: header.height, format: gray ? .gray8 : .rgba8,
            options: options, what: "JPEG image")
    }

    /// Opens the decode of a PNG `file` (whose header is `header`), or returns `nil` for a file decoded whole
    /// instead: an interlaced one (its passes cover the whole image), or one with alpha (whether every pixel is
    /// opaque is then known only once all are decoded).
    convenience init?(png file: FileContents, header: PNGHeader, options: DecodingOptions) throws(CodecError) {
        guard !header.isInterlaced, !header.hasAlpha else { return nil }
        let sixteen = header.bitDepth == 16
        let format: PixelFormat = header.isGray ? (sixteen ? .gray16 : .gray8) : (sixteen ? .rgba16 : .rgba8)
        try self.init(
            file, codec: .png, width: header.width, height: header.height, format: format, options: options,
            what: "PNG image")
    }

    private init(
        _ file: FileContents, codec: Codec, width: Int, height: Int, format: PixelFormat, options: DecodingOptions,
        what: String
    ) throws(CodecError) {
        try options.limits.check(width: width, height: height, bytesPerPixel: format.bytesPerPixel(), what: what)
        self.file = file
        self.codec = codec
        self.width = width
        self.height = height
        self.format = format
        limits = options.limits
        libraryBudget = max(1, options.limits.maxByteCount)
        state = Mutex(State(rowBytes: width * format.bytesPerPixel()))
        try state.withLock { s throws(CodecError) in try s.restart(self) }
    }

    /// Copies rows `y ..< y + h`, columns `x ..< x + w`, into `destination` (its row 0 receives row `y`).
    func read(x: Int, y: Int, width w: Int, height h: Int, into destination: MutableRawPlane) throws(CodecError) {
        let pixelBytes = format.bytesPerPixel()
        try state.withLock { s throws(CodecError) in
            if y < s.top {
                try s.restart(self)
                s.reserve(rows: height)  // read out of order: keep every row from now on
            }
            // Grown only for a request that does not fit: growing copies the rows held into a second ring, and
            // both are in memory for a moment (a render's first strip, clipped by the image's top edge, asks for
            // fewer rows than the next ones, which still fit in its quarter more).
            if h > s.capacity { s.reserve(rows: min(max(h + h / 4, 256), height)) }
            while s.next < y + h {
                // Up to the end of the ring, never over rows `y ...` still to be copied.
                let slot = s.next % s.capacity
                let n = min(y + h - s.next, s.capacity - slot)
                try s.decode(n, self)
            }
            for r in 0..<h {
                destination.row(r).copyMemory(from: s.row(y + r) + x * pixelBytes, byteCount: w * pixelBytes)
            }
        }
    }

    /// Maps the decoder's message to a typed error.
    func error(_ message: [CChar]) -> CodecError {
        switch codec {
        case .jpeg:
            JPEG.decodeError(
                cMessage(message), dataSize: file.bytes.count, limits: limits, libraryBudget: libraryBudget)
        case .png: PNG.decodeError(cMessage(message), dataSize: file.bytes.count)
        }
    }

    /// The decoder and the ring of decoded rows (row `r` in slot `r % capacity`).
    private struct State: ~Copyable, @unchecked Sendable {
        // @unchecked: the pointers are used only under the window's lock.
        var decoder: Decoder?
        var ring: UnsafeMutableRawPointer?
        var capacity = 0
        /// The first row still held, and the next row the decoder gives.
        var top = 0
        var next = 0
        /// The file's bytes handed back to the kernel (see ``FileContents/releasePages(before:)``).
        var released = 0
        let rowBytes: Int
        /// Bytes read between releases of the file's pages (a multiple of the page size).
        static let releaseStep = 64 << 10

        enum Decoder {
            case jpeg(OpaquePointer)
            case png(OpaquePointer)
        }

        init(rowBytes: Int) { self.rowBytes = rowBytes }

        deinit {
            closeDecoder()
            ring?.deallocate()
        }

        /// Ends the decoder's work, if it has one.
        func closeDecoder() {
            switch decoder {
            case .jpeg(let d): lux_jpeg_rows_close(d)
            case .png(let d): lux_png_rows_close(d)
            case nil: break
            }
        }

        func row(_ y: Int) -> UnsafeMutableRawPointer { ring! + (y % capacity) * rowBytes }

        /// Grows the ring to hold at least `rows` rows, keeping the rows it holds.
        mutating func reserve(rows: Int) {
            guard rows > capacity else { return }
            let grown = UnsafeMutableRawPointer.allocate(byteCount: rows * rowBytes, alignment: 64)
            for y in top..<next { (grown + (y % rows) * rowBytes).copyMemory(from: row(y), byteCount: rowBytes) }
            ring?.deallocate()
            ring = grown
            capacity = rows
        }

        /// Starts decoding again from the first row.
        mutating func restart(_ window: RowWindow) throws(CodecError) {
            closeDecoder()
            decoder = nil
            top = 0
            next = 0
            // Reading the headers may have brought in pages all over the file (a PNG's chunk list): from here on only
            // the decoder's way through it stays mapped in.
            window.file.releasePages(0..<window.file.bytes.count)
            released = 0
            var message = [CChar](repeating: 0, count: 512)
            let bytes = window.file.bytes
            let data = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
            let (w, h) = (Int32(window.width), Int32(window.height))
            decoder = message.withUnsafeMutableBufferPointer { m -> Decoder? in
                switch window.codec {
                case .jpeg:
                    let layout = window.format == .gray8 ? LUX_JPEG_OUT_GRAY : LUX_JPEG_OUT_RGBA
                    return lux_jpeg_rows_open(
                        data, bytes.count, Int32(layout), w, h, window.libraryBudget,
                        Int32(clamping: window.limits.maxProgressiveScans), m.baseAddress, m.count
                    ).map(Decoder.jpeg)
                case .png:
                    let f = window.format
                    return lux_png_rows_open(
                        data, bytes.count, Int32(f.channelCount), Int32(f.componentType == .uint16 ? 16 : 8), w, h,
                        m.baseAddress, m.count
                    ).map(Decoder.png)
                }
            }
            guard decoder != nil else { throw window.error(message) }
        }

        /// Decodes the next `n` rows into consecutive slots.
        mutating func decode(_ n: Int, _ window: RowWindow) throws(CodecError) {
            var message = [CChar](repeating: 0, count: 512)
            let into = row(next).assumingMemoryBound(to: UInt8.self)
            let status = message.withUnsafeMutableBufferPointer { m in
                switch decoder {
                case .jpeg(let d): lux_jpeg_rows_read(d, into, rowBytes, Int32(n), m.baseAddress, m.count)
                case .png(let d): lux_png_rows_read(d, into, rowBytes, Int32(n), m.baseAddress, m.count)
                case nil: Int32(-1)
                }
            }
            guard status == 0 else { throw window.error(message) }
            next += n
            top = max(top, next - capacity)
            // The file's bytes the decoder has read lie behind it: only the decoder's way forward stays mapped in.
            let remaining =
                switch decoder {
                case .jpeg(let d): lux_jpeg_rows_remaining(d)
                case .png(let d): lux_png_rows_remaining(d)
                case nil: window.file.bytes.count
                }
            let read = window.file.bytes.count - remaining
            if read - released >= Self.releaseStep {
                window.file.releasePages(released / Self.releaseStep * Self.releaseStep..<read)
                released = read
            }
        }
    }
}
