public import LuxColor

/// Options for reading files.
public struct DecodingOptions: Hashable, Sendable {
    /// Size bounds checked before any allocation.
    public var limits: DecodingLimits
    /// Rotates and mirrors decoded pixels according to the orientation tag (and resets it to `.up`).
    ///
    /// Off by default: the pixels come back as stored and ``ImageMetadata/orientation`` says how to show them.
    public var appliesOrientation: Bool
    /// Threads for parallel decoding (tiled DNG and TIFF); default: all processors.
    public var threads: Int
    /// Lets ``ImageFile/read(url:options:)`` return pixels that read the memory-mapped file in place instead of a copy,
    /// where the stored samples can be used as they are (uncompressed DNG data in host byte order).
    ///
    /// This saves allocating, zeroing and filling a buffer as large as the image.
    ///
    /// While such pixels exist the file must not be shortened or rewritten in place: the system ends a process
    /// that reads a mapped page past the new end of a file. Replacing the file by renaming another over it —
    /// what Lux's writers do — is safe. Writing to the pixels copies them first. Off by default.
    public var allowsMappedPixels: Bool
    /// Which top-level image of a file with several to read.
    ///
    /// 0 (the default) is the primary image, then the others in file order (``HEIFContents/images``, the order of
    /// `heif-info`) for a HEIF file, or the frame of an animated GIF or WebP (0 is the first, as a viewer composes
    /// it on the canvas). Other formats hold one image.
    public var imageIndex: Int
    /// Which part of the selected image to read: the image itself (the default), or one of its thumbnails, its depth
    /// map, its HDR gain map or another auxiliary image (HEIF files).
    public var component: ImageComponent
    /// Decodes DNG files with LibRaw, like other camera raws, instead of LuxCodecs' own DNG decoder.
    ///
    /// For comparisons and benchmarks: LuxCodecs' decoder is faster, keeps every DNG tag (opcodes, profiles, both
    /// colour calibrations) and reads files LibRaw 0.20 gets wrong. Off by default.
    public var decodesDNGWithLibRaw: Bool
    /// The rendering intent of conversions through an embedded profile Lux's matrix/TRC engine does not handle
    /// (CMYK, LUT-based RGB): such pixels are converted to sRGB while decoding.
    ///
    /// Relative colorimetric by default, as vips does.
    public var renderingIntent: RenderingIntent = .relativeColorimetric
    /// The memory the running decode has reserved (set by the decoder; not part of the options' value).
    package var budget: DecodingBudget?
    /// The name of the file being decoded, for errors (set by ``ImageFile/read(url:options:)``; not part of the
    /// options' value).
    package var sourceName: String?

    /// Creates options.
    public init(
        limits: DecodingLimits = .default, appliesOrientation: Bool = false, threads: Int? = nil,
        allowsMappedPixels: Bool = false, imageIndex: Int = 0, component: ImageComponent = .main,
        decodesDNGWithLibRaw: Bool = false
    ) {
        self.limits = limits
        self.appliesOrientation = appliesOrientation
        self.threads = max(1, threads ?? defaultThreadCount)
        self.allowsMappedPixels = allowsMappedPixels
        self.imageIndex = imageIndex
        self.component = component
        self.decodesDNGWithLibRaw = decodesDNGWithLibRaw
    }

    /// The default options.
    public static let `default` = DecodingOptions()

    /// Whether two options decode alike.
    public static func == (a: DecodingOptions, b: DecodingOptions) -> Bool {
        a.limits == b.limits && a.appliesOrientation == b.appliesOrientation && a.threads == b.threads
            && a.allowsMappedPixels == b.allowsMappedPixels && a.imageIndex == b.imageIndex
            && a.component == b.component
            && a.decodesDNGWithLibRaw == b.decodesDNGWithLibRaw && a.renderingIntent == b.renderingIntent
    }

    /// Hashes the options' values.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(limits)
        hasher.combine(appliesOrientation)
        hasher.combine(threads)
        hasher.combine(allowsMappedPixels)
        hasher.combine(imageIndex)
        hasher.combine(component)
        hasher.combine(decodesDNGWithLibRaw)
        hasher.combine(renderingIntent)
    }
}

/// Chroma subsampling of a JPEG.
public enum ChromaSubsampling: String, Hashable, Sendable, Codable, CaseIterable {
    /// Full-resolution chroma.
    case none = "4:4:4"
    /// Half horizontal chroma resolution.
    case horizontal = "4:2:2"
    /// Half horizontal and vertical chroma resolution (the usual camera JPEG).
    case both = "4:2:0"
}

/// How a writer treats alpha.
public enum AlphaPolicy: String, Hashable, Sendable, Codable {
    /// Writes alpha only when the buffer has an alpha channel that is not fully opaque.
    case automatic
    /// Always writes alpha when the buffer format has it.
    case keep
    /// Never writes alpha.
    case discard
}

/// The sample type a PNG, TIFF or HEIC writer stores.
public enum SampleType: String, Hashable, Sendable, Codable {
    /// Chosen from the buffer: 8-bit for 8-bit formats, 16-bit for 16-bit and half, float for float formats (TIFF);
    /// HEIC: 8 bits for 8-bit formats, 10 for the others.
    case automatic
    case uint8
    /// 10-bit samples (HEIC only).
    case uint10
    case uint16
    /// IEEE half float (TIFF only).
    case float16
    /// IEEE single float (TIFF only).
    case float32
}

