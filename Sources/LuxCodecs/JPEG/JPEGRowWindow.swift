internal import CLuxCodecShims
import LuxPixels
import Synchronization

/// A JPEG decoded top to bottom as regions ask for its rows, holding only a window of recent rows: the region
/// reader's backing for JPEGs, so a streaming render never holds (or zeroes the pages of) the whole image.
///
/// One libjpeg decompressor reads on while requests move down the image. The window holds twice the tallest request
/// (at least 256 rows), so neighbouring strips that overlap by a filter's margin are served from it. A request for
/// rows above the window restarts the decode from the top with a window of the whole image, so a render that reads
/// in another order decodes the file at most twice.
final class JPEGRowWindow: Sendable {
    let width: Int
    let height: Int
    /// `.rgba8`, or `.gray8` for a one-component file.
    let format: PixelFormat
    /// The file's bytes.
    let file: FileContents
    let limits: DecodingLimits
    /// The most bytes libjpeg's own buffers may take.
    let libraryBudget: Int
    private let state: Mutex<State>

    /// Opens the decode of `file` (whose header is `header`), or returns `nil` for a file decoded whole instead:
    /// CMYK, or one whose restart markers let bands decode it on several threads.
    init?(_ file: FileContents, header: JPEGHeader, options: DecodingOptions) throws(CodecError) {
        guard !header.isCMYK else { return nil }
        if options.threads > 1, JPEGRestartBands(file.bytes) != nil { return nil }
        let gray = header.componentCount == 1
        try options.limits.check(
            width: header.width, height: header.height, bytesPerPixel: gray ? 1 : 4, what: "JPEG image")
        self.file = file
        width = header.width
        height = header.height
        format = gray ? .gray8 : .rgba8
        limits = options.limits
        libraryBudget = max(1, options.limits.maxByteCount)
        let rowBytes = width * format.bytesPerPixel()
        state = Mutex(State(rowBytes: rowBytes))
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
            s.reserve(rows: min(max(2 * h, 256), height))
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

    /// Maps libjpeg's message to a typed error.
    func error(_ message: [CChar]) -> CodecError {
        JPEG.decodeError(cMessage(message), dataSize: file.bytes.count, limits: limits, libraryBudget: libraryBudget)
    }

    /// The decompressor and the ring of decoded rows (row `r` in slot `r % capacity`).
    private struct State: ~Copyable, @unchecked Sendable {
        // @unchecked: the pointers are used only under the window's lock.
        var decoder: OpaquePointer?
        var ring: UnsafeMutableRawPointer?
        var capacity = 0
        /// The first row still held, and the next row the decoder gives.
        var top = 0
        var next = 0
        let rowBytes: Int

        init(rowBytes: Int) { self.rowBytes = rowBytes }

        deinit {
            lux_jpeg_rows_close(decoder)
            ring?.deallocate()
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
        mutating func restart(_ window: JPEGRowWindow) throws(CodecError) {
            lux_jpeg_rows_close(decoder)
            decoder = nil
            top = 0
            next = 0
            var message = [CChar](repeating: 0, count: 512)
            let bytes = window.file.bytes
            decoder = message.withUnsafeMutableBufferPointer { m in
                lux_jpeg_rows_open(
                    bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count,
                    Int32(window.format == .gray8 ? LUX_JPEG_OUT_GRAY : LUX_JPEG_OUT_RGBA), Int32(window.width),
                    Int32(window.height), window.libraryBudget, Int32(clamping: window.limits.maxProgressiveScans),
                    m.baseAddress, m.count)
            }
            guard decoder != nil else { throw window.error(message) }
        }

        /// Decodes the next `n` rows into consecutive slots.
        mutating func decode(_ n: Int, _ window: JPEGRowWindow) throws(CodecError) {
            var message = [CChar](repeating: 0, count: 512)
            let into = row(next)
            let status = message.withUnsafeMutableBufferPointer { m in
                lux_jpeg_rows_read(
                    decoder, into.assumingMemoryBound(to: UInt8.self), rowBytes, Int32(n), m.baseAddress, m.count)
            }
            guard status == 0 else { throw window.error(message) }
            next += n
            top = max(top, next - capacity)
        }
    }
}
