public import LuxCodecs
public import LuxPixels
public import LuxRender

extension RenderContext {
    /// Renders `bounds` of `image` as one frame of a QuickTime video track and encodes it, ready for
    /// ``QuickTimeWriter/appendVideoFrame(jpegData:at:)``.
    ///
    /// The frame is rendered in 8-bit RGBA in the track's colour space into `buffer`, which is reused when it
    /// already has the frame's size and format (pass the same buffer for every frame of a movie) and replaced
    /// otherwise. Safe to call from several threads at once, each with its own buffer.
    ///
    /// ```swift
    /// var frame = PixelBuffer(width: 1, height: 1, format: .rgba8)
    /// let jpeg = try context.encodeVideoFrame(
    ///     edited, bounds: Rect(width: settings.width, height: settings.height), settings: settings, reusing: &frame)
    /// try writer.appendVideoFrame(jpegData: jpeg, at: time)
    /// ```
    ///
    /// - Parameters:
    ///   - bounds: A whole-pixel rectangle of the track's size.
    ///   - settings: The video track's settings (size, colour space, quality).
    /// - Returns: The encoded frame.
    /// - Throws: ``RenderError`` when the render fails, ``CodecError`` when encoding does.
    public func encodeVideoFrame(
        _ image: Image, bounds: Rect, settings: QuickTimeWriter.VideoSettings, reusing buffer: inout PixelBuffer
    ) throws -> [UInt8] {
        if buffer.width != settings.width || buffer.height != settings.height || buffer.format != .rgba8 {
            buffer = PixelBuffer(width: settings.width, height: settings.height, format: .rgba8)
        }
        try render(image, to: &buffer, bounds: bounds, colorSpace: settings.colorSpace)
        return try QuickTimeWriter.encodeVideoFrame(buffer, settings: settings)
    }
}
