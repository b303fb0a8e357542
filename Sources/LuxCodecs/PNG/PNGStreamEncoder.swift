internal import CLuxCodecShims
import FoundationEssentials
import LuxColor
import LuxPixels

/// A PNG encoder fed band by band (libpng's writer stays open between bands).
///
/// libpng writes the header, the ancillary chunks and the end; the image data is filtered as libpng would filter it
/// (the best of the five filters per row) and compressed by ``SegmentedDeflate`` on all threads, each band's IDAT
/// chunk written as soon as it is compressed — to the file, for an encoder given one, so only a chunk of the output
/// is ever in memory.
final class PNGStreamEncoder {
    let width: Int
    let height: Int
    let colorSpace: ColorSpace?
    let options: EncodingOptions
    /// The format bands are converted to before libpng sees them.
    let rowFormat: PixelFormat
    private var counter: BandCounter
    private var stream: OpaquePointer?
    /// The file the bytes go to as they are made (`nil`: kept for ``finish()``).
    private let file: AtomicFile?
    private var deflate: SegmentedDeflate
    /// Samples per pixel in the file (1 gray, 3 RGB, 4 RGBA) and bits per sample.
    private let fileChannels: Int
    private let bitDepth: Int
    /// The last row written, as prepared (the row above the next band's first, for filtering).
    private var previousRow: [UInt8] = []

    /// The rows written so far.
    var rowsWritten: Int { counter.rowsWritten }

    /// - Parameters:
    ///   - writesAlpha: whether RGBA input keeps its alpha; `nil` decides from the options (automatic keeps alpha for
    ///     formats that have it, since a stream cannot look ahead at later bands).
    ///   - destination: the file to write as the bands arrive (through a temporary file beside it, renamed into place
    ///     by ``finish()``), or `nil` to keep the bytes for ``finish()``.
    init(
        width: Int, height: Int, pixelFormat: PixelFormat, colorSpace: ColorSpace?, metadata: ImageMetadata,
        options: EncodingOptions, writesAlpha: Bool? = nil, destination: URL? = nil
    ) throws(CodecError) {
        guard !pixelFormat.isBayer else {
            throw .invalidArgument("a Bayer mosaic cannot be written as PNG; develop it first (or write a DNG)")
        }
        guard width > 0, height > 0, width <= 0x7FFF_FFFF, height <= 0x7FFF_FFFF else {
            throw .invalidArgument("invalid PNG size \(width)×\(height)")
        }
        self.width = width
        self.height = height
        counter = BandCounter(width: width, height: height, name: "PNG")
        self.colorSpace = colorSpace
        self.options = options
        let gray = [.gray8, .gray16, .grayFloat].contains(pixelFormat)
        let sixteen: Bool
        switch options.sampleType {
        case .automatic: sixteen = pixelFormat.componentType != .uint8
        case .uint8: sixteen = false
        case .uint10, .uint16, .float16, .float32: sixteen = true
        }
        rowFormat = gray ? (sixteen ? .gray16 : .gray8) : (sixteen ? .rgba16 : .rgba8)
        let alpha =
            !gray && (writesAlpha ?? (options.alpha == .discard ? false : pixelFormat.hasAlpha))
        let space = IntegerEncoding.outputSpace(for: colorSpace, format: rowFormat, options: options)
        let chunks = try PNG.chunks(metadata: metadata, space: space, options: options)
        fileChannels = gray ? 1 : (alpha ? 4 : 3)
        bitDepth = sixteen ? 16 : 8
        deflate = SegmentedDeflate(level: options.pngCompressionLevel, isFiltered: true, threads: options.threads)
        var params = lux_png_encode_params()
        params.width = Int32(width)
        params.height = Int32(height)
        params.color_type = gray ? 0 : (alpha ? 6 : 2)
        params.bit_depth = Int32(bitDepth)
        var message = [CChar](repeating: 0, count: 512)
        stream = PNG.withChunkArray(chunks) { list in
            message.withUnsafeMutableBufferPointer { m in
                lux_png_stream_create(&params, list.baseAddress, Int32(list.count), m.baseAddress, m.count)
            }
        }
        guard stream != nil else { throw .library(name: "libpng", message: cMessage(message)) }
        file = try destination.map { url throws(CodecError) in try AtomicFile(destination: url) }
        try writeOut()
    }

    /// Moves the bytes libpng has written so far to the file (nothing without one).
    private func writeOut() throws(CodecError) {
        guard let file, let stream else { return }
        var bytes: UnsafePointer<UInt8>?
        let count = lux_png_stream_take(stream, &bytes)
        guard count > 0, let bytes else { return }
        try file.write(UnsafeRawBufferPointer(start: bytes, count: count), at: file.size)
    }

