public import LuxPixels

/// The uncompressed preview (thumbnail) delivered with a photo.
///
/// Give a pixel format from ``PhotoOutput/availablePreviewPhotoPixelFormatTypes`` and, optionally, a box: the
/// preview is the photo scaled to fit inside it (aspect ratio kept). Without a box the output chooses a size.
public struct PreviewFormat: Hashable, Sendable {
    /// The preview's pixel format.
    public var pixelFormat: PixelFormat
    /// The box the preview fits into; `nil` lets the output choose (long side ``defaultLongSide``).
    public var dimensions: PixelDimensions?

    /// The long side of previews whose size the output chooses.
    public static let defaultLongSide = 512

    /// Creates a preview format.
    public init(pixelFormat: PixelFormat = .bgra8, dimensions: PixelDimensions? = nil) {
        self.pixelFormat = pixelFormat
        self.dimensions = dimensions
    }

    /// Creates a preview format fitting `width × height`.
    public init(pixelFormat: PixelFormat = .bgra8, width: Int, height: Int) {
        self.init(pixelFormat: pixelFormat, dimensions: PixelDimensions(width: width, height: height))
    }
}
