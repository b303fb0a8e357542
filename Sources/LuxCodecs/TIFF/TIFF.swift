internal import CLuxKernels
import LuxColor
import LuxPixels

/// TIFF reading and writing (the first image of a file).
///
/// Reading accepts 1–16-bit integer and 16/24/32-bit float samples, gray, RGB and palette images with or
/// without alpha, strips or tiles, chunky or planar, uncompressed, Deflate, LZW, PackBits or JPEG (compression 7:
/// 8-bit Y′CbCr, RGB or gray decoded by libjpeg-turbo with the file's JPEGTables), with
/// predictors 2 and 3; it returns `.gray8/.gray16/.grayFloat` or `.rgba8/.rgba16/.rgbaHalf/.rgbaFloat`
/// and reads the ICC profile (tag 34675), XMP (700) and Exif. CMYK (separated, four 8- or 16-bit inks, chunky or
/// planar, with or without an unassociated alpha) images are converted to sRGB through their embedded profile by
/// Little CMS, or as DeviceCMYK without one. Old-style JPEG (compression 6) is refused with
/// ``CodecError/unsupported(what:reason:)``. Writing produces baseline-compatible files
/// (strips by default, tiles on request; uncompressed or Deflate).
public enum TIFF {
    /// Decodes a TIFF file held in memory.
    ///
    /// - Throws: ``CodecError`` for damaged, truncated, unsupported or oversized images.
    public static func decode(_ bytes: [UInt8], options: DecodingOptions = .default) throws(CodecError) -> ImageFile {
        try withBytes(of: bytes) { raw throws(CodecError) in try decode(raw, options: options) }
    }

    /// What TIFF decoding will produce for a directory (shared by ``decode(_:options:)`` and header reads).
    struct Layout {
        var width: Int
        var height: Int
        var bitsPerSample: Int
        var samplesPerPixel: Int
        var photometric: Int
        var isFloat: Bool
        var alphaIndex: Int?
        var premultiplied: Bool
        var planar: Bool
        var compression: Int
        var predictor: Int
        var output: PixelFormat
    }

