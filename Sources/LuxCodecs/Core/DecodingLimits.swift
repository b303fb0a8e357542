/// Bounds a decoder checks before it allocates, so a hostile header cannot exhaust memory.
///
/// The defaults accept every real camera file (the largest sensors are about 150 megapixels) and refuse
/// headers that claim absurd sizes such as 100 000 × 100 000 pixels or billions of tiles. Every check happens
/// before the allocation it guards and fails with ``CodecError/limitExceeded(what:value:limit:)``.
///
/// ```swift
/// // A server decoding uploads: at most 50 megapixels and 512 MiB per decode.
/// let limits = DecodingLimits(maxPixelCount: 50_000_000, maxByteCount: 512 << 20)
/// let file = try ImageFile.read(data: upload, options: DecodingOptions(limits: limits))
/// ```
public struct DecodingLimits: Hashable, Sendable, Codable {
    /// The largest number of pixels (width × height) of any image a decoder allocates (default 200 000 000).
    public var maxPixelCount: Int
    /// The largest width or height accepted, of an image or of one of its tiles; default 65 535 (the JPEG and TIFF-EP
    /// maximum).
    public var maxDimension: Int
    /// The most memory one decode may allocate, all allocations together: the decoded image, the working buffers of the
    /// strips or tiles being decompressed at the same time, libjpeg's own buffers, inflated PNG metadata and loaded DNG
    /// previews.
    ///
    /// Each is reserved before it is made, so a file whose allocations each fit but add up past the limit fails before
    /// the one that would pass it. A decode runs fewer strips or tiles in parallel when that keeps it under the limit.
    /// Default 2 GiB.
    public var maxByteCount: Int
    /// The largest number of strips or tiles in one image (default 1 048 576).
    public var maxChunkCount: Int
    /// The most scans a progressive JPEG may have.
    ///
    /// Each scan passes over the whole image, so a small file of thousands of empty scans takes minutes to decode; real
    /// encoders write about ten. Default 500 (the limit libjpeg-turbo recommends for untrusted files).
    public var maxProgressiveScans: Int

    /// Creates limits.
    public init(
        maxPixelCount: Int = 200_000_000, maxDimension: Int = 65_535, maxByteCount: Int = 2 << 30,
        maxChunkCount: Int = 1 << 20, maxProgressiveScans: Int = 500
    ) {
        self.maxPixelCount = maxPixelCount
        self.maxDimension = maxDimension
        self.maxByteCount = maxByteCount
        self.maxChunkCount = maxChunkCount
        self.maxProgressiveScans = maxProgressiveScans
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
