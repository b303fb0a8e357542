internal import CLuxCodecShims
import LuxColor
public import LuxPixels

/// JPEG reading and writing through libjpeg-turbo.
///
/// Decoding produces `.rgba8` (colour) or `.gray8` (grayscale) pixels with the colour space of the
/// embedded ICC profile (sRGB, or sGray, when there is none), and reads Exif, XMP and ICC metadata. Baseline,
/// extended and progressive files with any chroma subsampling are accepted. CMYK and YCCK JPEGs are converted to
/// sRGB through their embedded profile by Little CMS (Adobe's inverted samples when the file has an Adobe marker),
/// or as DeviceCMYK without one; 12-bit, lossless and hierarchical JPEGs are refused with a
/// ``CodecError/unsupported(what:reason:)``.
///
/// ```swift
/// let file = try JPEG.decode(bytes)
/// let data = try JPEG.encode(file.pixels, metadata: file.metadata, options: .init(quality: 0.85))
/// ```
public enum JPEG {
    /// Decodes a JPEG file held in memory.
    ///
    /// - Throws: ``CodecError`` for damaged, truncated or unsupported data and sizes beyond `options.limits`.
    public static func decode(_ bytes: [UInt8], options: DecodingOptions = .default) throws(CodecError) -> ImageFile {
        try withBytes(of: bytes) { raw throws(CodecError) in try decode(raw, options: options) }
    }

    /// Decodes a JPEG held in memory at 1/`scaleDenominator` of its size (1, 2, 4 or 8), reduced in libjpeg's DCT
    /// domain: far cheaper than decoding in full and resampling, for previews and thumbnails.
    ///
    /// The result is ⌈width / scaleDenominator⌉ × ⌈height / scaleDenominator⌉ pixels.
    ///
    /// - Throws: ``CodecError/invalidArgument(_:)`` for another denominator, and the errors of ``decode(_:options:)``.
    public static func decode(_ bytes: [UInt8], reducedBy scaleDenominator: Int, options: DecodingOptions = .default)
        throws(CodecError) -> ImageFile
    {
        try withBytes(of: bytes) { raw throws(CodecError) in
            try decode(raw, reducedBy: scaleDenominator, options: options)
        }
    }

    static func decode(_ raw: UnsafeRawBufferPointer, options: DecodingOptions) throws(CodecError) -> ImageFile {
        try decode(raw, reducedBy: 1, options: options)
    }

    static func decode(_ raw: UnsafeRawBufferPointer, reducedBy denominator: Int, options: DecodingOptions)
        throws(CodecError) -> ImageFile
    {
        guard [1, 2, 4, 8].contains(denominator) else {
            throw .invalidArgument("a JPEG can be reduced by 1, 2, 4 or 8 while decoding, not \(denominator)")
        }
        let options = options.budgeted()
        let header = try JPEGHeader(raw)
        try checkDecodable(header)
        if header.isCMYK { return try decodeCMYK(raw, header: header, reducedBy: denominator, options: options) }
        let gray = header.componentCount == 1
        try options.limits.check(
            width: header.width, height: header.height, bytesPerPixel: gray ? 1 : 4, what: "JPEG image")
        let (width, height) = (
            (header.width + denominator - 1) / denominator, (header.height + denominator - 1) / denominator
        )
        let format: PixelFormat = gray ? .gray8 : .rgba8
        try options.reserve(
            PixelBuffer.byteCount(width: width, height: height, format: format), for: "JPEG image pixels")
        var pixels = PixelBuffer(width: width, height: height, format: format)
        try decodePixels(
            raw, into: &pixels, gray: gray, limits: options.limits, libraryBudget: options.remainingBytes,
            imageWidth: header.width, imageHeight: header.height, reducedBy: denominator, threads: options.threads)
        var metadata = ImageMetadata()
        if let e = header.exif, let exif = try? EXIF(tiffBytes: e) { metadata.exif = exif }
        metadata.xmp = header.xmp
        metadata.iccProfile = header.iccProfile
        pixels.colorSpace = colorSpace(icc: header.iccProfile, exif: metadata.exif, gray: gray)
        var file = ImageFile(pixels: pixels, metadata: metadata, format: .jpeg)
        if options.appliesOrientation { file.applyOrientation() }
        return file
    }