/// TIFF compression for writing.
public enum TIFFCompression: String, Hashable, Sendable, Codable {
    case none
    /// Deflate (zlib, Compression 8) with a horizontal predictor for integer data and the floating-point
    /// predictor for float data.
    case deflate
}

/// Options for writing files.
///
/// Each format reads the options that apply to it.
///
/// ```swift
/// try ImageFile.write(image, to: url, options: .init(quality: 0.9, chromaSubsampling: .none))
/// ```
public struct EncodingOptions: Hashable, Sendable {
    /// JPEG and HEIC quality, 0…1; default 0.9.
    ///
    /// JPEG: libjpeg quality round(100 × quality), at least 1. HEIC: x265 constant rate factor 50 × (1 − quality),
    /// libheif's mapping (quality 0.5 is `heif-enc -q 50`).
    public var quality: Double
    /// JPEG chroma subsampling (default 4:2:0).
    public var chromaSubsampling: ChromaSubsampling
    /// Whether the JPEG encoder computes optimal Huffman tables (smaller files, slightly slower); default on.
    public var optimizesHuffmanTables: Bool
    /// Whether the JPEG is progressive (default off).
    public var isProgressive: Bool
    /// The colour space to write in; the pixels are colour-matched into it first.
    ///
    /// `nil` keeps the buffer's colour space (a linear or extended-range space is written with the same primaries and
    /// the sRGB curve for 8- and 16-bit integer files).
    public var colorSpace: ColorSpace?
    /// Converts wide-gamut pixels to sRGB before writing, for receivers that ignore colour profiles (the role of
    /// `kCGImageDestinationOptimizeColorForSharing`); default off.
    public var optimizesColorForSharing: Bool
    /// Whether to embed an ICC profile describing the colour space (default on).
    public var embedsColorProfile: Bool
    /// PNG/TIFF/HEIC sample type (default automatic).
    public var sampleType: SampleType
    /// PNG/TIFF alpha handling (default automatic).
    public var alpha: AlphaPolicy
    /// TIFF compression; default none (the most widely readable).
    public var tiffCompression: TIFFCompression
    /// TIFF tile size (a multiple of 16), or `nil` (the default) to write strips.
    public var tiffTileSize: Int?
    /// PNG zlib level 0…9 (default 3).
    ///
    /// With libpng's adaptive row filters, level 3 makes a 12-megapixel photograph about 2 % larger than level 6
    /// (zlib's own default) in about a third of the compression time, and still about 25 % smaller than an
    /// unfiltered level-6 file (vips' default); 9 gives the smallest files, 1 the fastest.
    public var pngCompressionLevel: Int
    /// DNG options (compression, tiles, preview).
    public var dng: DNGEncodingOptions
    /// Whether a HEIC or JPEG stores a thumbnail reduced from the image when it is not given one.
    ///
    /// A HEIC's thumbnail has a long side of 320 pixels, as iOS stores; a JPEG's, 160 (the Exif standard's 160 × 120),
    /// goes into IFD1 of its Exif block (the role of `kCGImageDestinationEmbedThumbnail`). `nil` (the default) is each
    /// format's default: on for HEIC, as iOS writes them, off for JPEG, as ImageIO writes them.
    public var embedsThumbnail: Bool?
    /// Flush the file to disk before renaming it into place (default on).
    public var synchronizesFile: Bool
    /// Threads for parallel encoding (DNG tiles); default: all processors.
    public var threads: Int
    /// Whether a WebP is lossless (VP8L, with `cwebp -lossless`'s default effort) rather than lossy at ``quality``;
    /// default off.
    public var isLossless = false
    /// Whether a GIF's palette colours are dithered (Floyd–Steinberg error diffusion); default on.
    public var dithers = true

    /// Creates options.
    public init(
        quality: Double = 0.9, chromaSubsampling: ChromaSubsampling = .both, optimizesHuffmanTables: Bool = true,
        isProgressive: Bool = false, colorSpace: ColorSpace? = nil, optimizesColorForSharing: Bool = false,
        embedsColorProfile: Bool = true, sampleType: SampleType = .automatic, alpha: AlphaPolicy = .automatic,
        tiffCompression: TIFFCompression = .none, tiffTileSize: Int? = nil, pngCompressionLevel: Int = 3,
        dng: DNGEncodingOptions = DNGEncodingOptions(), embedsThumbnail: Bool? = nil, synchronizesFile: Bool = true,
        threads: Int? = nil
    ) {
        self.quality = quality
        self.chromaSubsampling = chromaSubsampling
        self.optimizesHuffmanTables = optimizesHuffmanTables
        self.isProgressive = isProgressive
        self.colorSpace = colorSpace
        self.optimizesColorForSharing = optimizesColorForSharing
        self.embedsColorProfile = embedsColorProfile
        self.sampleType = sampleType
        self.alpha = alpha
        self.tiffCompression = tiffCompression
        self.tiffTileSize = tiffTileSize
        self.pngCompressionLevel = pngCompressionLevel
        self.dng = dng
        self.embedsThumbnail = embedsThumbnail
        self.synchronizesFile = synchronizesFile
        self.threads = max(1, threads ?? defaultThreadCount)
    }

    /// The default options.
    public static let `default` = EncodingOptions()
}
