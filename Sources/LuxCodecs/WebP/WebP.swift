internal import CWebP
import LuxColor
public import LuxPixels

/// WebP reading and writing through libwebp.
///
/// Decoding gives `.rgba8` pixels (opaque when the file has no alpha) of a still image, or of one frame of an
/// animation (``DecodingOptions/imageIndex``, 0 for the first) composed on the canvas as a viewer shows it. The
/// colour space comes from the ICC profile (`ICCP` chunk), sRGB when there is none; Exif and XMP are read.
///
/// Encoding writes lossy (VP8, ``EncodingOptions/quality`` as `cwebp -q`) or lossless (VP8L,
/// ``EncodingOptions/isLossless``, `cwebp -lossless`) data, with alpha only when the pixels have some that is not
/// opaque, and the ICC profile, Exif and XMP in their chunks.
///
/// ```swift
/// let photo = try WebP.decode(bytes)
/// let smaller = try WebP.encode(photo.pixels, metadata: photo.metadata, options: .init(quality: 0.75))
/// ```
public enum WebP {
    /// The largest width or height a WebP image can have.
    public static let maximumDimension = 16383

    /// Decodes a WebP file held in memory.
    ///
    /// - Throws: ``CodecError`` for damaged, truncated or oversized images, or a frame the file does not have.
    public static func decode(_ bytes: [UInt8], options: DecodingOptions = .default) throws(CodecError) -> ImageFile {
        try withBytes(of: bytes) { raw throws(CodecError) in try decode(raw, options: options) }
    }

    static func decode(_ raw: UnsafeRawBufferPointer, options: DecodingOptions) throws(CodecError) -> ImageFile {
        let options = options.budgeted()
        let container = try WebPContainer(raw, name: options.sourceName)
        let index = options.imageIndex
        guard index < container.frameCount else {
            throw .invalidArgument("\(container.what) has \(container.frameCount) frame(s); there is no frame \(index)")
        }
        try options.limits.check(
            width: container.width, height: container.height, bytesPerPixel: 4, what: container.what)
        let byteCount = PixelBuffer.byteCount(width: container.width, height: container.height, format: .rgba8)
        // An animation decoder keeps a canvas of its own besides the frame returned.
        try options.reserve(container.isAnimated ? 2 * byteCount : byteCount, for: "\(container.what) pixels")
        var pixels = PixelBuffer(width: container.width, height: container.height, format: .rgba8)
        if container.isAnimated {
            try decodeAnimationFrame(index, of: container, into: &pixels, threads: options.threads > 1)
        } else {
            try decodeStill(container, into: &pixels, threads: options.threads > 1)
        }
        let metadata = container.metadata
        pixels.colorSpace = metadata.iccProfile.flatMap { ColorProfiles.colorSpace(fromProfile: $0) } ?? .sRGB
        var file = ImageFile(pixels: pixels, metadata: metadata, format: .webp)
        if options.appliesOrientation { file.applyOrientation() }
        return file
    }

    /// Decodes the only frame of a still image straight into `pixels`.
    private static func decodeStill(_ container: WebPContainer, into pixels: inout PixelBuffer, threads: Bool)
        throws(CodecError)
    {
        let (bitstream, features) = try container.features(ofFrame: 0)
        guard Int(features.width) == pixels.width, Int(features.height) == pixels.height else {
            throw .malformed(
                what: container.what, offset: 0,
                reason: "the image is \(features.width)×\(features.height) on a \(pixels.width)×\(pixels.height) canvas"
            )
        }
        var config = WebPDecoderConfig()
        guard WebPInitDecoderConfigInternal(&config, Int32(WEBP_DECODER_ABI_VERSION)) != 0 else {
            throw .library(name: "libwebp", message: "version mismatch")
        }
        config.options.use_threads = threads ? 1 : 0
        let status = pixels.withUnsafeMutablePlane { plane in
            config.output.colorspace = MODE_RGBA
            config.output.is_external_memory = 1
            config.output.u.RGBA.rgba = plane.baseAddress.assumingMemoryBound(to: UInt8.self)
            config.output.u.RGBA.stride = Int32(plane.bytesPerRow)
            config.output.u.RGBA.size = plane.bytesPerRow * plane.height
            return WebPDecode(bitstream.bytes, bitstream.size, &config)
        }
        WebPFreeDecBuffer(&config.output)
        try container.check(status, "the image data")
    }