    static func layout(_ p: TIFFParser, _ d: TIFFDirectory) throws(CodecError) -> Layout {
        guard let w = try p.integer(d, TIFFTag.imageWidth), let h = try p.integer(d, TIFFTag.imageLength) else {
            throw .malformed(what: "TIFF ImageWidth/ImageLength", offset: d.offset, reason: "missing")
        }
        let spp = try p.integer(d, TIFFTag.samplesPerPixel) ?? 1
        let bpsList = try p.integers(d, TIFFTag.bitsPerSample) ?? [1]
        let bps = bpsList.first ?? 1
        guard (1...8).contains(spp), bpsList.allSatisfy({ $0 == bps }) else {
            throw .unsupported(
                what: "TIFF with \(spp) samples of \(bpsList) bits", reason: "all samples must have the same size")
        }
        let photometric = try p.integer(d, TIFFTag.photometric) ?? (spp >= 3 ? 2 : 1)
        let compression = try p.integer(d, TIFFTag.compression) ?? 1
        guard compression != 6 else {
            throw .unsupported(
                what: "old-style JPEG TIFF (compression 6)",
                reason: "TIFF 6.0's first JPEG scheme, replaced by compression 7 in 1995, is not read; "
                    + "libtiff's tiffcp can often rewrite such a file (tiffcp -c lzw)")
        }
        let sampleFormat = try p.integer(d, TIFFTag.sampleFormat) ?? 1
        guard sampleFormat == 1 || sampleFormat == 3 else {
            throw .unsupported(
                what: "TIFF SampleFormat \(sampleFormat)",
                reason: "unsigned integer and IEEE float samples are supported")
        }
        let isFloat = sampleFormat == 3
        if isFloat {
            guard [16, 24, 32].contains(bps) else {
                throw .unsupported(what: "\(bps)-bit float TIFF", reason: "16, 24 or 32 bits")
            }
        } else {
            guard (1...16).contains(bps) else {
                throw .unsupported(what: "\(bps)-bit integer TIFF", reason: "1 to 16 bits")
            }
        }
        let colorSamples: Int
        switch photometric {
        case 0, 1: colorSamples = 1
        case 2: colorSamples = 3
        case 3:
            colorSamples = 1
            guard !isFloat, bps <= 8, d.has(320) else {
                throw .malformed(
                    what: "TIFF palette image", offset: d.offset, reason: "needs a ColorMap and ≤ 8-bit indices")
            }
        case 5:
            // C, M, Y, K go where R, G, B, A would; decoding converts them to sRGB (ProfileConversion).
            // A fifth sample is an unassociated alpha (ExtraSamples 2), kept beside the inks while they are converted.
            let extra = try p.integers(d, TIFFTag.extraSamples) ?? []
            guard spp == 4 || spp == 5 && extra == [2], !isFloat, bps == 8 || bps == 16,
                (try p.integer(d, 332) ?? 1) == 1
            else {
                throw .unsupported(
                    what: "separated TIFF with \(spp) samples of \(bps) bits (extra samples \(extra))",
                    reason: "CMYK TIFFs of four 8- or 16-bit inks, with or without an unassociated alpha, are supported"
                )
            }
            colorSamples = 4
        case 6:
            // JPEG-compressed Y′CbCr: libjpeg-turbo turns the samples into R, G, B.
            guard compression == 7, spp == 3, bps == 8 else {
                throw .unsupported(
                    what: "Y′CbCr TIFF", reason: "only JPEG-compressed (compression 7) 8-bit Y′CbCr is supported")
            }
            colorSamples = 3
        case 32803, 34892: throw .unsupported(what: "raw TIFF/EP data", reason: "read the file as DNG")
        default:
            throw .unsupported(
                what: "TIFF PhotometricInterpretation \(photometric)", reason: "gray, RGB and palette are supported")
        }
        guard spp >= colorSamples else {
            throw .malformed(
                what: "TIFF SamplesPerPixel", offset: d.offset, reason: "\(spp) samples for photometric \(photometric)")
        }
        let extra = try p.integers(d, TIFFTag.extraSamples) ?? []
        var alphaIndex: Int?
        var premultiplied = false
        if spp > colorSamples {
            let kind = extra.first ?? 0
            if kind == 1 || kind == 2 || extra.isEmpty && spp == colorSamples + 1 && colorSamples == 3 {
                alphaIndex = colorSamples
                premultiplied = kind == 1
            }
        }
        let output: PixelFormat
        let gray = colorSamples == 1 && photometric != 3 && alphaIndex == nil
        if isFloat {
            output = gray ? .grayFloat : (bps == 16 ? .rgbaHalf : .rgbaFloat)
        } else if bps > 8 {
            output = gray ? .gray16 : .rgba16
        } else {
            output = gray ? .gray8 : .rgba8
        }
        return Layout(
            width: w, height: h, bitsPerSample: bps, samplesPerPixel: spp, photometric: photometric, isFloat: isFloat,
            alphaIndex: alphaIndex, premultiplied: premultiplied,
            planar: (try p.integer(d, TIFFTag.planarConfiguration)) == 2,
            compression: compression,
            predictor: try p.integer(d, TIFFTag.predictor) ?? 1,
            output: output)
    }

    /// Everything needed to decode the chunks of IFD0: the layout, where the chunks are, how they are stored,
    /// the palette, and the metadata and colour space of the image.
    struct Source {
        var layout: Layout
        var chunks: TIFFChunkLayout
        var format: ChunkFormat
        var palette: [UInt16]
        var metadata: ImageMetadata
        var colorSpace: ColorSpace

