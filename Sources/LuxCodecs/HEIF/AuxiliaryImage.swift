public import LuxPixels

/// An auxiliary image a HEIC stores beside its main image — an HDR gain map, a depth map — with its type and metadata.
///
/// ```swift
/// let gainMap = try ImageFile.read(url: heic, options: .init(component: .hdrGainMap))
/// var photo = try ImageFile.read(url: heic)
/// photo.auxiliaryImages = [AuxiliaryImage(type: HEIFAuxiliaryKind.appleHDRGainMapType, file: gainMap)]
/// try ImageFile.write(photo, to: URL(fileURLWithPath: "copy.heic"))
/// ```
public struct AuxiliaryImage: Sendable {
    /// The auxiliary type URN (``HEIFAuxiliaryKind/appleHDRGainMapType``, `urn:mpeg:hevc:2015:auxid:2` …).
    public var type: String
    /// The values: a gray buffer (8 or 16 bits), stored as 4:0:0 HEVC.
    public var pixels: PixelBuffer
    /// Metadata stored with the auxiliary image (Apple keeps an XMP packet with its gain map).
    public var metadata: ImageMetadata

    /// Creates an auxiliary image.
    public init(type: String, pixels: PixelBuffer, metadata: ImageMetadata = ImageMetadata()) {
        self.type = type
        self.pixels = pixels
        self.metadata = metadata
    }

    /// An auxiliary image from a decoded component of another file (``DecodingOptions/component``).
    public init(type: String, file: ImageFile) {
        self.init(type: type, pixels: file.pixels, metadata: file.metadata)
    }
}
