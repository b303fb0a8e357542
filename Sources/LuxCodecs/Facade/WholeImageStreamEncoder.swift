import LuxColor
import LuxPixels

/// The stream encoder of formats whose libraries encode a whole picture at once (WebP, AVIF, GIF): the bands are
/// gathered into one buffer, which is encoded when the last arrives.
final class WholeImageStreamEncoder {
    let format: ImageFormat
    private var picture: PixelBuffer
    private let metadata: ImageMetadata
    private let options: EncodingOptions
    private var counter: BandCounter

    /// The rows written so far.
    var rowsWritten: Int { counter.rowsWritten }

    init(
        format: ImageFormat, width: Int, height: Int, pixelFormat: PixelFormat, colorSpace: ColorSpace?,
        metadata: ImageMetadata, options: EncodingOptions
    ) throws(CodecError) {
        guard width > 0, height > 0 else { throw .invalidArgument("invalid \(format) size \(width)×\(height)") }
        guard !pixelFormat.isBayer else {
            throw .invalidArgument("a Bayer mosaic cannot be written as \(format); develop it first (or write a DNG)")
        }
        self.format = format
        picture = PixelBuffer(width: width, height: height, format: pixelFormat, colorSpace: colorSpace)
        self.metadata = metadata
        self.options = options
        counter = BandCounter(width: width, height: height, name: format.description)
    }

    /// Copies the next band into the picture (converted to its format and colour space).
    func append(_ band: PixelBuffer) throws(CodecError) {
        try counter.check(band)
        let source = try band.preparedForStreaming(
            in: picture.colorSpace, format: picture.format, threads: options.threads)
        let rowBytes = picture.width * picture.format.bytesPerPixel()
        let top = counter.rowsWritten
        picture.withUnsafeMutablePlane { destination in
            source.withUnsafePlane { s in
                for y in 0..<s.height { destination.row(top + y).copyMemory(from: s.row(y), byteCount: rowBytes) }
            }
        }
        counter.advance(by: band.height)
    }

    /// Encodes the picture.
    func finish() throws(CodecError) -> [UInt8] {
        try counter.finish()
        return try ImageFile(pixels: picture, metadata: metadata, format: format).encoded(options: options)
    }
}
