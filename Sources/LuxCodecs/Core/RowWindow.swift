internal import CLuxCodecShims
import LuxPixels
import Synchronization

/// An image decoded top to bottom as regions ask for its rows, holding only a window of recent rows: the region
/// reader's backing for JPEGs and non-interlaced PNGs, so a streaming render never holds (or zeroes the pages of) the
/// whole image.
///
/// One libjpeg or libpng decoder reads on while requests move down the image. The window holds twice the tallest
/// request (at least 256 rows), so neighbouring strips that overlap by a filter's margin are served from it. A
/// request for rows above the window restarts the decode from the top with a window of the whole image, so a render
/// that reads in another order decodes the file at most twice.
final class RowWindow: Sendable {
    /// The library that decodes the rows, and the layout it gives.
    enum Decoder: Sendable {
        /// libjpeg-turbo, to RGBA or gray.
        case jpeg
        /// libjpeg-turbo to C, M, Y, K samples (YCCK converted), turned into sRGB RGBA as each band of rows arrives.
        case jpegCMYK(ProfileConversion.CMYKConversion)
        /// libpng with the transformations of ``PNG`` (palettes and low depths expanded, samples in host order).
        case png

        /// The file format the library reads.
        var fileFormat: ImageFormat {
            if case .png = self { return .png }
            return .jpeg
        }
    }

    let width: Int
    let height: Int
    /// `.rgba8` or `.gray8` (a JPEG; `.rgba8` from CMYK), or one of `.rgba8`, `.rgba16`, `.gray8`, `.gray16` (a PNG).
    let format: PixelFormat
    let decoder: Decoder
    private let file: FileContents
    private let limits: DecodingLimits
    private let libraryBudget: Int
    private let threads: Int
    private let state: Mutex<State>

    /// Opens the decode of `file` by `decoder` into `format`; the size and format come from the file's header, and
    /// `limits` are checked before anything is allocated.
    init(
        _ file: FileContents, decoder: Decoder, width: Int, height: Int, format: PixelFormat, options: DecodingOptions
    ) throws(CodecError) {
        try options.limits.check(
            width: width, height: height, bytesPerPixel: format.bytesPerPixel(),
            what: decoder.fileFormat == .png ? "PNG image" : "JPEG image")
        self.file = file
        self.decoder = decoder
        self.width = width
        self.height = height
        self.format = format
        limits = options.limits
        libraryBudget = max(1, options.limits.maxByteCount)
        threads = options.threads
        state = Mutex(State(decoder: decoder, rowBytes: width * format.bytesPerPixel()))
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

    /// Maps the library's message to a typed error.
    fileprivate func error(_ message: [CChar]) -> CodecError {
        switch decoder {
        case .jpeg, .jpegCMYK:
            JPEG.decodeError(
                cMessage(message), dataSize: file.bytes.count, limits: limits, libraryBudget: libraryBudget)
        case .png: PNG.decodeError(cMessage(message), dataSize: file.bytes.count)
        }
    }

    /// The decoder and the ring of decoded rows (row `r` in slot `r % capacity`).
    private struct State: ~Copyable, @unchecked Sendable {
        // @unchecked: the pointers are used only under the window's lock.
        let kind: Decoder
        var decoder: OpaquePointer?
        var ring: UnsafeMutableRawPointer?
        var capacity = 0
        /// CMYK samples of the band being decoded, before their conversion into the ring.
        var samples: UnsafeMutableRawPointer?
        var sampleRows = 0
        /// The first row still held, and the next row the decoder gives.
        var top = 0
        var next = 0
        let rowBytes: Int

        init(decoder: Decoder, rowBytes: Int) {
            kind = decoder
            self.rowBytes = rowBytes
        }

        deinit {
            close()
            ring?.deallocate()
            samples?.deallocate()
        }

        func close() {
            switch kind {
            case .jpeg, .jpegCMYK: lux_jpeg_rows_close(decoder)
            case .png: lux_png_rows_close(decoder)
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
            close()
            decoder = nil
            top = 0
            next = 0
            var message = [CChar](repeating: 0, count: 512)
            let bytes = window.file.bytes
            let data = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
            let format = window.format
            let rowBytes = rowBytes
            decoder = message.withUnsafeMutableBufferPointer { m in
                switch kind {
                case .jpeg, .jpegCMYK:
                    lux_jpeg_rows_open(
                        data, bytes.count, Int32(layout(format)),
                        Int32(window.width), Int32(window.height), window.libraryBudget,
                        Int32(clamping: window.limits.maxProgressiveScans), m.baseAddress, m.count)
                case .png:
                    lux_png_rows_open(
                        data, bytes.count, Int32(format.channelCount), format == .gray16 || format == .rgba16 ? 16 : 8,
                        rowBytes, Int32(window.width), Int32(window.height), m.baseAddress, m.count)
                }
            }
            guard decoder != nil else { throw window.error(message) }
        }

        /// libjpeg's output layout for `format`.
        private func layout(_ format: PixelFormat) -> Int {
            if case .jpegCMYK = kind { return Int(LUX_JPEG_OUT_CMYK) }
            return Int(format == .gray8 ? LUX_JPEG_OUT_GRAY : LUX_JPEG_OUT_RGBA)
        }

        /// Decodes the next `n` rows into consecutive slots.
        mutating func decode(_ n: Int, _ window: RowWindow) throws(CodecError) {
            var message = [CChar](repeating: 0, count: 512)
            let slots = row(next)
            if case .jpegCMYK = kind, n > sampleRows {
                samples?.deallocate()
                samples = UnsafeMutableRawPointer.allocate(byteCount: n * rowBytes, alignment: 64)
                sampleRows = n
            }
            let into: UnsafeMutableRawPointer
            if case .jpegCMYK = kind { into = samples! } else { into = slots }
            let status = message.withUnsafeMutableBufferPointer { m in
                let pixels = into.assumingMemoryBound(to: UInt8.self)
                return switch kind {
                case .jpeg, .jpegCMYK: lux_jpeg_rows_read(decoder, pixels, rowBytes, Int32(n), m.baseAddress, m.count)
                case .png: lux_png_rows_read(decoder, pixels, rowBytes, Int32(n), m.baseAddress, m.count)
                }
            }
            guard status == 0 else { throw window.error(message) }
            if case .jpegCMYK(let conversion) = kind {
                conversion.convert(
                    MutableRawPlane(baseAddress: into, bytesPerRow: rowBytes, width: window.width, height: n),
                    into: MutableRawPlane(baseAddress: slots, bytesPerRow: rowBytes, width: window.width, height: n),
                    threads: window.threads)
            }
            next += n
            top = max(top, next - capacity)
        }
    }
}