        /// Reads IFD0 of a parsed file, checking the size against the limits.
        init(_ p: TIFFParser, limits: DecodingLimits) throws(CodecError) {
            let d = try p.directory(at: p.firstDirectoryOffset, name: "IFD0")
            let l = try TIFF.layout(p, d)
            try limits.check(
                width: l.width, height: l.height, bytesPerPixel: l.output.bytesPerPixel(), what: "TIFF image")
            layout = l
            chunks = try TIFFChunkLayout(
                parser: p, directory: d, width: l.width, height: l.height, planes: l.planar ? l.samplesPerPixel : 1,
                limits: limits, what: "TIFF image")
            format = ChunkFormat(
                bitsPerSample: l.bitsPerSample, samplesPerPixel: l.planar ? 1 : l.samplesPerPixel, isFloat: l.isFloat,
                compression: l.compression, predictor: l.predictor, bigEndian: p.bigEndian, keepsBytes: true,
                jpegTables: l.compression == 7 ? try? p.rawBytes(d, 347) : nil)
            palette = []
            if l.photometric == 3 {
                palette = (try p.integers(d, 320) ?? []).map { UInt16(clamping: $0) }
                guard palette.count == 3 << l.bitsPerSample else {
                    throw .malformed(
                        what: "TIFF ColorMap", offset: d[320]?.entryOffset ?? 0,
                        reason: "\(palette.count) entries for \(l.bitsPerSample)-bit indices")
                }
            }
            metadata = ImageMetadata()
            metadata.exif = EXIF(parser: p, primary: d, keepsUnknownPrimaryFields: false)
            metadata.iccProfile = try? p.rawBytes(d, TIFFTag.iccProfile)
            metadata.xmp = try? p.rawBytes(d, TIFFTag.xmp)
            colorSpace = TIFF.colorSpace(icc: metadata.iccProfile, layout: l)
        }

        /// Decodes chunk `i` (its stored bytes in `data`) into `out`, whose pixel (0, 0) is image pixel
        /// (`origin.x`, `origin.y`); a CMYK image's alpha goes to `alpha` (one sample a pixel, `out`'s depth).
        func decodeChunk(
            _ i: Int, data: UnsafeRawBufferPointer, into out: MutableRawPlane, alpha: MutableRawPlane? = nil,
            origin: (x: Int, y: Int)
        ) throws(CodecError) {
            var region = chunks.region(i)
            let samples = try TIFFChunkDecoder.decode(
                data, width: chunks.chunkWidth, rows: chunks.storedRows(i), format: format,
                what: "TIFF \(chunks.isTiled ? "tile" : "strip") \(i)", offset: chunks.offsets[i])
            region.x -= origin.x
            region.y -= origin.y
            TIFF.place(
                samples, region: region, chunkWidth: chunks.chunkWidth, layout: layout, palette: palette, into: out,
                alpha: alpha)
        }
    }

    static func decode(_ raw: UnsafeRawBufferPointer, options: DecodingOptions) throws(CodecError) -> ImageFile {
        let options = options.budgeted()
        let p = try TIFFParser(raw)
        let source = try Source(p, limits: options.limits)
        let l = source.layout
        try options.reserve(
            (source.metadata.iccProfile?.count ?? 0) + (source.metadata.xmp?.count ?? 0) + source.palette.count * 2,
            for: "TIFF metadata")
        let threads = try options.budget!.reserveChunkedDecode(
            outputBytes: l.width * l.height * l.output.bytesPerPixel(),
            chunkBytes: source.format.workingBytes(width: source.chunks.chunkWidth, rows: source.chunks.chunkHeight),
            threads: options.threads, what: "TIFF image")
        var pixels = PixelBuffer(width: l.width, height: l.height, format: l.output)
        pixels.isPremultiplied = l.premultiplied
        let plane = pixels.unsafeSharedMutablePlane()
        // A CMYK image's inks fill all four channels until they are converted: its alpha waits beside them.
        let cmykAlpha =
            l.photometric == 5 && l.alphaIndex != nil
            ? PixelBuffer(width: l.width, height: l.height, format: l.output == .rgba8 ? .gray8 : .gray16) : nil
        let alphaPlane = cmykAlpha?.unsafeSharedMutablePlane()
        let failure = FirstError()
        let reader = p.reader
        let chunks = source.chunks
        Parallel.forEachBand(chunks.count, threads: threads, minimumBand: 1) { range in
            for i in range {
                if failure.hasError { return }
                do throws(CodecError) {
                    let data = try reader.view(chunks.offsets[i], chunks.counts[i], "TIFF chunk \(i)")
                    try source.decodeChunk(i, data: data, into: plane, alpha: alphaPlane, origin: (0, 0))
                } catch {
                    failure.record(error)
                }
            }
        }
        if let e = failure.error { throw e }
        withExtendedLifetime(pixels) {}
        withExtendedLifetime(cmykAlpha) {}
        var metadata = source.metadata
        if l.photometric == 5 {
            try ProfileConversion.convertCMYK(
                &pixels, inverted: false,
                profile: try ProfileConversion.cmykProfile(metadata.iccProfile, name: options.sourceName),
                intent: options.renderingIntent, threads: options.threads, name: options.sourceName)
            if let cmykAlpha { insertAlpha(cmykAlpha, into: &pixels) }
            // The pixels are sRGB now: the CMYK profile no longer describes them.
            metadata.iccProfile = nil
        }
        pixels.colorSpace = source.colorSpace
        var file = ImageFile(pixels: pixels, metadata: metadata, format: .tiff)
        if options.appliesOrientation { file.applyOrientation() }
        return file
    }

