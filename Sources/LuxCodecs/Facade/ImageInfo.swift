public import LuxColor
public import LuxPixels

/// What a file contains, read from its headers without decoding pixels (``ImageFile/info(url:)``).
public struct ImageInfo: Sendable {
    /// The file format.
    public var format: ImageFormat
    /// Width in pixels (for DNG: the stored raw size).
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// The pixel format ``ImageFile/read(url:options:)`` returns.
    public var pixelFormat: PixelFormat
    /// Bits per stored sample.
    public var bitsPerSample: Int
    /// Samples per pixel as stored (including alpha).
    public var samplesPerPixel: Int
    /// Whether the decoded image has alpha.
    public var hasAlpha: Bool
    /// The colour space of the decoded pixels (`nil` for raw data).
    public var colorSpace: ColorSpace?
    /// How the pixels are stored (“baseline JPEG 4:2:0”, “Deflate, 12 strips”, “lossless JPEG, 1 tile …”).
    public var storage: String
    /// Exif, XMP and ICC metadata.
    public var metadata: ImageMetadata
    /// The raw description of a DNG.
    public var raw: RawProperties?
    /// Every image of a HEIF file with its thumbnails, auxiliary images and metadata (`nil` for other formats).
    public var heif: HEIFContents? = nil

    /// The colour model of the stored samples (gray, RGB, CMYK or raw sensor data).
    public var colorModel: ColorModel {
        if raw != nil || pixelFormat.isMosaic { return .raw }
        if samplesPerPixel - (hasAlpha ? 1 : 0) == 4 { return .cmyk }
        return pixelFormat.channelCount == 1 ? .gray : .rgb
    }

    /// The embedded ICC profile, parsed (`nil` when there is none or it is damaged).
    public var iccProfile: ICCProfile? { metadata.iccProfile.flatMap { try? ICCProfile(data: $0) } }

    /// The description of the embedded ICC profile, when there is one.
    public var iccProfileDescription: String? {
        metadata.iccProfile.flatMap { ColorProfiles.description(ofProfile: $0) }
    }
}
