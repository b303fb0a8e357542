internal import CLuxKernels
internal import CWebP
import LuxColor
import LuxPixels

/// WebP's encoder fed band by band: each band is prepared as the whole picture would be (colour-matched, 8-bit
/// RGBA) and imported into libwebp's picture as it arrives — Y′CbCr 4:2:0 (with an alpha plane) for lossy files,
/// ARGB for lossless ones — so no RGBA copy of the whole image is kept and the import overlaps the render.
///
/// libwebp converts RGB to Y′CbCr by pairs of rows, each pair on its own, so importing pairs of rows band by band
/// gives the planes of importing the whole picture at once; a band with an odd number of rows leaves its last row
/// waiting for the next band. The file equals ``WebP/encode(_:metadata:options:)``'s of the whole picture.
final class WebPStreamEncoder {
    private var picture = WebPPicture()
    private var counter: BandCounter
    /// The colour space of the bands (bands without one are taken to be in it).
    private let bandSpace: ColorSpace?
    /// The format bands are converted to first, as the whole-picture path stores them.
    private let bandFormat: PixelFormat
    private let metadata: ImageMetadata
    private let options: EncodingOptions
    /// The colour space of the encoded values (from the first band's preparation).
    private var encodedSpace: ColorSpace?
    /// Whether any imported row had alpha below opaque (lossy: the alpha plane is dropped otherwise).
    private var hasTransparency = false
    /// An 8-bit RGBA row waiting for the next band to make a pair, and whether it is imported with alpha.
    private var waiting: (row: PixelBuffer, alpha: Bool)?
    private var rowsImported = 0

    /// The rows appended so far.
    var rowsWritten: Int { counter.rowsWritten }

    init(
        width: Int, height: Int, pixelFormat: PixelFormat, colorSpace: ColorSpace?, metadata: ImageMetadata,
        options: EncodingOptions
    ) throws(CodecError) {
        guard width > 0, height > 0 else { throw .invalidArgument("invalid WebP size \(width)×\(height)") }
        try RGBEncoding.checkShape(
            pixelFormat, width: width, height: height, format: "WebP", maximumDimension: WebP.maximumDimension)
        counter = BandCounter(width: width, height: height, name: "WebP")
        bandSpace = colorSpace
        bandFormat = pixelFormat
        self.metadata = metadata
        self.options = options
        guard WebPPictureInitInternal(&picture, Int32(WEBP_ENCODER_ABI_VERSION)) != 0 else {
            throw .library(name: "libwebp", message: "version mismatch")
        }
        picture.width = Int32(width)
        picture.height = Int32(height)
        picture.use_argb = options.isLossless ? 1 : 0
        picture.colorspace = WEBP_YUV420A
        guard WebPPictureAlloc(&picture) != 0 else {
            throw .library(name: "libwebp", message: "cannot allocate a \(width) × \(height) picture")
        }
    }

    deinit { WebPPictureFree(&picture) }

    /// Prepares the next band and imports its rows (all but an unpaired last row, for lossy files).
    func append(_ band: PixelBuffer) throws(CodecError) {
        try counter.check(band)
        let stored = try band.preparedForStreaming(in: bandSpace, format: bandFormat, threads: options.threads)
        let prepared = try RGBEncoding.prepare(
            stored, format: "WebP", maximumDimension: WebP.maximumDimension, options: options)
        encodedSpace = prepared.colorSpace
        counter.advance(by: band.height)
        var rows = prepared.pixels
        var alpha = prepared.hasAlpha
        if let waiting {
            rows = Self.stacked(waiting.row, rows)
            alpha = alpha || waiting.alpha
            self.waiting = nil
        }
        if picture.use_argb == 0, rows.height % 2 == 1, counter.rowsWritten < counter.height {
            waiting = (try Self.rows(of: rows, from: rows.height - 1, count: 1), alpha)
            guard rows.height > 1 else { return }
            rows = try Self.rows(of: rows, from: 0, count: rows.height - 1)
        }
        try importRows(rows, alpha: alpha)
    }

