internal import CLuxCodecShims
import LuxColor
import LuxPixels

/// A PNG encoder fed band by band (libpng's writer stays open between bands).
///
/// libpng writes the header, the ancillary chunks and the end; the image data is filtered as libpng would filter it
/// (the best of the five filters per row) and compressed by ``SegmentedDeflate`` on all threads, each band's IDAT
/// chunk written as soon as it is compressed.
final class PNGStreamEncoder {
    let width: Int
    let height: Int
    let colorSpace: ColorSpace?
    let options: EncodingOptions
    /// The format bands are converted to before libpng sees them.
    let rowFormat: PixelFormat
    private var counter: BandCounter
    private var stream: OpaquePointer?
    private var deflate: SegmentedDeflate
    /// Samples per pixel in the file (1 gray, 3 RGB, 4 RGBA) and bits per sample.
    private let fileChannels: Int
    private let bitDepth: Int
    /// The last row written, as prepared (the row above the next band's first, for filtering).
    private var previousRow: [UInt8] = []

    /// The rows written so far.
    var rowsWritten: Int { counter.rowsWritten }

    /// - Parameter writesAlpha: whether RGBA input keeps its alpha; `nil` decides from the options (automatic
    ///   keeps alpha for formats that have it, since a stream cannot look ahead at later bands).
    init(
        width: Int, height: Int, pixelFormat: PixelFormat, colorSpace: ColorSpace?, metadata: ImageMetadata,
        options: EncodingOptions, writesAlpha: Bool? = nil
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
        let filtered = try filter(prepared)
        try writeData(try deflate.append(filtered), to: stream)
        counter.advance(by: band.height)
    }

    /// The band's rows in PNG's layout, each led by its filter type, filtered on all threads.
    private func filter(_ band: PixelBuffer) throws(CodecError) -> [UInt8] {
        let rowBytes = 1 + width * fileChannels * bitDepth / 8
        let rows = band.height
        let inputChannels = Int32(rowFormat.channelCount)
        let (width, fileChannels, bitDepth) = (Int32(width), Int32(fileChannels), Int32(bitDepth))
        let failure = FirstError()
        let filtered = [UInt8](unsafeUninitializedCapacity: rows * rowBytes) { out, count in
            band.withUnsafePlane { plane in
                nonisolated(unsafe) let out = out
                let stride = plane.bytesPerRow
                let base = plane.baseAddress.assumingMemoryBound(to: UInt8.self)
                nonisolated(unsafe) let first = UnsafePointer(base)
                previousRow.withUnsafeBufferPointer { previous in
                    nonisolated(unsafe) let above = previous.baseAddress
                    Parallel.forEachBand(rows, threads: options.threads, minimumBand: 32, bandsPerThread: 2) { r in
                        let status = lux_png_filter_rows(
                            first + r.lowerBound * stride, stride, Int32(r.count),
                            r.lowerBound == 0 ? above : first + (r.lowerBound - 1) * stride, width, inputChannels,
                            fileChannels, bitDepth, out.baseAddress! + r.lowerBound * rowBytes)
                        if status != 0 {
                            failure.record(.library(name: "libc", message: "out of memory filtering PNG rows"))
                        }
                    }
                }
                previousRow = Array(
                    UnsafeRawBufferPointer(start: plane.row(rows - 1), count: Int(width) * band.format.bytesPerPixel()))
            }
            count = rows * rowBytes
        }
        if let error = failure.error { throw error }
        return filtered
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
    func finish() throws(CodecError) -> [UInt8] {
        try counter.finish()
        guard let stream else { throw .invalidArgument("the PNG encoder could not start") }
        try writeData(try deflate.finish(), to: stream)
        var out: UnsafeMutablePointer<UInt8>?
        var size = 0
        try callC("libpng") { message, capacity in lux_png_stream_finish(stream, &out, &size, message, capacity) }
        guard let out else { throw .library(name: "libpng", message: "no output") }
        defer { lux_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: size))
    }
}
