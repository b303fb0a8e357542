import FoundationEssentials
public import LuxPixels

/// A decoded image file: pixels with their colour space, metadata, and — for DNG — the raw description.
///
/// `ImageFile` is the one entry point for reading and writing every format LuxCodecs supports. The format is
/// detected from the bytes on reading and from the file name extension (or an explicit `format:`) on writing.
///
/// ```swift
/// let photo = try ImageFile.read(url: URL(fileURLWithPath: "IMG_0001.JPG"))
/// print(photo.pixels.width, photo.pixels.colorSpace?.name ?? "?", photo.metadata.exif.model ?? "")
/// try ImageFile.write(photo, to: URL(fileURLWithPath: "copy.png"))
///
/// let raw = try ImageFile.read(url: dngURL).rawImage!      // Bayer mosaic + DNG tags
/// print(raw.cfaPattern, raw.blackLevel, raw.whiteLevel)
/// ```
public struct ImageFile: Sendable {
    /// The format the pixels were read from (or will be written as by default).
    public var format: ImageFormat
    /// The decoded pixels.
    ///
    /// For a DNG these are the stored raw values (a `.bayer16` mosaic, or linear samples for a Linear Raw DNG) with no
    /// colour space.
    public var pixels: PixelBuffer
    /// Exif, XMP and ICC metadata.
    public var metadata: ImageMetadata
    /// The raw description of a DNG (CFA, levels, areas, colour calibration, opcodes, previews); `nil` for
    /// other formats.
    public var raw: RawProperties?
    /// A thumbnail to store when the file is written as HEIC (`nil`: one is reduced from the pixels).
    public var thumbnail: PixelBuffer? = nil
    /// Auxiliary images (HDR gain map, depth) to store when the file is written as HEIC.
    public var auxiliaryImages: [AuxiliaryImage] = []

    /// Creates an image file from pixels and metadata.
    public init(pixels: PixelBuffer, metadata: ImageMetadata = ImageMetadata(), format: ImageFormat = .png) {
        self.format = format
        self.pixels = pixels
        self.metadata = metadata
        self.raw = nil
    }

    /// Creates a DNG image file from raw sensor data and its description.
    public init(raw: RawImage) {
        self.format = .dng
        self.pixels = raw.pixels
        self.metadata = ImageMetadata(exif: raw.properties.exif, xmp: raw.properties.xmp)
        self.raw = raw.properties
    }

    /// The raw image (pixels + description) of a DNG, `nil` for other formats.
    public var rawImage: RawImage? {
        guard var props = raw else { return nil }
        props.exif = metadata.exif
        props.xmp = metadata.xmp
        return RawImage(pixels: pixels, properties: props)
    }

    /// Rotates and mirrors the pixels for upright display and sets the orientation to `.up`.
    public mutating func applyOrientation() {
        guard raw == nil else { return }
        let o = metadata.orientation
        guard o != .up else { return }
        pixels = pixels.applying(o)
        metadata.orientation = .up
    }
}
