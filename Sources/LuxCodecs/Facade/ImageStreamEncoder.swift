public import FoundationEssentials
public import LuxColor
public import LuxPixels

/// Encodes a JPEG or PNG band by band, so a renderer can write a large picture while holding only a strip
/// of it (libjpeg's and libpng's encoders stay open between bands; only the compressed output is kept).
///
/// Bands are ``PixelBuffer`` values of the image's width, in any RGB(A) or gray format, top to bottom; each
/// is colour-matched into the output space like a whole image would be. The result is identical to encoding
/// the whole picture at once.
///
/// ```swift
/// let encoder = try ImageStreamEncoder(format: .jpeg, width: 8064, height: 6048, pixelFormat: .rgbaHalf,
///                                      colorSpace: .extendedLinearDisplayP3, options: .init(quality: 0.9))
/// for band in renderedBands { try encoder.append(band) }
/// try encoder.finish(writingTo: URL(fileURLWithPath: "big.jpg"))
/// ```
public final class ImageStreamEncoder {
    private enum Backend {
        case jpeg(JPEGStreamEncoder)
        case png(PNGStreamEncoder)
    }

    /// The format being written.
    public let format: ImageFormat
    /// The image width.
    public let width: Int
    /// The image height.
    public let height: Int
    private let backend: Backend
    private let synchronizesFile: Bool

    /// Starts an image.
    ///
    /// - Parameters:
    ///   - pixelFormat: the format of the bands (decides gray or colour, 8 or 16 bits for PNG, and whether
    ///     PNG alpha is written — a stream cannot check later bands for opacity).
    ///   - colorSpace: the colour space of the bands (a band with its own colour space overrides it).
    /// - Throws: ``CodecError/invalidArgument(_:)`` for formats other than JPEG and PNG or invalid sizes.
    public init(
        format: ImageFormat, width: Int, height: Int, pixelFormat: PixelFormat, colorSpace: ColorSpace?,
        metadata: ImageMetadata = ImageMetadata(), options: EncodingOptions = .default
    ) throws(CodecError) {
        self.format = format
        self.width = width
        self.height = height
        synchronizesFile = options.synchronizesFile
        switch format {
        case .jpeg:
            backend = .jpeg(
                try JPEGStreamEncoder(
                    width: width, height: height, pixelFormat: pixelFormat, colorSpace: colorSpace, metadata: metadata,
                    options: options))
        case .png:
            backend = .png(
                try PNGStreamEncoder(
                    width: width, height: height, pixelFormat: pixelFormat, colorSpace: colorSpace, metadata: metadata,
                    options: options))
        case .tiff, .dng:
            throw .invalidArgument("\(format) files are written whole (ImageFile.write); streaming supports JPEG and PNG")
        }
    }

    /// The rows written so far.
    public var rowsWritten: Int {
        switch backend {
        case .jpeg(let e): e.rowsWritten
        case .png(let e): e.rowsWritten
        }
    }

    /// Encodes the next band of rows.
    ///
    /// - Throws: ``CodecError/invalidArgument(_:)`` for a band of the wrong width or too many rows.
    public func append(_ band: PixelBuffer) throws(CodecError) {
        switch backend {
        case .jpeg(let e): try e.append(band)
        case .png(let e): try e.append(band)
        }
    }

    /// Completes the image and returns the file's bytes.
    ///
    /// - Throws: ``CodecError/invalidArgument(_:)`` when rows are missing.
    public func finish() throws(CodecError) -> [UInt8] {
        switch backend {
        case .jpeg(let e): try e.finish()
        case .png(let e): try e.finish()
        }
    }

    /// Completes the image and writes it atomically to `url` (temporary file, then rename).
    public func finish(writingTo url: URL) throws(CodecError) {
        try FileIO.writeAtomically(try finish(), to: url, synchronize: synchronizesFile)
    }
}