    /// Copies a one-channel `alpha` (8 or 16 bits) into the alpha channel of `pixels` (RGBA of the same depth).
    private static func insertAlpha(_ alpha: PixelBuffer, into pixels: inout PixelBuffer) {
        let width = pixels.width
        let sixteen = pixels.format == .rgba16
        pixels.withUnsafeMutablePlane { destination in
            alpha.withUnsafePlane { source in
                for y in 0..<destination.height {
                    if sixteen {
                        let (from, to) = (source.row(y, as: UInt16.self), destination.row(y, as: UInt16.self))
                        for x in 0..<width { to[4 * x + 3] = from[x] }
                    } else {
                        let (from, to) = (source.row(y, as: UInt8.self), destination.row(y, as: UInt8.self))
                        for x in 0..<width { to[4 * x + 3] = from[x] }
                    }
                }
            }
        }
    }

    static func colorSpace(icc: [UInt8]?, layout l: Layout) -> ColorSpace {
        if l.photometric == 5 { return .sRGB }
        if let icc, let space = ColorProfiles.colorSpace(fromProfile: icc) {
            // Floating-point samples hold values beyond 0…1 (an ICC profile cannot say so): keep them.
            return l.isFloat ? ColorProfiles.extendedRange(space) : space
        }
        let gray = l.photometric == 0 || l.photometric == 1
        if l.isFloat { return gray ? .linearGray : .extendedLinearSRGB }
        return gray ? .sGray : .sRGB
    }

    /// Writes a decoded chunk into the output plane, converting the sample layout.
    static func place(
        _ samples: ChunkSamples, region: (x: Int, y: Int, width: Int, height: Int, plane: Int), chunkWidth: Int,
        layout l: Layout, palette: [UInt16], into out: MutableRawPlane, alpha: MutableRawPlane? = nil
    ) {
        let spp = l.planar ? 1 : l.samplesPerPixel
        let rowSamples = chunkWidth * spp
        samples.withBase { base, kind in
            let direct = !l.planar && (l.photometric == 1 || l.photometric == 2) && spp <= 4
            switch (kind, l.output.componentType) {
            case (.u8, .uint8) where direct && l.bitsPerSample == 8:
                placeDirect(base.assumingMemoryBound(to: UInt8.self), rowSamples, region, spp, l, opaque: .max, out)
            case (.u16, .uint16) where direct && l.bitsPerSample == 16:
                placeDirect(base.assumingMemoryBound(to: UInt16.self), rowSamples, region, spp, l, opaque: .max, out)
            case (.f16, .float16) where direct:
                placeDirect(base.assumingMemoryBound(to: UInt16.self), rowSamples, region, spp, l, opaque: 0x3C00, out)
            case (.f32, .float32) where direct:
                placeDirect(
                    base.assumingMemoryBound(to: UInt32.self), rowSamples, region, spp, l,
                    opaque: Float(1).bitPattern, out)
            default:
                placeGeneral(base, kind, rowSamples, region, spp, l, palette, out, alpha)
            }
        }
    }

