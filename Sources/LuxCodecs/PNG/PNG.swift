internal import CLuxCodecShims
import LuxColor
public import LuxPixels

/// PNG reading and writing through libpng.
///
/// Decoding gives `.gray8`/`.gray16` for opaque grayscale and `.rgba8`/`.rgba16` otherwise (palettes and
/// low bit depths expanded, tRNS turned into alpha). The colour space comes from cICP, iCCP, sRGB or
/// gAMA + cHRM, in that order of precedence (PNG 3rd edition); Exif (eXIf) and XMP are read.
public enum PNG {
    /// Decodes a PNG file held in memory.
    ///
    /// - Throws: ``CodecError`` for damaged, truncated or oversized images.
    public static func decode(_ bytes: [UInt8], options: DecodingOptions = .default) throws(CodecError) -> ImageFile {
        try withBytes(of: bytes) { raw throws(CodecError) in try decode(raw, options: options) }
    }

    static func decode(_ raw: UnsafeRawBufferPointer, options: DecodingOptions) throws(CodecError) -> ImageFile {
        let options = options.budgeted()
        let header = try PNGHeader(raw, inflateLimit: min(PNGHeader.defaultInflateLimit, options.remainingBytes))
        let gray = header.isGray && !header.hasAlpha
        let sixteen = header.bitDepth == 16
        let format: PixelFormat = gray ? (sixteen ? .gray16 : .gray8) : (sixteen ? .rgba16 : .rgba8)
        try options.limits.check(
            width: header.width, height: header.height, bytesPerPixel: format.bytesPerPixel(), what: "PNG image")
        try options.reserve((header.iccProfile?.count ?? 0) + (header.xmp?.count ?? 0), for: "PNG inflated metadata")
        try options.reserve(
            PixelBuffer.byteCount(width: header.width, height: header.height, format: format), for: "PNG image pixels")
        var pixels = PixelBuffer(width: header.width, height: header.height, format: format)
        var message = [CChar](repeating: 0, count: 512)
        let status = pixels.withUnsafeMutablePlane { plane in
            message.withUnsafeMutableBufferPointer { m in
                lux_png_decode(
                    raw.baseAddress!.assumingMemoryBound(to: UInt8.self), raw.count, gray ? 1 : 4, sixteen ? 16 : 8,
                    plane.baseAddress.assumingMemoryBound(to: UInt8.self), plane.bytesPerRow, Int32(header.width),
                    Int32(header.height), m.baseAddress, m.count)
            }
        }
        guard status == 0 else { throw decodeError(cMessage(message), dataSize: raw.count) }
        pixels.colorSpace = colorSpace(header)
        var file = ImageFile(pixels: pixels, metadata: metadata(header), format: .png)
        if options.appliesOrientation { file.applyOrientation() }
        return file
    }

    /// The Exif, XMP and ICC profile the chunks hold.
    static func metadata(_ header: PNGHeader) -> ImageMetadata {
        var metadata = ImageMetadata()
        if let e = header.exif, let exif = try? EXIF(tiffBytes: e) { metadata.exif = exif }
        metadata.xmp = header.xmp
        metadata.iccProfile = header.iccProfile
        return metadata
    }

    /// The error for libpng's message while decoding `dataSize` bytes: truncation, or the library's complaint.
    static func decodeError(_ text: String, dataSize: Int) -> CodecError {
        if text.contains("truncated") || text.contains("Not enough image data") {
            return .truncated(what: "PNG image data (\(text))", offset: dataSize)
        }
        return .library(name: "libpng", message: text)
    }

    /// The colour space the chunks describe.
    static func colorSpace(_ h: PNGHeader) -> ColorSpace {
        if let c = h.cicp, c[2] == 0 {
            let primaries: ColorSpace? = c[0] == 1 ? .sRGB : c[0] == 12 ? .displayP3 : c[0] == 9 ? .itur2020 : nil
            if let p = primaries {
                switch c[1] {
                case 13:
                    return p.model == ColorSpace.itur2020.model
                        ? ColorSpace(
                            name: "BT.2020 (sRGB curve)", primaries: .rec2020, whitePoint: WhitePoint.d65,
                            transferFunction: .sRGB) : p
                case 8: return p.linearized()
                case 1, 6, 14, 15:
                    return ColorSpace(
                        name: p.name + " (BT.709 curve)", primaries: p.primaries!, whitePoint: p.whitePoint,
                        transferFunction: .rec709)
                default: break
                }
            }
        }
        if let icc = h.iccProfile, let space = ColorProfiles.colorSpace(fromProfile: icc) { return space }
        if h.sRGBIntent != nil { return h.isGray ? .sGray : .sRGB }
        let gray = h.isGray
        guard let g = h.gamma else { return gray ? .sGray : .sRGB }
        let decodingGamma = 1 / g
        let transfer: TransferFunction =
            abs(g - 1) < 0.01
            ? .linear : abs(g - 0.45455) < 0.005 ? (gray ? .gamma(2.2) : .sRGB) : .gamma(decodingGamma)
        if gray {
            return ColorSpace(
                name: "Gray (PNG gAMA)", model: .gray, whitePoint: WhitePoint.d65, transferFunction: transfer,
                isExtendedRange: false)
        }
        var primaries = RGBPrimaries.rec709
        var white = WhitePoint.d65
        if let c = h.chromaticities, c.allSatisfy({ $0 > 0 && $0 < 1 }) {
            white = Chromaticity(x: c[0], y: c[1])
            primaries = RGBPrimaries(
                red: Chromaticity(x: c[2], y: c[3]), green: Chromaticity(x: c[4], y: c[5]),
                blue: Chromaticity(x: c[6], y: c[7]))
        }
        let candidate = ColorSpace(
            name: "PNG gAMA/cHRM", primaries: primaries, whitePoint: white, transferFunction: transfer)
        for known in [ColorSpace.sRGB, .displayP3, .adobeRGB, .linearSRGB]
        where known.isColorimetricallyEqual(to: candidate)
            || (abs(g - 0.45455) < 0.005 && known.primaries == primaries && known.whitePoint == white
                && known.transferFunction == .sRGB)
        {
            return known
        }
        return candidate
    }

