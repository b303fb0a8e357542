import LuxPixels

/// Adobe Digital Negative (and TIFF/EP raw) reading and writing.
///
/// Reading returns the stored sensor values — the active area plus any masked border — exactly as the file
/// holds them (after decompression; linearisation and black subtraction are left to the developer), with
/// every tag the RAW developer needs in ``RawProperties``. Uncompressed (any bit depth, packed or not),
/// lossless JPEG (all predictors, tiles or strips, several components), Deflate (integer and float) and
/// lossy-JPEG Linear Raw data are decoded; tiles are decoded in parallel.
///
/// ```swift
/// let file = try DNG.decode(bytes)
/// let raw = file.rawImage!
/// print(raw.width, raw.height, raw.cfaPattern ?? "linear", raw.whiteLevel)
/// ```
public enum DNG {
    /// Decodes a DNG file held in memory.
    ///
    /// - Throws: ``CodecError/missingPixelData(what:reason:)`` for header-only or stripped files, and other
    ///   ``CodecError`` cases for damaged or unsupported data.
    public static func decode(_ bytes: [UInt8], options: DecodingOptions = .default) throws(CodecError) -> ImageFile {
        try withBytes(of: bytes) { raw throws(CodecError) in try decode(raw, options: options) }
    }

    /// Decodes a DNG file; when `raw` is `file`'s bytes, uncompressed samples stored row after row are lent
    /// to the pixel buffer instead of copied.
    static func decode(
        _ raw: UnsafeRawBufferPointer, options: DecodingOptions, file: FileContents? = nil
    ) throws(CodecError) -> ImageFile {
        let options = options.budgeted()
        let s = try DNGStructure(raw)
        let props = try DNGReader.properties(s, loadingPreviews: true)
        try options.reserve(props.previews.reduce(0) { $0 + ($1.data?.count ?? 0) }, for: "DNG previews")
        let pixels = try DNGReader.decodePixels(s, props, options: options, file: file)
        var file = ImageFile(raw: RawImage(pixels: pixels, properties: props))
        file.format = .dng
        return file
    }

    /// Reads the description of the raw image without decoding pixels or loading previews.
    ///
    /// - Throws: ``CodecError`` when the directory structure is unreadable or there is no raw image directory.
    public static func properties(_ bytes: [UInt8]) throws(CodecError) -> RawProperties {
        try withBytes(of: bytes) { raw throws(CodecError) in
            try DNGReader.properties(DNGStructure(raw), loadingPreviews: false)
        }
    }

    /// Encodes a raw image as a DNG file (see ``DNGEncodingOptions``).
    ///
    /// - Throws: ``CodecError/invalidArgument(_:)`` when the pixels and description disagree.
    public static func encode(_ raw: RawImage, options: EncodingOptions = .default) throws(CodecError) -> [UInt8] {
        try DNGWriter.encode(raw, options: options)
    }
}
