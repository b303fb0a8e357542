public import LuxPixels

/// One picture of a movie's video track as decoded: when it shows, for how long, and its pixels.
///
/// Delivered by ``VideoFrameReader`` in presentation order.
public struct DecodedVideoFrame: Sendable {
    /// The frame's position in presentation order (0-based), counting every frame the reader met — also those outside
    /// ``VideoDecodingOptions/timeRange``.
    public var index: Int
    /// When the frame starts showing on the movie's timeline (the edit list applied).
    public var time: MediaTime
    /// How long it shows.
    public var duration: MediaTime
    /// The picture in RGB: `.rgba8` for 8-bit video, `.rgba16` for deeper video, tagged with the colour space the
    /// stream declares; converted with the stream's Y′CbCr matrix and range.
    public var pixels: PixelBuffer
    /// The Y′CbCr planes as decoded, when ``VideoDecodingOptions/keepsPlanes`` asked for them (H.264, HEVC and the
    /// other codecs FFmpeg decodes; `nil` for Motion-JPEG, which is decoded straight to RGB).
    public var planes: YCbCrPlanes?

    /// Creates a frame.
    public init(index: Int, time: MediaTime, duration: MediaTime, pixels: PixelBuffer, planes: YCbCrPlanes? = nil) {
        self.index = index
        self.time = time
        self.duration = duration
        self.pixels = pixels
        self.planes = planes
    }
}