    static func checkDecodable(_ header: JPEGHeader) throws(CodecError) {
        switch header.process {
        case .lossless:
            throw .unsupported(
                what: "lossless JPEG (SOF3) image", reason: "only DNG tiles use lossless JPEG in LuxCodecs")
        case .hierarchical:
            throw .unsupported(what: "hierarchical JPEG", reason: "libjpeg-turbo does not decode hierarchical JPEG")
        default: break
        }
        guard header.precision == 8 else {
            throw .unsupported(what: "\(header.precision)-bit JPEG", reason: "only 8-bit samples are supported")
        }
        guard [1, 3, 4].contains(header.componentCount) else {
            throw .unsupported(
                what: "JPEG with \(header.componentCount) components",
                reason: "expected 1 (gray), 3 (colour) or 4 (CMYK, YCCK)")
        }
    }

    /// Decodes a CMYK or YCCK JPEG to sRGB through its embedded CMYK profile (Little CMS, ``DecodingOptions/renderingIntent``),
    /// or as DeviceCMYK when it has none; a file with an Adobe marker stores inverted samples (Adobe's convention,
    /// which Photoshop, vips and ImageMagick follow).
    static func decodeCMYK(
        _ raw: UnsafeRawBufferPointer, header: JPEGHeader, reducedBy denominator: Int, options: DecodingOptions
    ) throws(CodecError) -> ImageFile {
        try options.limits.check(width: header.width, height: header.height, bytesPerPixel: 8, what: "CMYK JPEG image")
        let (width, height) = (
            (header.width + denominator - 1) / denominator, (header.height + denominator - 1) / denominator
        )
        let bytes = PixelBuffer.byteCount(width: width, height: height, format: .rgba8)
        try options.reserve(2 * bytes, for: "CMYK JPEG samples and pixels")
        let profile = try ProfileConversion.cmykProfile(header.iccProfile, name: options.sourceName)
        // Four bytes of C, M, Y, K per pixel, held in an RGBA buffer's memory until they are converted.
        var samples = PixelBuffer(width: width, height: height, format: .rgba8)
        try decodePixels(
            raw, into: &samples, gray: false, cmyk: true, limits: options.limits, libraryBudget: options.remainingBytes,
            imageWidth: header.width, imageHeight: header.height, reducedBy: denominator)
        try ProfileConversion.convertCMYK(
            &samples, inverted: header.adobeTransform != nil, profile: profile, intent: options.renderingIntent,
            threads: options.threads, name: options.sourceName)
        let pixels = samples
        var metadata = ImageMetadata()
        if let e = header.exif, let exif = try? EXIF(tiffBytes: e) { metadata.exif = exif }
        metadata.xmp = header.xmp
        // The pixels are sRGB now: the CMYK profile no longer describes them.
        metadata.iccProfile = nil
        var file = ImageFile(pixels: pixels, metadata: metadata, format: .jpeg)
        if options.appliesOrientation { file.applyOrientation() }
        return file
    }

    /// Decodes into `pixels` (already allocated at the header's size, divided by `denominator`); libjpeg's own
    /// buffers get `libraryBudget` bytes (default: what `limits.maxByteCount` leaves after the pixels).
    ///
    /// A full-size decode of a baseline file with restart markers on MCU rows runs in bands on up to `threads`
    /// threads (``JPEGRestartBands``); when that is not possible or a band fails, the file is decoded whole, which
    /// reports any error.
    static func decodePixels(
        _ raw: UnsafeRawBufferPointer, into pixels: inout PixelBuffer, gray: Bool, cmyk: Bool = false,
        limits: DecodingLimits,
        libraryBudget: Int? = nil, imageWidth: Int? = nil, imageHeight: Int? = nil, reducedBy denominator: Int = 1,
        threads: Int = 1
    ) throws(CodecError) {
        var message = [CChar](repeating: 0, count: 512)
        let (w, h) = (imageWidth ?? pixels.width, imageHeight ?? pixels.height)
        let libraryBudget = max(
            1,
            libraryBudget
                ?? limits.maxByteCount
                - PixelBuffer.byteCount(width: pixels.width, height: pixels.height, format: pixels.format))
        // The bands' streams copy the entropy-coded data once.
        if threads > 1, denominator == 1, !cmyk, raw.count < libraryBudget, let bands = JPEGRestartBands(raw),
            bands.isGray == gray, bands.width == pixels.width, bands.height == pixels.height
        {
            let decoded = pixels.withUnsafeMutablePlane { plane in
                bands.decode(into: plane, threads: threads, libraryBudget: libraryBudget - raw.count)
            }
            if decoded { return }
        }
        let status = pixels.withUnsafeMutablePlane { plane in
            message.withUnsafeMutableBufferPointer { m in
                lux_jpeg_decode_scaled(
                    raw.baseAddress!.assumingMemoryBound(to: UInt8.self), raw.count,
                    Int32(cmyk ? LUX_JPEG_OUT_CMYK : gray ? LUX_JPEG_OUT_GRAY : LUX_JPEG_OUT_RGBA),
                    plane.baseAddress.assumingMemoryBound(to: UInt8.self), plane.bytesPerRow, Int32(w), Int32(h),
                    Int32(denominator), 1, libraryBudget, Int32(clamping: limits.maxProgressiveScans), m.baseAddress,
                    m.count)
            }
        }
        guard status == 0 else {
            throw decodeError(cMessage(message), dataSize: raw.count, limits: limits, libraryBudget: libraryBudget)
        }
    }