    /// Chunky min-is-black gray or RGB(A) samples whose type matches the output: row copies or an alpha fill.
    ///
    /// `opaque` is the bit pattern of full alpha.
    static func placeDirect<T: FixedWidthInteger>(
        _ src: UnsafePointer<T>, _ rowSamples: Int, _ region: (x: Int, y: Int, width: Int, height: Int, plane: Int),
        _ spp: Int, _ l: Layout, opaque: T, _ out: MutableRawPlane
    ) {
        let outChannels = l.output.channelCount == 1 ? 1 : 4
        for r in 0..<region.height {
            let s = src + r * rowSamples
            let d = out.row(region.y + r, as: T.self) + region.x * outChannels
            switch (outChannels, spp) {
            case (1, 1), (4, 4):
                d.update(from: s, count: region.width * outChannels)
            case (4, 3) where T.self == UInt8.self:
                lux_rgb8_to_rgba8(
                    UnsafeRawPointer(s).assumingMemoryBound(to: UInt8.self),
                    UnsafeMutableRawPointer(d).assumingMemoryBound(to: UInt8.self), region.width)
            case (4, 3):
                for x in 0..<region.width {
                    d[4 * x] = s[3 * x]
                    d[4 * x + 1] = s[3 * x + 1]
                    d[4 * x + 2] = s[3 * x + 2]
                    d[4 * x + 3] = opaque
                }
            case (4, 2):  // gray + alpha
                for x in 0..<region.width {
                    let v = s[2 * x]
                    d[4 * x] = v
                    d[4 * x + 1] = v
                    d[4 * x + 2] = v
                    d[4 * x + 3] = s[2 * x + 1]
                }
            case (4, 1):
                for x in 0..<region.width {
                    let v = s[x]
                    d[4 * x] = v
                    d[4 * x + 1] = v
                    d[4 * x + 2] = v
                    d[4 * x + 3] = opaque
                }
            default:
                break
            }
        }
    }

