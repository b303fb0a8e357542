internal import CGIF
import LuxColor
public import LuxPixels

/// GIF reading and writing through giflib.
///
/// Decoding gives `.rgba8` sRGB pixels of one frame (``DecodingOptions/imageIndex``, 0 for the first) composed on
/// the logical screen as a browser shows it: earlier frames drawn and disposed of by their graphics control
/// extensions, transparent where nothing was drawn. Encoding builds a palette of at most 256 colours by median cut
/// (one entry kept for transparency when the pixels have alpha) and maps the pixels to it, with Floyd–Steinberg
/// dithering unless ``EncodingOptions/dithers`` is off; ``AnimationEncoder`` writes animations.
///
/// ```swift
/// let third = try GIF.decode(bytes, options: .init(imageIndex: 2))
/// let gif = try GIF.encode(third.pixels)
/// ```
public enum GIF {
    /// The largest width or height of a GIF.
    public static let maximumDimension = 65535

    /// Decodes one frame of a GIF file held in memory.
    ///
    /// - Throws: ``CodecError`` for damaged, truncated or oversized files, or a frame the file does not have.
    public static func decode(_ bytes: [UInt8], options: DecodingOptions = .default) throws(CodecError) -> ImageFile {
        try withBytes(of: bytes) { raw throws(CodecError) in try decode(raw, options: options) }
    }

    static func isGIF(_ raw: UnsafeRawBufferPointer) -> Bool { GIFStructure.isGIF(raw) }

    static func decode(_ raw: UnsafeRawBufferPointer, options: DecodingOptions) throws(CodecError) -> ImageFile {
        let options = options.budgeted()
        let what = "GIF image" + (options.sourceName.map { " \($0)" } ?? "")
        let structure = try GIFStructure(raw, limits: options.limits, what: what)
        let index = options.imageIndex
        guard index < structure.frames.count else {
            throw .invalidArgument("\(what) has \(structure.frames.count) frame(s); there is no frame \(index)")
        }
        // giflib holds every frame's indices; the canvas and a saved copy of it are RGBA.
        let indexBytes = structure.frames.reduce(0) { $0 + $1.width * $1.height }
        let canvasBytes = PixelBuffer.byteCount(width: structure.width, height: structure.height, format: .rgba8)
        try options.reserve(indexBytes + 2 * canvasBytes, for: "\(what) pixels")
        let gif = try GIFDecoder(raw, what: what)
        var canvas = PixelBuffer(width: structure.width, height: structure.height, format: .rgba8)
        canvas.withUnsafeMutablePlane { plane in gif.compose(upTo: index, into: plane) }
        canvas.colorSpace = .sRGB
        return ImageFile(pixels: canvas, metadata: ImageMetadata(), format: .gif)
    }

    /// Describes a GIF file without decoding its pixels.
    static func info(_ raw: UnsafeRawBufferPointer, name: String?) throws(CodecError) -> ImageInfo {
        let what = "GIF image" + (name.map { " \($0)" } ?? "")
        let structure = try GIFStructure(raw, limits: .default, what: what)
        let count = structure.frames.count
        return ImageInfo(
            format: .gif, width: structure.width, height: structure.height, pixelFormat: .rgba8, bitsPerSample: 8,
            samplesPerPixel: 1, hasAlpha: false, colorSpace: .sRGB,
            storage: "palette (LZW), \(count) frame\(count == 1 ? "" : "s")", metadata: ImageMetadata(), raw: nil)
    }

    /// Encodes pixels as a single-frame GIF.
    ///
    /// The pixels are colour-matched to sRGB (GIF has no colour profile) and quantised to a palette; pixels with
    /// alpha below one half become transparent when alpha is written.
    ///
    /// - Throws: ``CodecError/invalidArgument(_:)`` for Bayer buffers or oversized images;
    ///   ``CodecError/library(name:message:)`` when giflib fails.
    public static func encode(_ pixels: PixelBuffer, options: EncodingOptions = .default) throws(CodecError)
        -> [UInt8]
    {
        let writer = try GIFWriter(width: pixels.width, height: pixels.height, loopCount: nil)
        try writer.add(pixels, delay: 0, options: options)
        return try writer.finish()
    }

    /// The options GIF pixels are prepared with: sRGB output, since a GIF's colours are sRGB by convention.
    static func srgbOptions(_ options: EncodingOptions) -> EncodingOptions {
        var copy = options
        copy.colorSpace = .sRGB
        copy.embedsColorProfile = false
        return copy
    }
}
