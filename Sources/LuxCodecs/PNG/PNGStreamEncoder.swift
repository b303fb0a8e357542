internal import CLuxCodecShims
import LuxColor
import LuxPixels

/// A PNG encoder fed band by band (libpng's writer stays open between bands).
final class PNGStreamEncoder {
    let width: Int
    let height: Int
    let colorSpace: ColorSpace?
    let options: EncodingOptions
    /// The format bands are converted to before libpng sees them.
    let rowFormat: PixelFormat
    private var counter: BandCounter
    private var stream: OpaquePointer?

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
        var params = lux_png_encode_params()
        params.width = Int32(width)
        params.height = Int32(height)
        params.color_type = gray ? 0 : (alpha ? 6 : 2)
        params.bit_depth = sixteen ? 16 : 8
        params.compression_level = Int32(max(0, min(9, options.pngCompressionLevel)))
        params.input_channels = gray ? 1 : 4
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
        try prepared.withUnsafePlane { plane throws(CodecError) in
            try callC("libpng") { message, capacity in
                lux_png_stream_write(
                    stream, plane.baseAddress.assumingMemoryBound(to: UInt8.self), plane.bytesPerRow,
                    Int32(prepared.height),
                    message, capacity)
            }
        }
        counter.advance(by: band.height)
    }

    /// Completes the file.
    func finish() throws(CodecError) -> [UInt8] {
        try counter.finish()
        guard let stream else { throw .invalidArgument("the PNG encoder could not start") }
        var out: UnsafeMutablePointer<UInt8>?
        var size = 0
        try callC("libpng") { message, capacity in lux_png_stream_finish(stream, &out, &size, message, capacity) }
        guard let out else { throw .library(name: "libpng", message: "no output") }
        defer { lux_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: size))
    }
}
