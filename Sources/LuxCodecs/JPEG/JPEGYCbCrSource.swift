internal import CLuxCodecShims

/// A JPEG's raw Y′CbCr planes decoded straight into a colour JPEG stream's slots, with no chroma upsampling and no
/// colour conversion: the rows of a re-encode that changes only the compression.
///
/// The file's luma and chroma blocks go to the encoder as they are (or, for a 4:4:4 file written subsampled, with the
/// chroma downsampled exactly as the stream's own converter downsamples), so the two colour conversions of a decode
/// to RGB and an encode from it, and the RGB rows between them, are skipped.
final class JPEGYCbCrSource {
    /// The window whose file is read (kept alive: the decoder reads its bytes).
    private let window: RowWindow
    private let source: OpaquePointer

    /// Opens the file `window` reads for `stream`, or returns `nil` when the pass-through does not apply: the file is
    /// not a single-scan Y′CbCr JPEG whose chroma is 1×1 and whose luma sampling is the stream's or 4:4:4, or the
    /// stream is gray or has rows already.
    ///
    /// - Throws: The decoder's errors for a header libjpeg refuses, and limits.
    init?(_ window: RowWindow, stream: OpaquePointer) throws(CodecError) {
        var message = [CChar](repeating: 0, count: 512)
        var opened: OpaquePointer?
        let bytes = window.file.bytes
        let status = message.withUnsafeMutableBufferPointer { m in
            lux_jpeg_ycc_open(
                bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, stream, window.libraryBudget,
                Int32(clamping: window.limits.maxProgressiveScans), &opened, m.baseAddress, m.count)
        }
        guard status <= 0 else { return nil }
        guard status == 0, let opened else { throw window.error(message) }
        self.window = window
        source = opened
    }

    deinit { lux_jpeg_ycc_close(source) }

    /// Decodes rows `first ..< first + count` into `slot` of `stream` (the rows in order, whole iMCU rows of the
    /// stream but at the image's end); returns why it failed, or `nil`.
    func read(into stream: OpaquePointer, slot: Int32, first: Int, count: Int) -> CodecError? {
        var message = [CChar](repeating: 0, count: 512)
        let status = message.withUnsafeMutableBufferPointer { m in
            lux_jpeg_ycc_read(source, stream, slot, Int32(first), Int32(count), m.baseAddress, m.count)
        }
        return status == 0 ? nil : window.error(message)
    }
}
