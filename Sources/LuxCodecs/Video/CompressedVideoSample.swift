public import LuxPixels

/// One compressed frame of an H.264 or HEVC track as the movie stores it (length-prefixed NAL units), with its
/// timing: what ``CompressedVideoReader`` reads and ``QuickTimeWriter/appendCompressedVideoSample(_:)`` writes, to
/// copy a movie's frames without decoding and re-encoding them.
public struct CompressedVideoSample: Hashable, Sendable {
    /// The sample's bytes.
    public var data: [UInt8]
    /// When the frame is decoded, on the track's media timeline (samples come in this order).
    public var decodeTime: MediaTime
    /// When the frame is shown, on the track's media timeline (later than ``decodeTime`` for a reordered frame).
    public var presentationTime: MediaTime
    /// Whether the frame decodes on its own (a key frame: decoding may start there).
    public var isSync: Bool

    /// Creates a sample.
    public init(data: [UInt8], decodeTime: MediaTime, presentationTime: MediaTime, isSync: Bool) {
        self.data = data
        self.decodeTime = decodeTime
        self.presentationTime = presentationTime
        self.isSync = isSync
    }
}
