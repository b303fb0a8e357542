public import FoundationEssentials
public import LuxColor
public import LuxPixels

/// Encodes a JPEG, PNG, TIFF or HEIC band by band, so a renderer can write a large picture while holding only a
/// strip of it (libjpeg's encoder stays open between bands and keeps only the compressed output;
/// HEIC keeps one row of 512 × 512 tiles and encodes it when it is complete; PNG's image data and TIFF strips go to
/// the file as soon as they are compressed when the encoder is made with
/// ``init(writingTo:format:width:height:pixelFormat:colorSpace:metadata:options:)``).
///
/// WebP imports each band into libwebp's picture (Y′CbCr or ARGB) as it arrives; AVIF and GIF, whose libraries
/// encode a whole picture, gather the bands and encode them at the end.
///
/// Bands are ``PixelBuffer`` values of the image's width, in any RGB(A) or gray format, top to bottom; each
/// is colour-matched into the output space like a whole image would be. The pixels are identical to those of
/// encoding the whole picture at once.
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
        case tiff(TIFFStreamEncoder)
        case heic(HEIFStreamEncoder)
        case webp(WebPStreamEncoder)
        case whole(WholeImageStreamEncoder)
    }

    /// The format being written.
    public let format: ImageFormat
    /// The image width.
    public let width: Int
    /// The image height.
    public let height: Int
    /// The file this encoder writes as it goes (`nil`: the bytes are kept for ``finish()``).
    public let destination: URL?
    private let backend: Backend
    private let synchronizesFile: Bool
    /// The colour space of the bands, for bands without one (HEIC).
    private let bandSpace: ColorSpace?

    /// The thumbnail a HEIC (reduced to fit 320 pixels) or a JPEG (in IFD1 of its Exif block) stores.
    ///
    /// `nil` (the default) stores one reduced from the bands when ``EncodingOptions/embedsThumbnail`` asks for it (by
    /// default HEIC yes, JPEG no). A JPEG's thumbnail is re-encoded at lower quality, then halved, until the Exif
    /// block fits its 64 KB segment. Set it before ``finish()``; other formats ignore it.
    public var thumbnail: PixelBuffer? {
        get {
            switch backend {
            case .heic(let e): e.thumbnail
            case .jpeg(let e): e.thumbnail
            default: nil
            }
        }
        set {
            switch backend {
            case .heic(let e): e.thumbnail = newValue
            case .jpeg(let e): e.thumbnail = newValue
            default: break
            }
        }
    }

    /// Auxiliary images a HEIC stores (an HDR gain map, a depth map).
    ///
    /// Set them before ``finish()``; other formats ignore them.
    public var auxiliaryImages: [AuxiliaryImage] {
        get { if case .heic(let e) = backend { e.auxiliaryImages } else { [] } }
        set { if case .heic(let e) = backend { e.auxiliaryImages = newValue } }
    }

    /// Starts an image.
    ///
    /// - Parameters:
    ///   - pixelFormat: the format of the bands (decides gray or colour, 8 or 16 bits for PNG, and whether
    ///     PNG alpha is written — a stream cannot check later bands for opacity).
    ///   - colorSpace: the colour space of the bands (a band with its own colour space overrides it).
    /// - Throws: ``CodecError/invalidArgument(_:)`` for DNG or invalid sizes (and tiled TIFF).
    public convenience init(
        format: ImageFormat, width: Int, height: Int, pixelFormat: PixelFormat, colorSpace: ColorSpace?,
        metadata: ImageMetadata = ImageMetadata(), options: EncodingOptions = .default
    ) throws(CodecError) {
        try self.init(
            format: format, destination: nil, width: width, height: height, pixelFormat: pixelFormat,
            colorSpace: colorSpace, metadata: metadata, options: options)
    }

    /// Starts an image that goes to `url`: a temporary file beside it receives TIFF strips and PNG data as they
    /// complete (JPEG output is small and is written at the end) and ``finish()`` renames it into place; if the
    /// encoder is abandoned or fails, the temporary file is removed and `url` is untouched.
    ///
    /// - Parameter format: the format to write (default: from the file name's extension).
    /// - Throws: ``CodecError/invalidArgument(_:)`` for DNG, unknown extensions or invalid sizes;
    ///   ``CodecError/io(path:reason:)`` when the folder cannot be written.
    public convenience init(
        writingTo url: URL, format: ImageFormat? = nil, width: Int, height: Int, pixelFormat: PixelFormat,
        colorSpace: ColorSpace?, metadata: ImageMetadata = ImageMetadata(), options: EncodingOptions = .default
    ) throws(CodecError) {
        guard let chosen = format ?? ImageFormat(fileExtension: url.pathExtension) else {
            throw .invalidArgument("cannot tell the format of \(url.lastPathComponent) from its extension")
        }
        try self.init(
            format: chosen, destination: url, width: width, height: height, pixelFormat: pixelFormat,
            colorSpace: colorSpace, metadata: metadata, options: options)
    }

    private init(
        format: ImageFormat, destination: URL?, width: Int, height: Int, pixelFormat: PixelFormat,
        colorSpace: ColorSpace?, metadata: ImageMetadata, options: EncodingOptions
    ) throws(CodecError) {
        self.format = format
        self.width = width
        self.height = height
        self.destination = destination
        synchronizesFile = options.synchronizesFile
        bandSpace = colorSpace
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
                    options: options, destination: destination))
        case .tiff:
            backend = .tiff(
                try TIFFStreamEncoder(
                    width: width, height: height, pixelFormat: pixelFormat, colorSpace: colorSpace, metadata: metadata,
                    options: options, destination: destination))
        case .heic:
            backend = .heic(
                try HEIFStreamEncoder(
                    width: width, height: height, pixelFormat: pixelFormat, colorSpace: colorSpace, metadata: metadata,
                    options: options))
        case .webp:
            backend = .webp(
                try WebPStreamEncoder(
                    width: width, height: height, pixelFormat: pixelFormat, colorSpace: colorSpace, metadata: metadata,
                    options: options))
        case .avif, .gif:
            backend = .whole(
                try WholeImageStreamEncoder(
                    format: format, width: width, height: height, pixelFormat: pixelFormat, colorSpace: colorSpace,
                    metadata: metadata, options: options))
        case .dng, .cameraRaw:
            throw .invalidArgument(
                "\(format) files are not streamed (write a DNG with ImageFile.write); streaming supports JPEG, PNG, TIFF, HEIC, WebP, AVIF and GIF"
            )
        }
    }

    /// The rows written so far.
    public var rowsWritten: Int {
        switch backend {
        case .jpeg(let e): e.rowsWritten
        case .png(let e): e.rowsWritten
        case .tiff(let e): e.rowsWritten
        case .heic(let e): e.rowsWritten
        case .webp(let e): e.rowsWritten
        case .whole(let e): e.rowsWritten
        }
    }

    /// Encodes the next band of rows.
    ///
    /// - Throws: ``CodecError/invalidArgument(_:)`` for a band of the wrong width or too many rows.
    public func append(_ band: PixelBuffer) throws(CodecError) {
        switch backend {
        case .jpeg(let e): try e.append(band)
        case .png(let e): try e.append(band)
        case .tiff(let e): try e.append(band)
        case .heic(let e): try e.append(band, colorSpace: bandSpace)
        case .webp(let e): try e.append(band)
        case .whole(let e): try e.append(band)
        }
    }

    /// Encodes all of `reader`'s rows straight from the decoder's memory, without rendering them, when that gives
    /// the file ``append(_:)`` would give for the reader's regions.
    ///
    /// That is the case for a JPEG written as a JPEG that stores the reader's colour space:
    /// - from a JPEG read top to bottom (upright, not decoded whole), single-scan Y′CbCr whose chroma sampling is the
    ///   output's (``EncodingOptions/chromaSubsampling``) or 4:4:4, when no thumbnail is reduced from the pixels: its
    ///   raw Y′CbCr planes go to the encoder as they are (4:4:4 chroma downsampled as the encoder downsamples), with no
    ///   colour conversion either way. The file differs from the rendered one only by the rounding of the two
    ///   conversions skipped (a level or two);
    /// - from an 8-bit RGB HEIC (libheif's R, G and B planes; the Exif thumbnail, when one is made, reduced from the
    ///   planes): the planes are converted to Y′CbCr as they are compressed, with no interleaved copy.
    ///
    /// Decoding or converting runs a slot ahead of the compression on a second thread when ``EncodingOptions/threads``
    /// allows, with no render engine in between.
    ///
    /// It is also the case for an uncompressed 8-bit RGB TIFF (in strips, as Pillow and vips write it) written as an
    /// 8-bit RGB TIFF without alpha or compression: the stored rows are read, converted from the reader's colour space
    /// to the output's by table where the spaces differ, and written strip by strip on ``EncodingOptions/threads``
    /// threads, with no RGBA copy. The values are those of a render whose final 8-bit colour match is by table (as
    /// `lux convert --color-space` renders them); ``append(_:)`` matches 8-bit bands in float, which may round a value
    /// the other way.
    ///
    /// Call it before any band.
    ///
    /// - Returns: Whether the rows were written; `false` writes nothing (render the image and append its bands).
    /// - Throws: The encoder's errors.
    public func appendRowsDirectly(from reader: ImageRegionReader) throws(CodecError) -> Bool {
        if case .tiff(let e) = backend {
            guard reader.width == width, reader.height == height, e.acceptsStoredRGB8, reader.hasStoredRGB8Rows else {
                return false
            }
            try e.append(storedRGB8Of: reader)
            return true
        }
        guard case .jpeg(let e) = backend, reader.width == width, reader.height == height, reader.isOpaque,
            e.acceptsDirectRows(in: reader.colorSpace ?? bandSpace)
        else { return false }
        if let window = reader.jpegRows { return try e.append(yCbCrOf: window) }
        return try withExtendedLifetime(reader) { () throws(CodecError) -> Bool in
            guard let planes = reader.planarRGB8 else { return false }
            try e.append(planes: planes)
            return true
        }
    }

    /// Completes the image.
    ///
    /// An encoder with a ``destination`` completes that file (renaming it into place) and returns nothing; otherwise
    /// the result is the file's bytes.
    ///
    /// - Throws: ``CodecError/invalidArgument(_:)`` when rows are missing; ``CodecError/io(path:reason:)``
    ///   when the file cannot be written (the destination is then untouched).
    @discardableResult
    public func finish() throws(CodecError) -> [UInt8] {
        let bytes: [UInt8]
        switch backend {
        case .jpeg(let e): bytes = try e.finish()
        case .png(let e): bytes = try e.finish()
        case .tiff(let e): bytes = try e.finish()
        case .heic(let e): bytes = try e.finish()
        case .webp(let e): bytes = try e.finish()
        case .whole(let e): bytes = try e.finish()
        }
        guard let destination else { return bytes }
        switch backend {
        case .tiff, .png: return []
        default: break
        }
        try FileIO.writeAtomically(bytes, to: destination, synchronize: synchronizesFile)
        return []
    }

    /// Completes the image and writes it atomically to `url` (temporary file, then rename).
    ///
    /// - Throws: ``CodecError/invalidArgument(_:)`` when rows are missing or the encoder already writes to
    ///   another file.
    public func finish(writingTo url: URL) throws(CodecError) {
        if let destination {
            guard destination.standardizedFileURL == url.standardizedFileURL else {
                throw .invalidArgument("this encoder writes to \(destination.path), not \(url.path)")
            }
            try finish()
            return
        }
        try FileIO.writeAtomically(try finish(), to: url, synchronize: synchronizesFile)
    }
}