    /// The typed error for libjpeg's message `text` about a file of `dataSize` bytes.
    static func decodeError(_ text: String, dataSize: Int, limits: DecodingLimits, libraryBudget: Int) -> CodecError {
        if text.contains("Premature end") || text.contains("ended before") {
            return .truncated(what: "JPEG entropy-coded data (\(text))", offset: dataSize)
        }
        if text.contains("more than \(limits.maxProgressiveScans) scans") {
            return .limitExceeded(
                what: "progressive JPEG scan count", value: limits.maxProgressiveScans + 1,
                limit: limits.maxProgressiveScans)
        }
        if text.contains("Backing store not supported") {
            return .limitExceeded(
                what: "JPEG decoder memory (coefficient buffers)", value: libraryBudget + 1, limit: libraryBudget)
        }
        return .library(name: "libjpeg", message: text)
    }

    static func colorSpace(icc: [UInt8]?, exif: EXIF, gray: Bool) -> ColorSpace {
        if let icc, let space = ColorProfiles.colorSpace(fromProfile: icc) { return space }
        if gray { return .sGray }
        // Exif ColorSpace 2 or interoperability index "R03" mean Adobe RGB (DCF 2.0 option file).
        let interop = exif.additionalFields.first { $0.directory == .interoperability && $0.tag == 1 }?.value.string
        if exif.colorSpace == 2 || interop == "R03" { return .adobeRGB }
        return .sRGB
    }

    // MARK: Encoding

    /// Encodes pixels as a baseline (or progressive) JPEG with Exif, XMP and an ICC profile.
    ///
    /// Gray formats are written as grayscale JPEGs, everything else as Y′CbCr. The pixels are first
    /// colour-matched into the output colour space (``EncodingOptions/colorSpace``, or sRGB with
    /// ``EncodingOptions/optimizesColorForSharing``), whose profile is embedded. Alpha is dropped.
    ///
    /// - Parameter thumbnail: A thumbnail for IFD1 of the Exif block (as a camera's preview is stored); `nil` stores
    ///   one reduced from the image only when ``EncodingOptions/embedsThumbnail`` is `true`. It is re-encoded at lower
    ///   quality, then halved, until the Exif block fits its 64 KB segment.
    /// - Throws: ``CodecError/invalidArgument(_:)`` for Bayer buffers and metadata that does not fit in a
    ///   JPEG segment; ``CodecError/library(name:message:)`` when libjpeg fails.
    public static func encode(
        _ pixels: PixelBuffer, metadata: ImageMetadata = ImageMetadata(), thumbnail: PixelBuffer? = nil,
        options: EncodingOptions = .default
    ) throws(CodecError) -> [UInt8] {
        let stream = try JPEGStreamEncoder(
            width: pixels.width, height: pixels.height, pixelFormat: pixels.format, colorSpace: pixels.colorSpace,
            metadata: metadata, options: options)
        stream.thumbnail = thumbnail
        try stream.append(pixels)
        return try stream.finish()
    }

    /// The 8-bit pixels ``encode(_:metadata:thumbnail:options:)`` compresses for `pixels`: colour-matched into the
    /// output colour space and converted to `.rgba8` (`.gray8` for gray formats), tagged with that space.
    ///
    /// Encoding the result writes the same file without converting again: convert once when the 8-bit pixels serve
    /// something else too (a reduced copy for analysis, a histogram).
    ///
    /// - Throws: ``CodecError/invalidArgument(_:)`` when the pixels cannot be matched into the output space.
    public static func encodedPixels(of pixels: PixelBuffer, options: EncodingOptions = .default) throws(CodecError)
        -> PixelBuffer
    {
        try prepare(pixels, gray: isGray(pixels.format), options: options).0
    }

    /// Whether pixels of `format` are written as a grayscale JPEG.
    static func isGray(_ format: PixelFormat) -> Bool { [.gray8, .gray16, .grayFloat].contains(format) }

