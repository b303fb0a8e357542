public import LuxColor
public import LuxPixels

/// A frame delivered by a ``VideoDataOutput``, tagged with its colour space.
public struct VideoFrame: Sendable {
    /// The pixels in the camera format's pixel format; ``PixelBuffer/colorSpace`` is the colour tag
    /// (Display P3 frames must be treated as such — seed 000, "The Danger of Forcing Display P3 Color").
    public var pixelBuffer: PixelBuffer
    /// The start of the frame's exposure on the device clock.
    public var presentationTime: MediaTime
    /// The time until the next frame slot.
    public var duration: MediaTime
    /// The frame's number on the device.
    public var index: Int
    /// How many frames were lost right before this one (a still capture that took the sensor, or a reader that
    /// fell behind the queue).
    public var droppedFramesBefore: Int
    /// The capture metadata (exposure, ISO, lens position, white balance).
    public var metadata: FrameMetadata

    /// The frame's colour space.
    public var colorSpace: ColorSpace? { pixelBuffer.colorSpace }
}
