public import FoundationEssentials
import LuxColor
public import LuxPixels

extension ImageFile {
    // MARK: Reading

    /// Reads and decodes an image file (JPEG, PNG, TIFF, DNG, HEIC, AVIF, WebP, GIF or a camera raw, detected from its
    /// contents).
    ///
    /// A regular file is memory-mapped, and no pixel buffer is allocated before the header's dimensions pass
    /// ``DecodingOptions/limits``; with ``DecodingOptions/allowsMappedPixels`` uncompressed DNG samples are read
    /// from the map in place. Anything that cannot be mapped (a pipe) is read into memory, at most
    /// ``DecodingLimits/maxByteCount`` bytes.
    ///
    /// - Throws: ``CodecError`` — `.io` when the file cannot be read, `.limitExceeded` for a stream longer
    ///   than the limit, `.unknownFormat` for other formats, and the decoder's errors for damaged data.
    public static func read(url: URL, options: DecodingOptions = .default) throws(CodecError) -> ImageFile {
        let file = try FileContents(url, limit: options.limits.maxByteCount)
        // The map must outlive the decode even when the pixels do not keep it.
        var named = options
        named.sourceName = url.lastPathComponent
        return try withExtendedLifetime(file) { () throws(CodecError) -> ImageFile in
            try decode(file.bytes, options: named, file: options.allowsMappedPixels ? file : nil)
        }
    }

    /// Decodes an image file held in memory.
    public static func read(data: [UInt8], options: DecodingOptions = .default) throws(CodecError) -> ImageFile {
        try withBytes(of: data) { raw throws(CodecError) in try decode(raw, options: options) }
    }

    /// Decodes an image file held in memory.
    public static func read(data: Data, options: DecodingOptions = .default) throws(CodecError) -> ImageFile {
        try withBytes(of: data) { raw throws(CodecError) in try decode(raw, options: options) }
    }

    /// Decodes the bytes `raw`; when they are `file`'s, a decoder may lend them to the pixels it returns.
    static func decode(
        _ raw: UnsafeRawBufferPointer, options: DecodingOptions, file: FileContents? = nil
    ) throws(CodecError) -> ImageFile {
        let options = options.budgeted()
        let format = try detect(raw)
        let framed = format == .webp || format == .gif
        if ![.heic, .avif].contains(format), (options.imageIndex != 0 && !framed) || options.component != .main {
            throw .unsupported(
                what: "image \(options.imageIndex) (\(options.component)) of a \(format) file",
                reason: "only HEIF files hold several images, thumbnails and auxiliary images, and GIF and WebP frames")
        }
        switch format {
        case .heic, .avif: return try HEIF.decode(raw, options: options)
        case .webp: return try convertingProfile(try WebP.decode(raw, options: options), options: options)
        case .gif: return try GIF.decode(raw, options: options)
        case .jpeg: return try convertingProfile(try JPEG.decode(raw, options: options), options: options)
        case .png: return try convertingProfile(try PNG.decode(raw, options: options), options: options)
        case .tiff: return try convertingProfile(try TIFF.decode(raw, options: options), options: options)
        case .dng:
            if options.decodesDNGWithLibRaw { return try CameraRaw.decode(raw, options: options, format: .dng) }
            return try DNG.decode(raw, options: options, file: file)
        case .cameraRaw: return try CameraRaw.decode(raw, options: options)
        }
    }

    /// `file` with its pixels converted to sRGB (gray: sGray) through Little CMS when its embedded
    /// profile is one Lux's matrix/TRC engine cannot describe (LUT-based); the profile is then dropped, since it
    /// no longer describes the pixels.
    static func convertingProfile(_ file: ImageFile, options: DecodingOptions) throws(CodecError) -> ImageFile {
        let model: ICCProfile.ColorSpaceSignature = file.pixels.format.channelCount == 1 ? .gray : .rgb
        guard
            let profile = try ProfileConversion.profileNeedingConversion(
                file.metadata.iccProfile, model: model, name: options.sourceName)
        else { return file }
        var converted = file
        guard
            try ProfileConversion.convert(
                &converted.pixels, from: profile, intent: options.renderingIntent, threads: options.threads,
                name: options.sourceName)
        else { return file }
        converted.metadata.iccProfile = nil
        return converted
    }