    /// The APP1 (Exif, XMP) and APP2 (ICC, chunked) segments for an image written in `space`.
    static func markers(
        metadata: ImageMetadata, width: Int, height: Int, gray: Bool, space: ColorSpace?, options: EncodingOptions
    ) throws(CodecError) -> [(Int32, [UInt8])] {
        var markers: [(Int32, [UInt8])] = []
        if !metadata.exif.isEmpty {
            let exif = metadata.exif.completedForImage(
                width: width, height: height, isWideGamut: !(space?.isColorimetricallyEqual(to: .sRGB) ?? true),
                isYCbCr: !gray)
            let payload = JPEGHeader.exifSignature + exif.tiffBytes(bigEndian: true)
            guard payload.count <= 65533 else {
                throw .invalidArgument(
                    "the Exif block is \(payload.count) bytes; a JPEG APP1 segment holds at most 65533")
            }
            markers.append((0xE1, payload))
        }
        if let xmp = metadata.xmp {
            let payload = JPEGHeader.xmpSignature + xmp
            guard payload.count <= 65533 else {
                throw .invalidArgument("the XMP packet is \(xmp.count) bytes; extended XMP is not written")
            }
            markers.append((0xE1, payload))
        }
        if let icc = ColorProfiles.profileToEmbed(for: space, original: metadata.iccProfile, options: options) {
            let chunk = 65519
            let total = (icc.count + chunk - 1) / chunk
            guard total <= 255 else {
                throw .invalidArgument("the ICC profile is too large for JPEG (\(icc.count) bytes)")
            }
            for i in 0..<total {
                let part = icc[(i * chunk)..<min(icc.count, (i + 1) * chunk)]
                markers.append((0xE2, JPEGHeader.iccSignature + [UInt8(i + 1), UInt8(total)] + part))
            }
        }
        return markers
    }

    /// The colour space a JPEG of pixels in `space` is written in.
    static func outputSpace(for space: ColorSpace?, gray: Bool, options: EncodingOptions) -> ColorSpace? {
        var target = options.colorSpace ?? space
        if options.optimizesColorForSharing, !gray { target = .sRGB }
        return target.map { ColorProfiles.integerEncodingSpace(for: $0) }
    }

    /// Converts the pixels to `.rgba8`/`.gray8` in the output colour space.
    static func prepare(_ pixels: PixelBuffer, gray: Bool, options: EncodingOptions) throws(CodecError)
        -> (PixelBuffer, ColorSpace?)
    {
        var buffer = pixels
        let target = outputSpace(for: buffer.colorSpace, gray: gray, options: options)
        if let source = buffer.colorSpace, let t = target,
            !source.isColorimetricallyEqual(to: t) || source.isExtendedRange
        {
            if gray {
                // Gray stays gray: only the tone curve can differ.
                if source.model == .gray, t.model == .gray,
                    !source.transferFunction.isApproximatelyEqual(to: t.transferFunction)
                {
                    buffer = try match(buffer.converted(to: .rgbaFloat), to: t).converted(to: .gray8)
                }
            } else {
                let working =
                    buffer.format == .rgba8
                    ? buffer : buffer.converted(to: buffer.format.isFloatingPoint ? buffer.format : .rgbaFloat)
                buffer = try match(working, to: t)
            }
        }
        let wanted: PixelFormat = gray ? .gray8 : .rgba8
        if buffer.format != wanted { buffer = buffer.converted(to: wanted, threads: options.threads) }
        buffer.colorSpace = target
        return (buffer, target)
    }

    static func match(_ buffer: PixelBuffer, to space: ColorSpace) throws(CodecError) -> PixelBuffer {
        do {
            return try buffer.matchingColors(to: space, threads: defaultThreadCount)
        } catch {
            throw .invalidArgument("cannot convert the pixels to \(space.name): \(error)")
        }
    }

    static func withMarkerArray<R>(
        markers: [(Int32, [UInt8])], payloads: [[UInt8]], _ body: (UnsafeBufferPointer<lux_jpeg_marker>) -> R
    ) -> R {
        // Pin every payload with nested withUnsafeBufferPointer calls through a recursive helper.
        func pin(_ i: Int, _ acc: [lux_jpeg_marker]) -> R {
            if i == payloads.count { return acc.withUnsafeBufferPointer(body) }
            return payloads[i].withUnsafeBufferPointer { p in
                var m = lux_jpeg_marker()
                m.marker = markers[i].0
                m.data = p.baseAddress
                m.length = p.count
                return pin(i + 1, acc + [m])
            }
        }
        return pin(0, [])
    }
}
