public import FoundationEssentials
public import LuxCodecs
public import LuxColor
public import LuxPixels

extension ImageStreamEncoder {
    /// Writes an image file from the bands that `produce` renders, so the whole picture is never in memory.
    ///
    /// `produce` receives an `append` function and hands it bands of the image's width, top to bottom, as it makes
    /// them: a render's strips, a tone mapper's or an exposure fusion's bands. Each band is encoded at once (TIFF
    /// strips go straight to a temporary file beside `url`). The file appears under its name only when all
    /// `height` rows have been appended; when `produce` or the encoder throws, `url` is untouched.
    ///
    /// ```swift
    /// try ImageStreamEncoder.write(
    ///     to: URL(fileURLWithPath: "fused.tif"), width: frames[0].width, height: frames[0].height,
    ///     pixelFormat: .rgba16, colorSpace: .displayP3
    /// ) { append in
    ///     try ExposureFusion().fuse(frames) { band, _ in try append(band) }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - format: JPEG, PNG, TIFF or HEIC (default: from the file name's extension).
    ///   - pixelFormat: The format of the bands (it decides gray or colour, 8 or 16 bits for PNG, and whether
    ///     PNG alpha is written).
    ///   - colorSpace: The colour space of the bands; the file's profile describes it.
    ///   - produce: Makes the bands and passes each to `append`, which throws ``CodecError`` when encoding fails.
    /// - Throws: ``CodecError`` from the encoder (a bad format or size, a failed write, fewer or more rows than
    ///   `height`), or what `produce` throws.
    public static func write(
        to url: URL, format: ImageFormat? = nil, width: Int, height: Int, pixelFormat: PixelFormat,
        colorSpace: ColorSpace?, metadata: ImageMetadata = ImageMetadata(), options: EncodingOptions = .default,
        bands produce: (_ append: (PixelBuffer) throws(CodecError) -> Void) throws -> Void
    ) throws {
        let encoder = try ImageStreamEncoder(
            writingTo: url, format: format, width: width, height: height, pixelFormat: pixelFormat,
            colorSpace: colorSpace, metadata: metadata, options: options)
        try produce { (band) throws(CodecError) in try encoder.append(band) }
        try encoder.finish()
    }
}
