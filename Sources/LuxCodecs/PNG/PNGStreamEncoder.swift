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
    private(set) var rowsWritten = 0
    private var stream: OpaquePointer?
    private var finished = false

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
        self.colorSpace = colorSpace
        self.options = options
        let gray = [.gray8, .gray16, .grayFloat].contains(pixelFormat)
        let sixteen: Bool
        switch options.sampleType {
        case .automatic: sixteen = pixelFormat.componentType != .uint8
        case .uint8: sixteen = false
        case .uint16, .float16, .float32: sixteen = true
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

    /// Writes the next rows (a band `width` pixels wide; its colour space defaults to the stream's).
    func append(_ band: PixelBuffer) throws(CodecError) {
        guard let stream, !finished else { throw .invalidArgument("the PNG encoder has already finished") }
        guard band.width == width else {
            throw .invalidArgument("a band of width \(band.width) does not fit a \(width)-pixel-wide image")
        }
        guard rowsWritten + band.height <= height else {
            throw .invalidArgument("\(rowsWritten + band.height) rows exceed the image height \(height)")
        }
        var source = band
        if source.colorSpace == nil { source.colorSpace = colorSpace }
        let (prepared, _) = try IntegerEncoding.prepare(source, format: rowFormat, options: options)
        var message = [CChar](repeating: 0, count: 512)
        let status = prepared.withUnsafePlane { plane in
            message.withUnsafeMutableBufferPointer { m in
                lux_png_stream_write(
                    stream, plane.baseAddress.assumingMemoryBound(to: UInt8.self), plane.bytesPerRow, Int32(prepared.height),
                    m.baseAddress, m.count)
            }
        }
        guard status == 0 else { throw .library(name: "libpng", message: cMessage(message)) }
        rowsWritten += band.height
    }

    /// Completes the file.
    func finish() throws(CodecError) -> [UInt8] {
        guard let stream, !finished else { throw .invalidArgument("the PNG encoder has already finished") }
        guard rowsWritten == height else { throw .invalidArgument("only \(rowsWritten) of \(height) rows were written") }
        var message = [CChar](repeating: 0, count: 512)
        var out: UnsafeMutablePointer<UInt8>?
        var size = 0
        let status = message.withUnsafeMutableBufferPointer { m in lux_png_stream_finish(stream, &out, &size, m.baseAddress, m.count) }
        finished = true
        guard status == 0, let out else { throw .library(name: "libpng", message: cMessage(message)) }
        defer { lux_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: size))
    }
}