    deinit { lux_png_stream_destroy(stream) }

    private func prepare(_ band: PixelBuffer) throws(CodecError) -> PixelBuffer {
        try IntegerEncoding.prepare(band, format: rowFormat, options: options).0
    }

    /// Writes the next rows (a band `width` pixels wide; its colour space defaults to the stream's).
    func append(_ band: PixelBuffer) throws(CodecError) {
        try counter.check(band)
        guard let stream else { throw .invalidArgument("the PNG encoder could not start") }
        var source = band
        if source.colorSpace == nil { source.colorSpace = colorSpace }
        let prepared = try prepare(source)
        let rowBytes = 1 + width * fileChannels * bitDepth / 8
        // A few deflate segments at a time (two per thread on two cores), so the filtered rows waiting for
        // compression stay small; not a count from the threads, which would change where IDAT chunks end.
        let step = max(1, SegmentedDeflate.segmentSize * 4 / rowBytes)
        var y = 0
        while y < prepared.height {
            let rows = y..<min(prepared.height, y + step)
            let compressed = try deflate.append(count: rows.count * rowBytes) {
                (out: UnsafeMutableBufferPointer<UInt8>) throws(CodecError) in
                try filter(prepared, rows: rows, into: out)
            }
            try writeData(compressed, to: stream)
            try writeOut()
            y = rows.upperBound
        }
        counter.advance(by: band.height)
    }

    /// Writes `rows` of the band in PNG's layout into `out`, one row after another, each led by its filter type.
    ///
    /// Rows are filtered on all threads against the row above them (the last band's last row for the band's first);
    /// the rows of a band are given in order.
    private func filter(_ band: PixelBuffer, rows: Range<Int>, into out: UnsafeMutableBufferPointer<UInt8>)
        throws(CodecError)
    {
        let rowBytes = 1 + width * fileChannels * bitDepth / 8
        let inputChannels = Int32(rowFormat.channelCount)
        let (width, fileChannels, bitDepth) = (Int32(width), Int32(fileChannels), Int32(bitDepth))
        let failure = FirstError()
        band.withUnsafePlane { plane in
            nonisolated(unsafe) let out = out
            let stride = plane.bytesPerRow
            let base = plane.baseAddress.assumingMemoryBound(to: UInt8.self) + rows.lowerBound * stride
            nonisolated(unsafe) let first = UnsafePointer(base)
            previousRow.withUnsafeBufferPointer { previous in
                nonisolated(unsafe) let above = rows.lowerBound == 0 ? previous.baseAddress : first - stride
                Parallel.forEachBand(rows.count, threads: options.threads, minimumBand: 32, bandsPerThread: 2) { r in
                    let status = lux_png_filter_rows(
                        first + r.lowerBound * stride, stride, Int32(r.count),
                        r.lowerBound == 0 ? above : first + (r.lowerBound - 1) * stride, width, inputChannels,
                        fileChannels, bitDepth, out.baseAddress! + r.lowerBound * rowBytes)
                    if status != 0 {
                        failure.record(.library(name: "libc", message: "out of memory filtering PNG rows"))
                    }
                }
            }
            if rows.upperBound == band.height {
                previousRow = Array(
                    UnsafeRawBufferPointer(
                        start: plane.row(band.height - 1), count: Int(width) * band.format.bytesPerPixel()))
            }
        }
        if let error = failure.error { throw error }
    }

    /// Writes compressed image data as an IDAT chunk (nothing when empty).
    private func writeData(_ data: [UInt8], to stream: OpaquePointer) throws(CodecError) {
        guard !data.isEmpty else { return }
        try data.withUnsafeBufferPointer { d throws(CodecError) in
            try callC("libpng") { message, capacity in
                lux_png_stream_write_chunk(stream, "IDAT", d.baseAddress, d.count, message, capacity)
            }
        }
    }

    /// Completes the file.
    ///
    /// Returns the bytes for an encoder without a file, nothing for a file (which is renamed into place).
    func finish() throws(CodecError) -> [UInt8] {
        try counter.finish()
        guard let stream else { throw .invalidArgument("the PNG encoder could not start") }
        try writeData(try deflate.finish(), to: stream)
        try writeOut()
        var out: UnsafeMutablePointer<UInt8>?
        var size = 0
        try callC("libpng") { message, capacity in lux_png_stream_finish(stream, &out, &size, message, capacity) }
        guard let out else { throw .library(name: "libpng", message: "no output") }
        defer { lux_free(out) }
        guard let file else { return Array(UnsafeBufferPointer(start: out, count: size)) }
        try file.write(UnsafeRawBufferPointer(start: out, count: size), at: file.size)
        try file.commit(synchronize: options.synchronizesFile)
        return []
    }
}