    /// Every other layout, sample by sample: palettes, low bit depths, min-is-white, planar storage, floats.
    static func placeGeneral(
        _ base: UnsafeRawPointer, _ kind: ChunkSamples.Kind, _ rowSamples: Int,
        _ region: (x: Int, y: Int, width: Int, height: Int, plane: Int), _ spp: Int, _ l: Layout, _ palette: [UInt16],
        _ out: MutableRawPlane, _ alpha: MutableRawPlane?
    ) {
        let outChannels = l.output.channelCount == 1 ? 1 : 4
        let invert = l.photometric == 0
        let maxCode = l.isFloat ? 1 : (1 << l.bitsPerSample) - 1
        // The output channels each stored sample of a pixel feeds.
        func channels(_ s: Int) -> [Int] {
            if l.photometric == 3 { return s == 0 ? [0] : [] }
            if l.photometric == 0 || l.photometric == 1 {
                if s == 0 { return outChannels == 1 ? [0] : [0, 1, 2] }
                return s == l.alphaIndex ? [3] : []
            }
            if s < 3 || l.photometric == 5 && s < 4 { return [s] }
            // A CMYK image's alpha (channel 4) goes to the separate alpha plane.
            return s == l.alphaIndex ? [l.photometric == 5 ? 4 : 3] : []
        }
        let sampleIndices = l.planar ? [region.plane] : Array(0..<l.samplesPerPixel)
        let targets = sampleIndices.map { channels($0) }
        // Opaque alpha for sources without one (planar chunks: only the first plane sets it).
        if outChannels == 4, l.alphaIndex == nil, l.photometric != 5, !l.planar || region.plane == 0 {
            for r in 0..<region.height {
                for x in 0..<region.width {
                    let a = (region.x + x) * 4 + 3
                    switch l.output {
                    case .rgba8: out.row(region.y + r, as: UInt8.self)[a] = 255
                    case .rgba16: out.row(region.y + r, as: UInt16.self)[a] = 65535
                    case .rgbaHalf: out.row(region.y + r, as: UInt16.self)[a] = 0x3C00
                    default: out.row(region.y + r, as: Float.self)[a] = 1
                    }
                }
            }
        }
        let paletteSize = 1 << min(l.bitsPerSample, 16)
        for r in 0..<region.height {
            for x in 0..<region.width {
                for (k, chans) in targets.enumerated() where !chans.isEmpty {
                    let i = r * rowSamples + x * spp + (l.planar ? 0 : k)
                    let pixel = (region.x + x) * outChannels
                    if kind == .f32 || kind == .f16 {
                        var v =
                            kind == .f32
                            ? base.assumingMemoryBound(to: Float.self)[i]
                            : Float(Float16(bitPattern: base.assumingMemoryBound(to: UInt16.self)[i]))
                        if invert, chans.first != 3 { v = 1 - v }
                        for c in chans {
                            if l.output == .rgbaHalf {
                                var h: UInt16 = 0
                                lux_float_to_half(&v, &h, 1)
                                out.row(region.y + r, as: UInt16.self)[pixel + c] = h
                            } else {
                                out.row(region.y + r, as: Float.self)[pixel + c] = v
                            }
                        }
                        continue
                    }
                    var v =
                        kind == .u8
                        ? Int(base.assumingMemoryBound(to: UInt8.self)[i])
                        : Int(base.assumingMemoryBound(to: UInt16.self)[i])
                    if l.photometric == 3 {
                        let index = min(v, paletteSize - 1)
                        let d = out.row(region.y + r, as: UInt8.self) + pixel
                        for c in 0..<3 { d[c] = UInt8(palette[c * paletteSize + index] >> 8) }
                        continue
                    }
                    if invert, chans.first != 3 { v = maxCode - v }
                    if chans == [4] {
                        // CMYK inks are 8 or 16 bits, as their alpha is.
                        guard let alpha else { continue }
                        if kind == .u8 {
                            alpha.row(region.y + r, as: UInt8.self)[region.x + x] = UInt8(truncatingIfNeeded: v)
                        } else {
                            alpha.row(region.y + r, as: UInt16.self)[region.x + x] = UInt16(truncatingIfNeeded: v)
                        }
                        continue
                    }
                    if l.output.componentType == .uint8 {
                        let b = UInt8(clamping: l.bitsPerSample == 8 ? v : v * 255 / max(maxCode, 1))
                        for c in chans { out.row(region.y + r, as: UInt8.self)[pixel + c] = b }
                    } else {
                        let w =
                            l.bitsPerSample == 16
                            ? UInt16(clamping: v) : UInt16(clamping: (v * 65535 + maxCode / 2) / max(maxCode, 1))
                        for c in chans { out.row(region.y + r, as: UInt16.self)[pixel + c] = w }
                    }
                }
            }
        }
    }
}

extension DNGReader {
    /// Sets alpha to opaque in an RGBA buffer whose source had no alpha.
    static func fillOpaque(_ buffer: inout PixelBuffer) {
        let w = buffer.width
        let format = buffer.format
        buffer.withUnsafeMutablePlane { plane in
            for y in 0..<plane.height {
                switch format {
                case .rgba8:
                    let r = plane.row(y, as: UInt8.self)
                    for x in 0..<w { r[4 * x + 3] = 255 }
                case .rgba16:
                    let r = plane.row(y, as: UInt16.self)
                    for x in 0..<w { r[4 * x + 3] = 65535 }
                case .rgbaHalf:
                    let r = plane.row(y, as: UInt16.self)
                    for x in 0..<w { r[4 * x + 3] = 0x3C00 }
                case .rgbaFloat:
                    let r = plane.row(y, as: Float.self)
                    for x in 0..<w { r[4 * x + 3] = 1 }
                default: return
                }
            }
        }
    }
}