    // MARK: Encoding

    /// Encodes pixels as PNG (8- or 16-bit gray, RGB or RGBA) with Exif, XMP and colour information.
    ///
    /// - Throws: ``CodecError/invalidArgument(_:)`` for Bayer buffers; ``CodecError/library(name:message:)``
    ///   when libpng fails.
    public static func encode(
        _ pixels: PixelBuffer, metadata: ImageMetadata = ImageMetadata(), options: EncodingOptions = .default
    ) throws(CodecError) -> [UInt8] {
        let stream = try PNGStreamEncoder(
            width: pixels.width, height: pixels.height, pixelFormat: pixels.format, colorSpace: pixels.colorSpace,
            metadata: metadata, options: options,
            writesAlpha: IntegerEncoding.writesAlpha(pixels, policy: options.alpha))
        try stream.append(pixels)
        return try stream.finish()
    }

    /// The colour, Exif and XMP chunks written before IDAT.
    static func chunks(metadata: ImageMetadata, space: ColorSpace?, options: EncodingOptions) throws(CodecError)
        -> [(String, [UInt8])]
    {
        var chunks: [(String, [UInt8])] = []
        let isSRGB = space.map { $0.isColorimetricallyEqual(to: .sRGB) && !$0.isExtendedRange } ?? false
        if isSRGB, metadata.iccProfile == nil || options.colorSpace != nil || options.optimizesColorForSharing {
            chunks.append(("sRGB", [0]))  // PNG's compact way to say sRGB
        } else if let icc = ColorProfiles.profileToEmbed(for: space, original: metadata.iccProfile, options: options) {
            chunks.append(("iCCP", Array("ICC Profile".utf8) + [0, 0] + (try TIFFDecompression.deflate(icc))))
        } else if let space, let c = cicp(for: space) {
            chunks.append(("cICP", c))
        }
        if !metadata.exif.isEmpty { chunks.append(("eXIf", metadata.exif.tiffBytes(bigEndian: true))) }
        if let xmp = metadata.xmp { chunks.append(("iTXt", Array("XML:com.adobe.xmp".utf8) + [0, 0, 0, 0, 0] + xmp)) }
        return chunks
    }

    /// cICP values for spaces that have them (sRGB curve or linear; Display P3, sRGB, BT.2020 primaries).
    static func cicp(for space: ColorSpace) -> [UInt8]? {
        let primaries: UInt8
        if space.primaries == ColorSpace.sRGB.primaries {
            primaries = 1
        } else if space.primaries == ColorSpace.displayP3.primaries {
            primaries = 12
        } else if space.primaries == ColorSpace.itur2020.primaries {
            primaries = 9
        } else {
            return nil
        }
        guard space.whitePoint == WhitePoint.d65 else { return nil }
        if space.transferFunction.isApproximatelyEqual(to: .sRGB) { return [primaries, 13, 0, 1] }
        if space.isLinear { return [primaries, 8, 0, 1] }
        return nil
    }

    static func withChunkArray<R>(
        _ chunks: [(String, [UInt8])], _ body: (UnsafeBufferPointer<lux_png_chunk>) -> R
    ) -> R {
        func pin(_ i: Int, _ acc: [lux_png_chunk]) -> R {
            if i == chunks.count { return acc.withUnsafeBufferPointer(body) }
            return chunks[i].1.withUnsafeBufferPointer { data in
                var c = lux_png_chunk()
                let t = Array(chunks[i].0.utf8)
                c.type = (CChar(t[0]), CChar(t[1]), CChar(t[2]), CChar(t[3]), 0)
                c.data = data.baseAddress
                c.length = data.count
                return pin(i + 1, acc + [c])
            }
        }
        return pin(0, [])
    }
}
