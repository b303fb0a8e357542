internal import CLuxCodecShims
import LuxColor
import LuxPixels

/// A JPEG encoder fed band by band: libjpeg's compressor stays open between bands, so the whole picture is
/// never held in memory (only the compressed output).
final class JPEGStreamEncoder {
    let width: Int
    let height: Int
    let gray: Bool
    let colorSpace: ColorSpace?
    let options: EncodingOptions
    private(set) var rowsWritten = 0
    private var stream: OpaquePointer?
    private var finished = false

    init(
        width: Int, height: Int, pixelFormat: PixelFormat, colorSpace: ColorSpace?, metadata: ImageMetadata,
        options: EncodingOptions
    ) throws(CodecError) {
        guard !pixelFormat.isBayer else {
            throw .invalidArgument("a Bayer mosaic cannot be written as JPEG; develop it first (or write a DNG)")
        }
        guard (1...65535).contains(width), (1...65535).contains(height) else {
            throw .invalidArgument("JPEG images are 1…65535 pixels wide and high, not \(width)×\(height)")
        }
        self.width = width
        self.height = height
        self.gray = [.gray8, .gray16, .grayFloat].contains(pixelFormat)
        self.colorSpace = colorSpace
        self.options = options
        let space = JPEG.outputSpace(for: colorSpace, gray: gray, options: options)
        let markers = try JPEG.markers(metadata: metadata, width: width, height: height, gray: gray, space: space, options: options)
        var params = lux_jpeg_encode_params()
        params.width = Int32(width)
        params.height = Int32(height)
        params.input_components = gray ? 1 : 4
        params.quality = Int32(max(1, min(100, (options.quality * 100).rounded())))
        switch options.chromaSubsampling {
        case .none: (params.chroma_h, params.chroma_v) = (1, 1)
        case .horizontal: (params.chroma_h, params.chroma_v) = (2, 1)
        case .both: (params.chroma_h, params.chroma_v) = (2, 2)
        }
        params.optimize_coding = options.optimizesHuffmanTables ? 1 : 0
        params.progressive = options.isProgressive ? 1 : 0
        params.write_jfif = markers.contains { $0.0 == 0xE1 } ? 0 : 1
        var message = [CChar](repeating: 0, count: 512)
        let payloads = markers.map { $0.1 }
        stream = JPEG.withMarkerArray(markers: markers, payloads: payloads) { list in
            message.withUnsafeMutableBufferPointer { m in
                lux_jpeg_stream_create(&params, list.baseAddress, Int32(list.count), m.baseAddress, m.count)
            }
        }
        guard stream != nil else { throw .library(name: "libjpeg", message: cMessage(message)) }
    }

    deinit { lux_jpeg_stream_destroy(stream) }

    /// Compresses the next rows (a band `width` pixels wide; its colour space defaults to the stream's).
    func append(_ band: PixelBuffer) throws(CodecError) {
        guard let stream, !finished else { throw .invalidArgument("the JPEG encoder has already finished") }
        guard band.width == width else {
            throw .invalidArgument("a band of width \(band.width) does not fit a \(width)-pixel-wide image")
        }
        guard rowsWritten + band.height <= height else {
            throw .invalidArgument("\(rowsWritten + band.height) rows exceed the image height \(height)")
        }
        var source = band
        if source.colorSpace == nil { source.colorSpace = colorSpace }
        let (prepared, _) = try JPEG.prepare(source, gray: gray, options: options)
        var message = [CChar](repeating: 0, count: 512)
        let status = prepared.withUnsafePlane { plane in
            message.withUnsafeMutableBufferPointer { m in
                lux_jpeg_stream_write(
                    stream, plane.baseAddress.assumingMemoryBound(to: UInt8.self), plane.bytesPerRow, Int32(prepared.height),
                    m.baseAddress, m.count)
            }
        }
        guard status == 0 else { throw .library(name: "libjpeg", message: cMessage(message)) }
        rowsWritten += band.height
    }

    /// Completes the file.
    func finish() throws(CodecError) -> [UInt8] {
        guard let stream, !finished else { throw .invalidArgument("the JPEG encoder has already finished") }
        guard rowsWritten == height else {
            throw .invalidArgument("only \(rowsWritten) of \(height) rows were written")
        }
        var message = [CChar](repeating: 0, count: 512)
        var out: UnsafeMutablePointer<UInt8>?
        var size = 0
        let status = message.withUnsafeMutableBufferPointer { m in lux_jpeg_stream_finish(stream, &out, &size, m.baseAddress, m.count) }
        finished = true
        guard status == 0, let out else { throw .library(name: "libjpeg", message: cMessage(message)) }
        defer { lux_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: size))
    }
}