    /// Encodes the picture; the file has ICC, Exif and XMP chunks as the whole-picture encoder writes them.
    func finish() throws(CodecError) -> [UInt8] {
        try counter.finish()
        if picture.use_argb == 0, !hasTransparency {
            // Every row was opaque: no alpha plane, as libwebp's own import of the whole picture decides.
            picture.colorspace = WEBP_YUV420
            picture.a = nil
            picture.a_stride = 0
        }
        var config = try WebP.configuration(options)
        let bitstream = try WebP.encodeBitstream(&picture, config: &config)
        let icc = RGBEncoding.profile(for: encodedSpace, metadata: metadata, options: options)
        return try WebP.assemble(bitstream, icc: icc, metadata: metadata)
    }

    /// Imports `.rgba8` rows (an even number of them, or the last rows of the image) into the picture.
    private func importRows(_ rows: PixelBuffer, alpha: Bool) throws(CodecError) {
        var part = try WebP.picture(from: rows, alpha: alpha, lossless: picture.use_argb != 0)
        defer { WebPPictureFree(&part) }
        let width = Int(picture.width)
        let top = rowsImported
        if picture.use_argb != 0 {
            guard let argb = picture.argb else { throw .library(name: "libwebp", message: "the picture has no pixels") }
            Self.copyRows(
                from: UnsafeRawPointer(part.argb), stride: 4 * Int(part.argb_stride),
                to: UnsafeMutableRawPointer(argb) + 4 * top * Int(picture.argb_stride),
                stride: 4 * Int(picture.argb_stride), rows: rows.height, bytes: 4 * width)
        } else {
            guard let y = picture.y, let u = picture.u, let v = picture.v, let a = picture.a else {
                throw .library(name: "libwebp", message: "the picture has no planes")
            }
            Self.copyRows(
                from: UnsafeRawPointer(part.y), stride: Int(part.y_stride),
                to: UnsafeMutableRawPointer(y) + top * Int(picture.y_stride), stride: Int(picture.y_stride),
                rows: rows.height, bytes: width)
            let chromaRows = (rows.height + 1) / 2
            for (source, destination) in [(part.u, u), (part.v, v)] {
                Self.copyRows(
                    from: UnsafeRawPointer(source), stride: Int(part.uv_stride),
                    to: UnsafeMutableRawPointer(destination) + top / 2 * Int(picture.uv_stride),
                    stride: Int(picture.uv_stride), rows: chromaRows, bytes: (width + 1) / 2)
            }
            let alphaRows = UnsafeMutableRawPointer(a) + top * Int(picture.a_stride)
            if let partAlpha = part.a {
                hasTransparency = true
                Self.copyRows(
                    from: UnsafeRawPointer(partAlpha), stride: Int(part.a_stride), to: alphaRows,
                    stride: Int(picture.a_stride), rows: rows.height, bytes: width)
            } else {
                for row in 0..<rows.height {
                    (alphaRows + row * Int(picture.a_stride)).initializeMemory(
                        as: UInt8.self, repeating: 255, count: width)
                }
            }
        }
        rowsImported += rows.height
    }

    private static func copyRows(
        from source: UnsafeRawPointer?, stride: Int, to destination: UnsafeMutableRawPointer,
        stride destinationStride: Int,
        rows: Int, bytes: Int
    ) {
        guard let source else { return }
        for y in 0..<rows {
            (destination + y * destinationStride).copyMemory(from: source + y * stride, byteCount: bytes)
        }
    }

    /// `count` rows of `buffer` from row `first` (a view, no copy).
    private static func rows(of buffer: PixelBuffer, from first: Int, count: Int) throws(CodecError) -> PixelBuffer {
        do {
            return try buffer.view(x: 0, y: first, width: buffer.width, height: count)
        } catch {
            throw .invalidArgument("rows \(first)..<\(first + count) of a \(buffer.height)-row band: \(error)")
        }
    }

    /// `top` (one row) above `bottom`, as one `.rgba8` buffer.
    private static func stacked(_ top: PixelBuffer, _ bottom: PixelBuffer) -> PixelBuffer {
        var both = PixelBuffer(width: top.width, height: top.height + bottom.height, format: .rgba8)
        let rowBytes = 4 * top.width
        both.withUnsafeMutablePlane { destination in
            top.withUnsafePlane { t in
                for y in 0..<t.height { lux_copy_bytes(destination.row(y), t.row(y), rowBytes) }
            }
            bottom.withUnsafePlane { b in
                for y in 0..<b.height { lux_copy_bytes(destination.row(top.height + y), b.row(y), rowBytes) }
            }
        }
        both.colorSpace = bottom.colorSpace
        return both
    }
}
