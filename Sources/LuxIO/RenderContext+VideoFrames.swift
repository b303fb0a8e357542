public import LuxCodecs
public import LuxPixels
public import LuxRender

extension RenderContext {
    /// Renders `bounds` of `image` as one frame of a QuickTime video track and prepares it for the track's codec,
    /// ready for ``QuickTimeWriter/appendVideoFrame(_:at:)-(PreparedVideoFrame,_)``: converted to the encoder's
    /// Y′CbCr for H.264 and HEVC (which the writer then compresses in order), compressed for Motion-JPEG.
    ///
    /// The frame is rendered in 8-bit RGBA in the track's colour space into `buffer`, which is reused when it
    /// already has the frame's size and format (pass the same buffer for every frame of a movie) and replaced
    /// otherwise. Safe to call from several threads at once, each with its own buffer.
    ///
    /// ```swift
    /// var frame = PixelBuffer(width: 1, height: 1, format: .rgba8)
    /// let prepared = try context.prepareVideoFrame(
    ///     edited, bounds: Rect(width: settings.width, height: settings.height), settings: settings, reusing: &frame)
    /// try writer.appendVideoFrame(prepared, at: time)
    /// ```
    ///
    /// - Parameters:
    ///   - bounds: A whole-pixel rectangle of the track's size.
    ///   - settings: The video track's settings (size, codec, colour space).
    /// - Returns: The prepared frame.
    /// - Throws: ``RenderError`` when the render fails, ``CodecError`` when preparing it does.
    public func prepareVideoFrame(
        _ image: Image, bounds: Rect, settings: QuickTimeWriter.VideoSettings, reusing buffer: inout PixelBuffer
    ) throws -> PreparedVideoFrame {
        if buffer.width != settings.width || buffer.height != settings.height || buffer.format != .rgba8 {
            buffer = PixelBuffer(width: settings.width, height: settings.height, format: .rgba8)
        }
        try render(image, to: &buffer, bounds: bounds, colorSpace: settings.colorSpace)
        return try QuickTimeWriter.prepareVideoFrame(buffer, settings: settings)
    }
}
