internal import CLuxKernels
import LuxColor
public import LuxPixels

extension TIFF {
    /// Encodes pixels as a TIFF: 8/16-bit integer or 16/32-bit float, gray, RGB or RGBA (unassociated alpha,
    /// or associated when the buffer is premultiplied), with Exif, XMP and an ICC profile.
    ///
    /// Integer files are written in an integer-friendly version of the colour space (a linear or
    /// extended-range space gets the sRGB curve); float files keep the space as is.
    ///
    /// - Throws: ``CodecError/invalidArgument(_:)`` for Bayer buffers or an invalid tile size.
    public static func encode(
        _ pixels: PixelBuffer, metadata: ImageMetadata = ImageMetadata(), options: EncodingOptions = .default
    ) throws(CodecError) -> [UInt8] {
        guard !pixels.format.isBayer else {
            throw .invalidArgument(
                "a Bayer mosaic cannot be written as a TIFF image; develop it first (or write a DNG)")
        }
        let gray = [.gray8, .gray16, .grayFloat].contains(pixels.format)
        let sample: SampleType
        if options.sampleType == .automatic {
            switch pixels.format.componentType {
            case .uint8: sample = .uint8
            case .float16: sample = .float16
            case .float32: sample = .float32
            default: sample = .uint16
            }
        } else {
            sample = options.sampleType
        }
        let format: PixelFormat
        switch sample {
        case .uint8: format = gray ? .gray8 : .rgba8
        case .uint16, .automatic: format = gray ? .gray16 : .rgba16
        case .float16: format = gray ? .grayFloat : .rgbaHalf
        case .float32: format = gray ? .grayFloat : .rgbaFloat
        }
        let (prepared, space) = try IntegerEncoding.prepare(pixels, format: format, options: options)
        let alpha = !gray && IntegerEncoding.writesAlpha(prepared, policy: options.alpha)
        let spp = gray ? 1 : (alpha ? 4 : 3)
        let bytesPerSample = sample == .uint8 ? 1 : (sample == .float32 ? 4 : 2)
        let isFloat = sample == .float16 || sample == .float32

        var d = TIFFOutputDirectory()
        d[TIFFTag.imageWidth] = .longs([UInt32(prepared.width)])
        d[TIFFTag.imageLength] = .longs([UInt32(prepared.height)])
        d[TIFFTag.bitsPerSample] = .shorts(Array(repeating: UInt16(bytesPerSample * 8), count: spp))
        d[TIFFTag.photometric] = .shorts([gray ? 1 : 2])
        d[TIFFTag.samplesPerPixel] = .shorts([UInt16(spp)])
        d[TIFFTag.planarConfiguration] = .shorts([1])
        d[TIFFTag.xResolution] = .rationals([Rational(72, 1)])
        d[TIFFTag.yResolution] = .rationals([Rational(72, 1)])
        d[TIFFTag.resolutionUnit] = .shorts([2])
        if isFloat { d[TIFFTag.sampleFormat] = .shorts(Array(repeating: 3, count: spp)) }
        if alpha { d[TIFFTag.extraSamples] = .shorts([prepared.isPremultiplied ? 1 : 2]) }
        let deflate = options.tiffCompression == .deflate
        d[TIFFTag.compression] = .shorts([deflate ? 8 : 1])
        if deflate { d[TIFFTag.predictor] = .shorts([isFloat ? 3 : 2]) }

        // Chunks: strips of about 64 KiB, or tiles.
        let rowBytes = prepared.width * spp * bytesPerSample
        let chunkWidth: Int
        let chunkHeight: Int
        if let tile = options.tiffTileSize {
            guard tile >= 16, tile % 16 == 0, tile <= 8192 else {
                throw .invalidArgument("TIFF tile size \(tile) must be a multiple of 16 between 16 and 8192")
            }
            chunkWidth = tile
            chunkHeight = tile
            d[TIFFTag.tileWidth] = .longs([UInt32(tile)])
            d[TIFFTag.tileLength] = .longs([UInt32(tile)])
        } else {
            chunkWidth = prepared.width
            chunkHeight = max(1, min(prepared.height, 65536 / max(rowBytes, 1)))
            d[TIFFTag.rowsPerStrip] = .longs([UInt32(chunkHeight)])
        }
        let across = (prepared.width + chunkWidth - 1) / chunkWidth
        let down = (prepared.height + chunkHeight - 1) / chunkHeight
        var blobs: [TIFFBlob] = []
        blobs.reserveCapacity(across * down)
        for i in 0..<(across * down) {
            let x0 = (i % across) * chunkWidth
            let y0 = (i / across) * chunkHeight
            let rows = options.tiffTileSize == nil ? min(chunkHeight, prepared.height - y0) : chunkHeight
            var bytes = chunkBytes(
                prepared, x0: x0, y0: y0, width: chunkWidth, rows: rows, spp: spp, bytesPerSample: bytesPerSample,
                sample: sample)
            if deflate {
                applyPredictor(
                    &bytes, width: chunkWidth, rows: rows, spp: spp, bytesPerSample: bytesPerSample, isFloat: isFloat)
                bytes = try TIFFDecompression.deflate(bytes)
            }
            blobs.append(.bytes(bytes))
        }
        d.data = TIFFImageData(
            offsetsTag: options.tiffTileSize == nil ? TIFFTag.stripOffsets : TIFFTag.tileOffsets,
            countsTag: options.tiffTileSize == nil ? TIFFTag.stripByteCounts : TIFFTag.tileByteCounts, blobs: blobs)
        if let icc = ColorProfiles.profileToEmbed(for: space, original: metadata.iccProfile, options: options) {
            d[TIFFTag.iccProfile] = .undefined(icc)
        }
        if let xmp = metadata.xmp { d[TIFFTag.xmp] = .bytes(xmp) }
        var exif = metadata.exif
        if exif.exifDirectory() != nil {
            exif = exif.completedForImage(
                width: prepared.width, height: prepared.height,
                isWideGamut: !(space?.isColorimetricallyEqual(to: .sRGB) ?? true),
                isYCbCr: false)
            // Exif reserves the pixel dimensions for compressed files; the resolution tags are already in IFD0.
            exif.pixelXDimension = nil
            exif.pixelYDimension = nil
            exif.additionalFields.removeAll {
                $0.directory == .primary
                    && [TIFFTag.xResolution, TIFFTag.yResolution, TIFFTag.resolutionUnit].contains($0.tag)
            }
        }
        if exif.software == nil { exif.software = "Lux" }
        exif.merge(into: &d)
        return TIFFEncoder.encode(d, bigEndian: false)
    }