    static func detect(_ raw: UnsafeRawBufferPointer) throws(CodecError) -> ImageFormat {
        let head = Array(raw.prefix(8))
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if head == PNGHeader.signature { return .png }
        if TIFFParser.isTIFF(raw) {
            let p = try TIFFParser(raw)
            let ifd0 = try p.directory(at: p.firstDirectoryOffset, name: "IFD0")
            if ifd0.has(TIFFTag.dngVersion) { return .dng }
            // TIFF-based camera raws (NEF, CR2, ARW, PEF, KDC …) go to LibRaw, never to the TIFF decoder.
            return TIFFCameraRaw.isCameraRaw(raw, p, ifd0) ? .cameraRaw : .tiff
        }
        if try HEIF.check(raw) { return HEIF.format(raw) }
        if WebPContainer.isWebP(raw) { return .webp }
        if GIF.isGIF(raw) { return .gif }
        // Raws with signatures of their own (RAF, ORF, RW2, CRW, MRW, X3F …) and the headerless ones LibRaw knows by
        // their size.
        if Array(raw.prefix(16)) == Array("FUJIFILMCCD-RAW ".utf8) || CameraRaw.identifies(raw) { return .cameraRaw }
        throw .unknownFormat(signature: head)
    }

    // MARK: Header information

    /// Reads what a file contains without decoding its pixels: format, size, sample layout, colour space,
    /// metadata, and for DNG the full raw description (previews listed, not loaded).
    ///
    /// - Parameter imageIndex: For a HEIF file holding several images, the one the top-level fields describe (0, the
    ///   primary, by default; ``ImageInfo/heif`` lists them all).
    /// - Throws: ``CodecError`` when the headers are unreadable or the file has no image `imageIndex`.
    public static func info(url: URL, limits: DecodingLimits = .default, imageIndex: Int = 0) throws(CodecError)
        -> ImageInfo
    {
        let file = try FileContents(url, limit: limits.maxByteCount)
        return try withExtendedLifetime(file) { () throws(CodecError) -> ImageInfo in
            try info(file.bytes, limits: limits, imageIndex: imageIndex, name: url.lastPathComponent)
        }
    }

    /// Reads what in-memory file data contains without decoding its pixels.
    public static func info(data: [UInt8], limits: DecodingLimits = .default, imageIndex: Int = 0) throws(CodecError)
        -> ImageInfo
    {
        try withBytes(of: data) { raw throws(CodecError) in try info(raw, limits: limits, imageIndex: imageIndex) }
    }