    /// Decodes frames up to `index` of an animation and copies the composed canvas of the last into `pixels`.
    private static func decodeAnimationFrame(
        _ index: Int, of container: WebPContainer, into pixels: inout PixelBuffer, threads: Bool
    ) throws(CodecError) {
        var settings = WebPAnimDecoderOptions()
        guard WebPAnimDecoderOptionsInitInternal(&settings, Int32(WEBP_DEMUX_ABI_VERSION)) != 0 else {
            throw .library(name: "libwebpdemux", message: "version mismatch")
        }
        settings.color_mode = MODE_RGBA
        settings.use_threads = threads ? 1 : 0
        var data = WebPData(
            bytes: container.data.baseAddress!.assumingMemoryBound(to: UInt8.self), size: container.data.count)
        guard let decoder = WebPAnimDecoderNewInternal(&data, &settings, Int32(WEBP_DEMUX_ABI_VERSION)) else {
            throw .malformed(what: container.what, offset: 0, reason: "libwebpdemux cannot start the animation")
        }
        defer { WebPAnimDecoderDelete(decoder) }
        var canvas: UnsafeMutablePointer<UInt8>?
        var timestamp: Int32 = 0
        for frame in 0...index {
            guard WebPAnimDecoderGetNext(decoder, &canvas, &timestamp) != 0 else {
                throw .malformed(what: container.what, offset: 0, reason: "frame \(frame) cannot be decoded")
            }
        }
        guard let canvas else { throw .library(name: "libwebpdemux", message: "no canvas") }
        let rowBytes = 4 * pixels.width
        pixels.withUnsafeMutablePlane { plane in
            for y in 0..<plane.height { plane.row(y).copyMemory(from: canvas + y * rowBytes, byteCount: rowBytes) }
        }
    }

    /// Describes a WebP file without decoding its pixels.
    static func info(_ raw: UnsafeRawBufferPointer, name: String?) throws(CodecError) -> ImageInfo {
        let container = try WebPContainer(raw, name: name)
        let (_, features) = try container.features(ofFrame: 0)
        let metadata = container.metadata
        let space = metadata.iccProfile.flatMap { ColorProfiles.colorSpace(fromProfile: $0) } ?? .sRGB
        let alpha = features.has_alpha != 0 || container.isAnimated
        var storage = features.format == 2 ? "lossless (VP8L)" : "lossy (VP8)"
        if container.isAnimated { storage += ", animation of \(container.frameCount) frames" }
        return ImageInfo(
            format: .webp, width: container.width, height: container.height, pixelFormat: .rgba8, bitsPerSample: 8,
            samplesPerPixel: alpha ? 4 : 3, hasAlpha: alpha, colorSpace: space, storage: storage, metadata: metadata,
            raw: nil)
    }

    // MARK: Encoding

    /// Encodes pixels as a WebP still image.
    ///
    /// The pixels are colour-matched into the output space (``EncodingOptions/colorSpace``, or their own; gray
    /// becomes sRGB, since WebP stores colour only) and quantised to 8 bits.
    ///
    /// - Throws: ``CodecError/invalidArgument(_:)`` for Bayer buffers or images larger than 16383 pixels on a side;
    ///   ``CodecError/library(name:message:)`` when libwebp fails.
    public static func encode(
        _ pixels: PixelBuffer, metadata: ImageMetadata = ImageMetadata(), options: EncodingOptions = .default
    ) throws(CodecError) -> [UInt8] {
        let prepared = try RGBEncoding.prepare(
            pixels, format: "WebP", maximumDimension: maximumDimension, options: options)
        let bitstream = try encodeBitstream(prepared.pixels, alpha: prepared.hasAlpha, options: options)
        let icc = RGBEncoding.profile(for: prepared.colorSpace, metadata: metadata, options: options)
        return try assemble(bitstream, icc: icc, metadata: metadata)
    }

    /// The encoder settings for `options`: lossy at `cwebp -q` 100 × quality, or lossless with cwebp's defaults.
    static func configuration(_ options: EncodingOptions) throws(CodecError) -> WebPConfig {
        var config = WebPConfig()
        guard
            WebPConfigInitInternal(
                &config, WEBP_PRESET_DEFAULT, 75, Int32(WEBP_ENCODER_ABI_VERSION)) != 0
        else {
            throw .library(name: "libwebp", message: "version mismatch")
        }
        if options.isLossless {
            config.lossless = 1
        } else {
            config.quality = Float(max(0, min(100, (options.quality * 100).rounded())))
        }
        config.thread_level = options.threads > 1 ? 1 : 0
        return config
    }