    /// The little-endian bytes of one chunk (edge tiles padded by repeating the last column/row).
    static func chunkBytes(
        _ image: PixelBuffer, x0: Int, y0: Int, width: Int, rows: Int, spp: Int, bytesPerSample: Int, sample: SampleType
    ) -> [UInt8] {
        let rowBytes = width * spp * bytesPerSample
        var out = [UInt8](repeating: 0, count: rowBytes * rows)
        let channels = image.format.channelCount == 1 ? 1 : 4
        let w = image.width
        let h = image.height
        out.withUnsafeMutableBytes { dst in
            image.withUnsafePlane { plane in
                for r in 0..<rows {
                    let y = min(y0 + r, h - 1)
                    let d = dst.baseAddress! + r * rowBytes
                    for x in 0..<width {
                        let sx = min(x0 + x, w - 1)
                        for c in 0..<spp {
                            let si = sx * channels + c
                            let di = (x * spp + c) * bytesPerSample
                            switch sample {
                            case .uint8:
                                d.storeBytes(of: plane.row(y, as: UInt8.self)[si], toByteOffset: di, as: UInt8.self)
                            case .uint16, .float16, .automatic:
                                d.storeBytes(
                                    of: plane.row(y, as: UInt16.self)[si].littleEndian, toByteOffset: di,
                                    as: UInt16.self)
                            case .float32:
                                d.storeBytes(
                                    of: plane.row(y, as: UInt32.self)[si].littleEndian, toByteOffset: di,
                                    as: UInt32.self)
                            }
                        }
                    }
                }
            }
        }
        // Gray float16 is stored as grayFloat in memory: narrow it here.
        if sample == .float16, channels == 1 {
            var halves = [UInt8](repeating: 0, count: width * rows * 2)
            image.withUnsafePlane { plane in
                for r in 0..<rows {
                    let y = min(y0 + r, h - 1)
                    for x in 0..<width {
                        var f = plane.row(y, as: Float.self)[min(x0 + x, w - 1)]
                        var hv: UInt16 = 0
                        lux_float_to_half(&f, &hv, 1)
                        halves[(r * width + x) * 2] = UInt8(hv & 0xFF)
                        halves[(r * width + x) * 2 + 1] = UInt8(hv >> 8)
                    }
                }
            }
            return halves
        }
        return out
    }

    /// Horizontal differencing (predictor 2) for integers, or the floating-point predictor 3.
    static func applyPredictor(
        _ bytes: inout [UInt8], width: Int, rows: Int, spp: Int, bytesPerSample: Int, isFloat: Bool
    ) {
        let n = width * spp
        let rowBytes = n * bytesPerSample
        if isFloat {
            var plane = [UInt8](repeating: 0, count: rowBytes)
            for r in 0..<rows {
                let base = r * rowBytes
                // Regroup into byte planes, most significant first (the file is little-endian).
                for j in 0..<n {
                    for b in 0..<bytesPerSample {
                        plane[b * n + j] = bytes[base + j * bytesPerSample + (bytesPerSample - 1 - b)]
                    }
                }
                for i in stride(from: rowBytes - 1, through: spp, by: -1) { plane[i] = plane[i] &- plane[i - spp] }
                for i in 0..<rowBytes { bytes[base + i] = plane[i] }
            }
        } else if bytesPerSample == 1 {
            for r in 0..<rows {
                let base = r * rowBytes
                for i in stride(from: n - 1, through: spp, by: -1) {
                    bytes[base + i] = bytes[base + i] &- bytes[base + i - spp]
                }
            }
        } else {
            bytes.withUnsafeMutableBytes { raw in
                for r in 0..<rows {
                    let p = (raw.baseAddress! + r * rowBytes).assumingMemoryBound(to: UInt16.self)
                    for i in stride(from: n - 1, through: spp, by: -1) {
                        p[i] = (UInt16(littleEndian: p[i]) &- UInt16(littleEndian: p[i - spp])).littleEndian
                    }
                }
            }
        }
    }
}