    static func info(_ raw: UnsafeRawBufferPointer, limits: DecodingLimits, imageIndex: Int = 0, name: String? = nil)
        throws(CodecError)
        -> ImageInfo
    {
        let format = try detect(raw)
        if format != .heic, format != .avif, imageIndex != 0 {
            throw .unsupported(
                what: "image \(imageIndex) of a \(format) file", reason: "only HEIF files hold several images")
        }
        switch format {
        case .heic, .avif: return try HEIF.info(raw, limits: limits, imageIndex: imageIndex)
        case .webp: return try WebP.info(raw, name: name)
        case .gif: return try GIF.info(raw, name: name)
        case .jpeg:
            let h = try JPEGHeader(raw)
            var m = ImageMetadata()
            if let e = h.exif, let exif = try? EXIF(tiffBytes: e) { m.exif = exif }
            m.xmp = h.xmp
            m.iccProfile = h.iccProfile
            let gray = h.componentCount == 1
            var storage = "\(h.process.rawValue) JPEG"
            if let s = h.chromaSubsampling { storage += " \(s.rawValue)" }
            if h.isCMYK { storage += h.adobeTransform == 2 ? " YCCK" : " CMYK" }
            return ImageInfo(
                format: .jpeg, width: h.width, height: h.height, pixelFormat: gray ? .gray8 : .rgba8,
                bitsPerSample: h.precision,
                samplesPerPixel: h.componentCount, hasAlpha: false,
                colorSpace: h.isCMYK ? .sRGB : JPEG.colorSpace(icc: h.iccProfile, exif: m.exif, gray: gray),
                storage: storage, metadata: m, raw: nil)
        case .png:
            let h = try PNGHeader(raw)
            var m = ImageMetadata()
            if let e = h.exif, let exif = try? EXIF(tiffBytes: e) { m.exif = exif }
            m.xmp = h.xmp
            m.iccProfile = h.iccProfile
            let gray = h.isGray && !h.hasAlpha
            let sixteen = h.bitDepth == 16
            let samples = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][h.colorType] ?? 1
            return ImageInfo(
                format: .png, width: h.width, height: h.height,
                pixelFormat: gray ? (sixteen ? .gray16 : .gray8) : (sixteen ? .rgba16 : .rgba8),
                bitsPerSample: h.bitDepth,
                samplesPerPixel: samples, hasAlpha: h.hasAlpha, colorSpace: PNG.colorSpace(h),
                storage: "PNG colour type \(h.colorType)" + (h.isInterlaced ? ", interlaced" : ""), metadata: m,
                raw: nil)
        case .tiff:
            let p = try TIFFParser(raw)
            let d = try p.directory(at: p.firstDirectoryOffset, name: "IFD0")
            let l = try TIFF.layout(p, d)
            var m = ImageMetadata()
            m.exif = EXIF(parser: p, primary: d, keepsUnknownPrimaryFields: false)
            m.iccProfile = try? p.rawBytes(d, TIFFTag.iccProfile)
            m.xmp = try? p.rawBytes(d, TIFFTag.xmp)
            var storage = RawStorage(compression: l.compression, predictor: l.predictor)
            storage.tileWidth = try p.integer(d, TIFFTag.tileWidth)
            storage.tileLength = try p.integer(d, TIFFTag.tileLength)
            storage.chunkCount = d[d.has(TIFFTag.tileOffsets) ? TIFFTag.tileOffsets : TIFFTag.stripOffsets]?.count ?? 0
            let name = [1: "uncompressed", 5: "LZW", 7: "JPEG", 8: "Deflate", 32946: "Deflate", 32773: "PackBits"][
                l.compression]
            return ImageInfo(
                format: .tiff, width: l.width, height: l.height, pixelFormat: l.output, bitsPerSample: l.bitsPerSample,
                samplesPerPixel: l.samplesPerPixel, hasAlpha: l.alphaIndex != nil,
                colorSpace: TIFF.colorSpace(icc: m.iccProfile, layout: l),
                storage: (name ?? "compression \(l.compression)") + ", "
                    + storage.description.split(separator: ",").dropFirst().joined(separator: ",").trimming(" "),
                metadata: m, raw: nil)
        case .dng:
            let s = try DNGStructure(raw)
            let props = try DNGReader.properties(s, loadingPreviews: false)
            return ImageInfo(
                format: .dng, width: props.width, height: props.height, pixelFormat: props.storedPixelFormat,
                bitsPerSample: props.bitsPerSample,
                samplesPerPixel: props.samplesPerPixel, hasAlpha: false, colorSpace: nil,
                storage: props.storage.description,
                metadata: ImageMetadata(exif: props.exif, xmp: props.xmp), raw: props)
        case .cameraRaw:
            var options = DecodingOptions(limits: limits)
            options.sourceName = name
            let props = try CameraRaw.properties(raw, options: options)
            return ImageInfo(
                format: .cameraRaw, width: props.width, height: props.height,
                pixelFormat: props.storedPixelFormat, bitsPerSample: props.bitsPerSample,
                samplesPerPixel: props.samplesPerPixel, hasAlpha: false, colorSpace: nil,
                storage: props.storage.description, metadata: ImageMetadata(exif: props.exif), raw: props)
        }
    }

    // MARK: Writing

    /// Encodes this image in `format` (default: ``format``).
    ///
    /// - Throws: ``CodecError/invalidArgument(_:)`` when the pixels cannot be written in that format.
    public func encoded(as format: ImageFormat? = nil, options: EncodingOptions = .default) throws(CodecError)
        -> [UInt8]
    {
        switch format ?? self.format {
        case .jpeg: return try JPEG.encode(pixels, metadata: metadata, options: options)
        case .png: return try PNG.encode(pixels, metadata: metadata, options: options)
        case .tiff: return try TIFF.encode(pixels, metadata: metadata, options: options)
        case .heic:
            return try HEIF.encode(
                pixels, metadata: metadata, thumbnail: thumbnail, auxiliaryImages: auxiliaryImages, options: options)
        case .webp: return try WebP.encode(pixels, metadata: metadata, options: options)
        case .avif: return try AVIF.encode(pixels, metadata: metadata, options: options)
        case .gif: return try GIF.encode(pixels, options: options)
        case .cameraRaw:
            throw .invalidArgument("camera raw formats are read only; write the raw image as a DNG")
        case .dng:
            if let raw = rawImage { return try DNG.encode(raw, options: options) }
            var linear = try RawImage(linearRGB: pixels)
            linear.properties.exif = metadata.exif
            linear.properties.xmp = metadata.xmp
            return try DNG.encode(linear, options: options)
        }
    }

    /// Writes an image file atomically: the bytes go to a temporary file in the destination folder, which is
    /// renamed over `url` only when complete, so a failure leaves nothing behind and never replaces the original.
    ///
    /// - Parameters:
    ///   - format: the format to write; `nil` picks it from the file name extension, then from ``format``.
    /// - Throws: ``CodecError`` from the encoder, or `.io` when the file cannot be written.
    public static func write(
        _ image: ImageFile, to url: URL, format: ImageFormat? = nil, options: EncodingOptions = .default
    ) throws(CodecError) {
        let chosen = format ?? ImageFormat(fileExtension: url.pathExtension) ?? image.format
        let bytes = try image.encoded(as: chosen, options: options)
        try FileIO.writeAtomically(bytes, to: url, synchronize: options.synchronizesFile)
    }

    /// Writes pixels (with optional metadata) to an image file; see ``write(_:to:format:options:)``.
    public static func write(
        _ pixels: PixelBuffer, metadata: ImageMetadata = ImageMetadata(), to url: URL, format: ImageFormat? = nil,
        options: EncodingOptions = .default
    ) throws(CodecError) {
        let chosen = format ?? ImageFormat(fileExtension: url.pathExtension) ?? .png
        try write(
            ImageFile(pixels: pixels, metadata: metadata, format: chosen), to: url, format: chosen, options: options)
    }

    /// Writes raw sensor data as a DNG, with its ``RawImage/renderedPreview`` as the JPEG preview; see
    /// ``write(_:to:format:options:)``.
    public static func write(_ raw: RawImage, to url: URL, options: EncodingOptions = .default) throws(CodecError) {
        // Straight to the DNG encoder: an ImageFile holds no rendered preview.
        let bytes = try DNG.encode(raw, options: options)
        try FileIO.writeAtomically(bytes, to: url, synchronize: options.synchronizesFile)
    }
}

