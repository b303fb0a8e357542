import LuxColor
import LuxPixels

/// Shared preparation for writers of 8-bit colour only (WebP, AVIF, GIF): gray input becomes sRGB, the pixels are
/// colour-matched into the output space and converted to `.rgba8`, and alpha is kept only when it is needed.
enum RGBEncoding {
    /// Pixels ready for an 8-bit RGB(A) encoder.
    struct Prepared {
        /// The pixels as `.rgba8` in ``colorSpace``.
        var pixels: PixelBuffer
        /// The colour space of the values (`nil` when the input had none).
        var colorSpace: ColorSpace?
        /// Whether alpha is to be written (the input has alpha that is not opaque, or the policy keeps it).
        var hasAlpha: Bool
    }

    /// Checks the size, decides alpha and converts `pixels` for a `format` encoder.
    ///
    /// - Throws: ``CodecError/invalidArgument(_:)`` for Bayer buffers, sizes beyond `maximumDimension` and colour
    ///   matching failures.
    static func prepare(_ pixels: PixelBuffer, format: String, maximumDimension: Int, options: EncodingOptions)
        throws(CodecError) -> Prepared
    {
        try checkShape(
            pixels.format, width: pixels.width, height: pixels.height, format: format,
            maximumDimension: maximumDimension)
        let alpha = IntegerEncoding.writesAlpha(pixels, policy: options.alpha)
        let (converted, space) = try IntegerEncoding.prepare(
            pixels, format: .rgba8, options: colorOptions(pixels, options))
        return Prepared(pixels: converted, colorSpace: space, hasAlpha: alpha)
    }

    /// Throws unless a `format` encoder takes pixels of `pixelFormat` and this size: no Bayer mosaics, no side beyond
    /// `maximumDimension`.
    static func checkShape(
        _ pixelFormat: PixelFormat, width: Int, height: Int, format: String, maximumDimension: Int
    ) throws(CodecError) {
        guard !pixelFormat.isBayer else {
            throw .invalidArgument("a Bayer mosaic cannot be written as \(format); develop it first (or write a DNG)")
        }
        guard width <= maximumDimension, height <= maximumDimension else {
            throw .invalidArgument(
                "\(format) images are at most \(maximumDimension) × \(maximumDimension) pixels, not "
                    + "\(width) × \(height)")
        }
    }

    /// `options` with an RGB output space when the pixels (or the requested space) are gray: the formats store colour
    /// only, and a gray profile must not describe RGB values.
    static func colorOptions(_ pixels: PixelBuffer, _ options: EncodingOptions) -> EncodingOptions {
        guard (options.colorSpace ?? pixels.colorSpace)?.model == .gray else { return options }
        var copy = options
        copy.colorSpace = .sRGB
        return copy
    }

    /// The ICC profile to embed for values in `space`: none for sRGB (these formats' default) unless the input's own
    /// profile is kept, otherwise the input's profile when it describes `space`, or one made for `space`.
    static func profile(for space: ColorSpace?, metadata: ImageMetadata, options: EncodingOptions) -> [UInt8]? {
        let isSRGB = space.map { $0.isColorimetricallyEqual(to: .sRGB) && !$0.isExtendedRange } ?? false
        if isSRGB, metadata.iccProfile == nil || options.colorSpace != nil || options.optimizesColorForSharing {
            return nil
        }
        return ColorProfiles.profileToEmbed(for: space, original: metadata.iccProfile, options: options)
    }
}
