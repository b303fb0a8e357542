internal import CLuxCodecShims
import LuxColor
import LuxPixels

/// A JPEG encoder fed band by band: libjpeg's compressor stays open between bands, so the whole picture is
/// never held in memory (only the compressed output).
///
/// A thumbnail (given, or reduced from the bands when ``EncodingOptions/embedsThumbnail`` is on) goes into IFD1 of
/// the Exif block, which ``finish()`` rewrites once the thumbnail is known.
final class JPEGStreamEncoder {
    let width: Int
    let height: Int
    let gray: Bool
    let colorSpace: ColorSpace?
    let options: EncodingOptions
    /// A thumbnail to store in the Exif block instead of the one reduced from the image.
    var thumbnail: PixelBuffer?
    /// The Exif the file carries (completed for this image), rewritten with the thumbnail.
    private let exif: EXIF
    /// The colour space of the file's pixels (and its thumbnail's).
    private let space: ColorSpace?
    private var reduction: ThumbnailReduction?
    private var counter: BandCounter
    private var stream: OpaquePointer?

    /// The rows written so far.
    var rowsWritten: Int { counter.rowsWritten }

    /// Starts a JPEG; a `bare` one has no marker segments beyond the picture's own (an Exif thumbnail).
    init(
        width: Int, height: Int, pixelFormat: PixelFormat, colorSpace: ColorSpace?, metadata: ImageMetadata,
        options: EncodingOptions, bare: Bool = false
    ) throws(CodecError) {
        guard !pixelFormat.isBayer else {
            throw .invalidArgument("a Bayer mosaic cannot be written as JPEG; develop it first (or write a DNG)")
        }
        guard (1...65535).contains(width), (1...65535).contains(height) else {
            throw .invalidArgument("JPEG images are 1…65535 pixels wide and high, not \(width)×\(height)")
        }
        self.width = width
        self.height = height
        counter = BandCounter(width: width, height: height, name: "JPEG")
        self.gray = JPEG.isGray(pixelFormat)
        self.colorSpace = colorSpace
        self.options = options
        let space = JPEG.outputSpace(for: colorSpace, gray: gray, options: options)
        self.space = space
        exif = metadata.exif.completedForImage(
            width: width, height: height, isWideGamut: !(space?.isColorimetricallyEqual(to: .sRGB) ?? true),
            isYCbCr: !gray)
        let markers =
            bare
            ? []
            : try JPEG.markers(
                metadata: metadata, width: width, height: height, gray: gray, space: space, options: options)
        if options.embedsThumbnail == true, !gray, !bare, max(width, height) > JPEGExifThumbnail.side {
            reduction = ThumbnailReduction(width: width, height: height, side: JPEGExifThumbnail.side)
        }
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
        params.write_jfif = bare || markers.contains { $0.0 == 0xE1 } ? 0 : 1
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

    private func prepare(_ band: PixelBuffer) throws(CodecError) -> PixelBuffer {
        try JPEG.prepare(band, gray: gray, options: options).0
    }

    /// Writes the next rows (a band `width` pixels wide; its colour space defaults to the stream's).
    func append(_ band: PixelBuffer) throws(CodecError) {
        try counter.check(band)
        guard let stream else { throw .invalidArgument("the JPEG encoder could not start") }
        var source = band
        if source.colorSpace == nil { source.colorSpace = colorSpace }
        let prepared = try prepare(source)
        reduction?.add(prepared)
        try prepared.withUnsafePlane { plane throws(CodecError) in
            try write(
                stream, plane.baseAddress.assumingMemoryBound(to: UInt8.self), stride: plane.bytesPerRow,
                rows: prepared.height)
        }
        counter.advance(by: band.height)
    }

    /// Whether ``append(planes:)`` or ``append(yCbCrOf:)`` can take the whole picture from a decoder's memory
    /// holding values of `space`: a colour stream with no rows written yet, whose file stores values of that space.
    func acceptsDirectRows(in space: ColorSpace?) -> Bool {
        guard !gray, counter.rowsWritten == 0, stream.map({ lux_jpeg_stream_group_rows($0) > 0 }) == true
        else { return false }
        guard let space, let target = self.space else { return true }
        return space.isColorimetricallyEqual(to: target) && !space.isExtendedRange
    }

    /// Writes the whole picture from 8-bit R, G and B planes (``acceptsDirectRows(in:)`` must hold): they are converted
    /// to Y′CbCr straight from the planes, as ``append(_:)`` would convert the same values interleaved.
    func append(planes: PlanarRGB8) throws(CodecError) {
        guard let stream, planes.width == width, planes.height == height else {
            throw .invalidArgument("the planes are not the JPEG's \(width)×\(height) picture")
        }
        try JPEGEncodePipeline(stream: stream, rows: height, isConcurrent: options.threads > 1) { slot, first, count in
            // The slots are converted one after another (never two at once), so the reduction is touched by one
            // thread at a time.
            self.reduction?.add(planes: planes, rows: first..<(first + count))
            let rows = [planes.red, planes.green, planes.blue].map { Optional($0.base + first * $0.stride) }
            let strides = [planes.red.stride, planes.green.stride, planes.blue.stride]
            return JPEGEncodePipeline.converted(
                lux_jpeg_stream_convert_planes(stream, slot, rows, strides, Int32(count)))
        }.run()
        counter.advance(by: height)
    }

    /// Writes the whole picture from the raw Y′CbCr planes of the JPEG that `window` reads, when it can.
    ///
    /// It can when the planes go to the encoder unconverted (see ``JPEGYCbCrSource``) and no thumbnail is reduced
    /// from the pixels; the caller has checked that the file stores the window's colour space
    /// (``acceptsDirectRows(in:)``). Decoding runs on a second thread, a slot ahead of the compression, when
    /// ``EncodingOptions/threads`` allows.
    ///
    /// - Returns: Whether the rows were written; `false` writes nothing.
    func append(yCbCrOf window: RowWindow) throws(CodecError) -> Bool {
        guard let stream, reduction == nil, counter.rowsWritten == 0, window.width == width, window.height == height,
            let source = try JPEGYCbCrSource(window, stream: stream)
        else { return false }
        try JPEGEncodePipeline(stream: stream, rows: height, isConcurrent: options.threads > 1) { slot, first, count in
            source.read(into: stream, slot: slot, first: first, count: count)
        }.run()
        counter.advance(by: height)
        return true
    }

    /// Compresses `rows` RGBA or gray rows.
    ///
    /// With more than one thread, the whole iMCU rows of a colour band are converted to Y′CbCr a slot ahead on a second
    /// thread while libjpeg compresses the slot before.
    private func write(_ stream: OpaquePointer, _ pixels: UnsafePointer<UInt8>, stride: Int, rows: Int)
        throws(CodecError)
    {
        let group = Int(lux_jpeg_stream_group_rows(stream))
        var done = 0
        if group > 0, options.threads > 1 {
            // Complete the iMCU row an earlier band left pending, then pipeline the whole iMCU rows.
            done = min(rows, (group - Int(lux_jpeg_stream_pending_rows(stream))) % group)
            try callC("libjpeg") { lux_jpeg_stream_write(stream, pixels, stride, Int32(done), $0, $1) }
            let whole = (rows - done) / group * group
            let start = pixels + done * stride
            try JPEGEncodePipeline(stream: stream, rows: whole, isConcurrent: true) { slot, first, count in
                JPEGEncodePipeline.converted(
                    lux_jpeg_stream_convert(stream, slot, start + first * stride, stride, Int32(count)))
            }.run()
            done += whole
        }
        let rest = rows - done
        try callC("libjpeg") { lux_jpeg_stream_write(stream, pixels + done * stride, stride, Int32(rest), $0, $1) }
    }

    /// Completes the file.
    func finish() throws(CodecError) -> [UInt8] {
        try counter.finish()
        guard let stream else { throw .invalidArgument("the JPEG encoder could not start") }
        var out: UnsafeMutablePointer<UInt8>?
        var size = 0
        try callC("libjpeg") { message, capacity in lux_jpeg_stream_finish(stream, &out, &size, message, capacity) }
        guard let out else { throw .library(name: "libjpeg", message: "no output") }
        defer { lux_free(out) }
        let bytes = Array(UnsafeBufferPointer(start: out, count: size))
        guard let picture = try preparedThumbnail() else { return bytes }
        let payload = try JPEGExifThumbnail.exifPayload(exif, thumbnail: picture)
        return try JPEGExifThumbnail.replacingExif(in: bytes, with: payload)
    }

    /// The thumbnail to store (`.rgba8` in the file's colour space), if any.
    private func preparedThumbnail() throws(CodecError) -> PixelBuffer? {
        guard !gray else { return nil }
        guard var given = thumbnail else { return reduction?.result(format: .rgba8) }
        if given.colorSpace == nil { given.colorSpace = colorSpace }
        var thumbnailOptions = options
        thumbnailOptions.colorSpace = space
        thumbnailOptions.optimizesColorForSharing = false
        return try JPEG.prepare(given, gray: false, options: thumbnailOptions).0
    }
}