    /// Encodes `.rgba8` pixels as a bare VP8/VP8L (+ALPH) RIFF file.
    static func encodeBitstream(_ pixels: PixelBuffer, alpha: Bool, options: EncodingOptions) throws(CodecError)
        -> [UInt8]
    {
        var config = try configuration(options)
        var picture = try picture(from: pixels, alpha: alpha, lossless: options.isLossless)
        defer { WebPPictureFree(&picture) }
        return try encodeBitstream(&picture, config: &config)
    }

    /// Encodes a filled libwebp picture as a bare VP8/VP8L (+ALPH) RIFF file.
    static func encodeBitstream(_ picture: inout WebPPicture, config: inout WebPConfig) throws(CodecError) -> [UInt8] {
        var writer = WebPMemoryWriter()
        WebPMemoryWriterInit(&writer)
        defer { WebPMemoryWriterClear(&writer) }
        let ok = withUnsafeMutablePointer(to: &writer) { w in
            picture.writer = WebPMemoryWrite
            picture.custom_ptr = UnsafeMutableRawPointer(w)
            return WebPEncode(&config, &picture)
        }
        guard ok != 0, let mem = writer.mem else {
            throw .library(name: "libwebp", message: "encoding failed (error \(picture.error_code.rawValue))")
        }
        return Array(UnsafeBufferPointer(start: mem, count: writer.size))
    }

    /// A libwebp picture holding a copy of `.rgba8` pixels (free it with `WebPPictureFree`).
    static func picture(from pixels: PixelBuffer, alpha: Bool, lossless: Bool) throws(CodecError) -> WebPPicture {
        var picture = WebPPicture()
        guard WebPPictureInitInternal(&picture, Int32(WEBP_ENCODER_ABI_VERSION)) != 0 else {
            throw .library(name: "libwebp", message: "version mismatch")
        }
        picture.width = Int32(pixels.width)
        picture.height = Int32(pixels.height)
        picture.use_argb = lossless ? 1 : 0
        let imported = pixels.withUnsafePlane { plane in
            let base = plane.baseAddress.assumingMemoryBound(to: UInt8.self)
            let stride = Int32(plane.bytesPerRow)
            return alpha
                ? WebPPictureImportRGBA(&picture, base, stride) : WebPPictureImportRGBX(&picture, base, stride)
        }
        guard imported != 0 else {
            WebPPictureFree(&picture)
            throw .library(name: "libwebp", message: "cannot import the pixels (out of memory)")
        }
        return picture
    }

    /// A WebP file of `bitstream` (a RIFF file from libwebp's encoder, still or animated) with the ICC, Exif and XMP
    /// chunks added (libwebpmux writes the VP8X header they need).
    static func assemble(_ bitstream: [UInt8], icc: [UInt8]?, metadata: ImageMetadata) throws(CodecError) -> [UInt8] {
        let exif = metadata.exif.isEmpty ? nil : metadata.exif.tiffBytes(bigEndian: false)
        let chunks = [("ICCP", icc), ("EXIF", exif), ("XMP ", metadata.xmp)].compactMap { c in c.1.map { (c.0, $0) } }
        guard !chunks.isEmpty else { return bitstream }
        return try bitstream.withUnsafeBufferPointer { b throws(CodecError) -> [UInt8] in
            var image = WebPData(bytes: b.baseAddress, size: b.count)
            guard let mux = WebPMuxCreateInternal(&image, 0, Int32(WEBP_MUX_ABI_VERSION)) else {
                throw .library(name: "libwebpmux", message: "cannot read the encoded image")
            }
            defer { WebPMuxDelete(mux) }
            for (fourCC, payload) in chunks {
                let status = payload.withUnsafeBufferPointer { p in
                    var data = WebPData(bytes: p.baseAddress, size: p.count)
                    return WebPMuxSetChunk(mux, fourCC, &data, 1)
                }
                guard status == WEBP_MUX_OK else {
                    throw .library(name: "libwebpmux", message: "cannot add the \(fourCC) chunk (\(status.rawValue))")
                }
            }
            var out = WebPData()
            guard WebPMuxAssemble(mux, &out) == WEBP_MUX_OK, let bytes = out.bytes else {
                throw .library(name: "libwebpmux", message: "cannot assemble the file")
            }
            defer { WebPDataClear(&out) }
            return Array(UnsafeBufferPointer(start: bytes, count: out.size))
        }
    }
}
