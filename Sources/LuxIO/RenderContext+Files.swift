public import FoundationEssentials
public import LuxCodecs
public import LuxColor
public import LuxPixels
public import LuxRender

extension RenderContext {
    /// Renders `image` into a file a strip at a time (the `CIContext.writeTIFFRepresentation` role).
    ///
    /// Each strip is encoded as soon as it is rendered, and TIFF strips go straight to a temporary file beside
    /// `url`, so memory stays bounded whatever the image size. The file appears under its name only when it is
    /// complete; on failure `url` is untouched.
    ///
    /// - Parameters:
    ///   - format: JPEG, PNG, TIFF or HEIC (default: from the file name's extension).
    ///   - pixelFormat: The rendered format (8-bit, 16-bit, half or float; it decides the file's sample type
    ///     unless `options.sampleType` says otherwise). A gray format writes one gray channel: the image is rendered
    ///     as RGBA of that depth and reduced to its luma, so `colorSpace` should then be a gray space.
    ///   - colorSpace: The file's colour space (its profile is embedded).
    ///   - bounds: The part of the image to write (default: its extent, which must then be finite).
    ///   - rowsPerStrip: Rows rendered and encoded at a time (default: half the tile size, see
    ///     ``RenderContext/render(_:bounds:format:colorSpace:rowsPerStrip:rows:)``).
    /// - Throws: ``RenderError`` or ``CodecError``.
    public func write(
        _ image: Image, to url: URL, format: ImageFormat? = nil, pixelFormat: PixelFormat = .rgba8,
        colorSpace: ColorSpace = .sRGB, bounds: Rect? = nil, metadata: ImageMetadata = ImageMetadata(),
        options: EncodingOptions = .default, rowsPerStrip: Int? = nil
    ) throws {
        let rect = bounds ?? image.extent
        guard rect.isIntegral, !rect.isEmpty, rect.width.isFinite, rect.height.isFinite else {
            throw CodecError.invalidArgument("only a finite, whole-pixel region can be written (got \(rect))")
        }
        try ImageStreamEncoder.write(
            to: url, format: format, width: Int(rect.width), height: Int(rect.height), pixelFormat: pixelFormat,
            colorSpace: colorSpace, metadata: metadata, options: options
        ) { append in
            let rendered =
                [PixelFormat.gray8: .rgba8, .gray16: .rgba16, .grayFloat: .rgbaFloat][pixelFormat] ?? pixelFormat
            try render(image, bounds: rect, format: rendered, colorSpace: colorSpace, rowsPerStrip: rowsPerStrip) {
                strip in
                try append(strip.buffer)
            }
        }
    }
}
