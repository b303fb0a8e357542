public import LuxPixels

/// A video frame made ready for a ``QuickTimeWriter`` track: compressed for a Motion-JPEG track, converted to the
/// encoder's Y′CbCr for an H.264 or HEVC track (whose encoder compresses frames in order, in the writer).
///
/// Preparing is the part of writing a frame that can run on many threads at once
/// (``QuickTimeWriter/prepareVideoFrame(_:settings:)``); ``QuickTimeWriter/appendVideoFrame(_:at:)`` then takes
/// the frames in order.
public struct PreparedVideoFrame: Sendable {
    enum Payload: Sendable {
        case jpeg([UInt8])
        case picture(VideoPicture)
    }

    let payload: Payload

    init(payload: Payload, width: Int, height: Int, codec: VideoCodec) {
        self.payload = payload
        self.width = width
        self.height = height
        self.codec = codec
    }

    /// A Motion-JPEG frame from an already encoded baseline JPEG (such as a frame kept compressed in a capture's ring
    /// buffer).
    ///
    /// - Throws: ``CodecError`` when the bytes are not a JPEG.
    public init(jpegData: [UInt8]) throws(CodecError) {
        let header = try withBytes(of: jpegData) { raw throws(CodecError) in try JPEGHeader(raw) }
        self.init(payload: .jpeg(jpegData), width: header.width, height: header.height, codec: .motionJPEG)
    }

    /// The frame's width in pixels.
    public let width: Int
    /// The frame's height in pixels.
    public let height: Int
    /// The codec it was prepared for.
    public let codec: VideoCodec

    /// The memory the frame holds, in bytes.
    public var byteCount: Int {
        switch payload {
        case .jpeg(let bytes): bytes.count
        case .picture(let p): p.byteCount
        }
    }
}
