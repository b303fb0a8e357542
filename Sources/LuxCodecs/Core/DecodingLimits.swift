/// Bounds a decoder checks before it allocates, so a hostile header cannot exhaust memory.
///
/// The defaults accept every real camera file (the largest sensors are about 150 megapixels) and refuse
/// headers that claim absurd sizes such as 100 000 × 100 000 pixels.
public struct DecodingLimits: Hashable, Sendable, Codable {
    /// The largest number of pixels (width × height) of any image a decoder allocates. Default 200 000 000.
    public var maxPixelCount: Int
    /// The largest width or height accepted. Default 65 535 (the JPEG and TIFF-EP maximum).
    public var maxDimension: Int
    /// The largest number of bytes a single decoded buffer may occupy. Default 2 GiB.
    public var maxByteCount: Int
    /// The largest number of strips or tiles in one image. Default 1 048 576.
    public var maxChunkCount: Int

    /// Creates limits.
    public init(
        maxPixelCount: Int = 200_000_000, maxDimension: Int = 65_535, maxByteCount: Int = 2 << 30,
        maxChunkCount: Int = 1 << 20
    ) {
        self.maxPixelCount = maxPixelCount
        self.maxDimension = maxDimension
        self.maxByteCount = maxByteCount
        self.maxChunkCount = maxChunkCount
    }

    /// The default limits.
    public static let `default` = DecodingLimits()

    /// Throws unless an image of `width` × `height` pixels with `bytesPerPixel` bytes each is allowed.
    func check(width: Int, height: Int, bytesPerPixel: Int, what: String) throws(CodecError) {
        guard width > 0, height > 0 else {
            throw .malformed(what: what, offset: 0, reason: "the image size \(width)×\(height) is empty")
        }
        guard width <= maxDimension, height <= maxDimension else {
            throw .limitExceeded(what: "\(what) dimension", value: max(width, height), limit: maxDimension)
        }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= maxPixelCount else {
            throw .limitExceeded(what: "\(what) pixel count", value: overflow ? .max : pixels, limit: maxPixelCount)
        }
        let (bytes, overflow2) = pixels.multipliedReportingOverflow(by: max(bytesPerPixel, 1))
        guard !overflow2, bytes <= maxByteCount else {
            throw .limitExceeded(what: "\(what) byte count", value: overflow2 ? .max : bytes, limit: maxByteCount)
        }
    }
}
