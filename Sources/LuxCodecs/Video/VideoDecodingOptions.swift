public import LuxPixels

/// How ``VideoFrameReader`` decodes a movie's frames.
public struct VideoDecodingOptions: Sendable {
    /// Bounds on sizes and allocations (a frame larger than `limits.maxPixelCount` is refused).
    public var limits: DecodingLimits
    /// Decoding threads FFmpeg may use (0: one per processor); default 1, so that a pipeline decoding beside its
    /// renderers does not oversubscribe the processors.
    public var threads: Int
    /// Reduces frames by 1/`reduction` (1, 2, 4 or 8; default 1): Motion-JPEG in the DCT domain, other codecs while
    /// converting to RGB.
    public var reduction: Int
    /// Keeps each frame's Y′CbCr planes in ``DecodedVideoFrame/planes`` (default `false`).
    public var keepsPlanes: Bool
    /// Frames showing outside this span of the movie timeline are decoded (later frames may depend on them) but not
    /// converted or returned (default: all frames).
    public var timeRange: Range<MediaTime>?
    /// Stops a decode that takes longer than this (a hostile file), with ``CodecError/limitExceeded(what:value:limit:)``
    /// (default: no limit).
    public var timeLimit: Duration?

    /// Creates options.
    public init(
        limits: DecodingLimits = .default, threads: Int = 1, reduction: Int = 1, keepsPlanes: Bool = false,
        timeRange: Range<MediaTime>? = nil, timeLimit: Duration? = nil
    ) {
        self.limits = limits
        self.threads = threads
        self.reduction = reduction
        self.keepsPlanes = keepsPlanes
        self.timeRange = timeRange
        self.timeLimit = timeLimit
    }
}