extension RawImage {
    /// A Linear Raw DNG image from RGB pixels in a known colour space: the values are made linear (clipped to
    /// 0…1, 16-bit), ColorMatrix1 is the space's XYZ → RGB matrix under D65 and AsShotNeutral is 1, 1, 1.
    ///
    /// - Throws: ``CodecError/invalidArgument(_:)`` when the pixels have no RGB colour space.
    public init(linearRGB pixels: PixelBuffer) throws(CodecError) {
        guard let space = pixels.colorSpace, space.primaries != nil, let toXYZ = space.matrixToXYZ else {
            throw .invalidArgument("a linear DNG needs RGB pixels with a colour space")
        }
        var linear = pixels.converted(to: .rgbaFloat)
        if !space.isLinear {
            do { linear = try linear.matchingColors(to: space.linearized()) } catch {
                throw .invalidArgument("cannot linearise the pixels: \(error)")
            }
        }
        let samples = linear.converted(to: .rgba16)
        var props = RawProperties(
            width: pixels.width, height: pixels.height, photometric: .linearRaw, samplesPerPixel: 3, bitsPerSample: 16)
        // DNG's ColorMatrix maps XYZ (illuminant white at Y = 1) to camera space; here camera space is the
        // linear RGB of the image, whose white is the space's white point.
        let adapt = ChromaticAdaptation.bradford(from: WhitePoint.d65, to: space.whitePoint)
        props.color = ColorCalibration(
            colorMatrix1: toXYZ.inverse.map { $0 * adapt }, calibrationIlluminant1: .d65, asShotNeutral: [1, 1, 1])
        props.uniqueCameraModel = "Lux Linear \(space.name)"
        self.init(pixels: samples, properties: props)
    }
}
