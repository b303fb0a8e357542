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
        let plan = try SamplePlan(pixelFormat: pixels.format, options: options)
        let (prepared, space) = try IntegerEncoding.prepare(pixels, format: plan.memoryFormat, options: options)
        let l = plan.storing(alpha: !plan.gray && IntegerEncoding.writesAlpha(prepared, policy: options.alpha))
        var d = directory(
            width: prepared.width, height: prepared.height, plan: l, premultiplied: prepared.isPremultiplied,
            space: space, metadata: metadata, options: options)

        // Chunks: strips of about 64 KiB, or tiles.
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
            chunkHeight = l.rowsPerStrip(width: prepared.width, height: prepared.height)
            d[TIFFTag.rowsPerStrip] = .longs([UInt32(chunkHeight)])
        }
        let across = (prepared.width + chunkWidth - 1) / chunkWidth
        let down = (prepared.height + chunkHeight - 1) / chunkHeight
        let tiled = options.tiffTileSize != nil
        let chunks = try encodeChunks(count: across * down, plan: l, options: options) { i in
            let y0 = (i / across) * chunkHeight
            return chunkBytes(
                prepared, x0: (i % across) * chunkWidth, y0: y0, width: chunkWidth,
                rows: tiled ? chunkHeight : min(chunkHeight, prepared.height - y0), plan: l)
        }
        d.data = TIFFImageData(
            offsetsTag: tiled ? TIFFTag.tileOffsets : TIFFTag.stripOffsets,
            countsTag: tiled ? TIFFTag.tileByteCounts : TIFFTag.stripByteCounts, blobs: chunks.map { .bytes($0) })
        return TIFFEncoder.encode(d, bigEndian: false)
    }

    /// How a writer stores samples: the sample type, the in-memory format pixels are converted to first, and
    /// the samples per pixel.
    struct SamplePlan {
        var sample: SampleType
        var gray: Bool
        var memoryFormat: PixelFormat
        var samplesPerPixel: Int
        var deflate: Bool

        var bytesPerSample: Int { sample == .uint8 ? 1 : (sample == .float32 ? 4 : 2) }
        var isFloat: Bool { sample == .float16 || sample == .float32 }
        var hasAlpha: Bool { samplesPerPixel == 4 }

        /// - Throws: ``CodecError/invalidArgument(_:)`` for Bayer formats.
        init(pixelFormat: PixelFormat, options: EncodingOptions) throws(CodecError) {
            guard !pixelFormat.isBayer else {
                throw .invalidArgument(
                    "a Bayer mosaic cannot be written as a TIFF image; develop it first (or write a DNG)")
            }
            gray = [.gray8, .gray16, .grayFloat].contains(pixelFormat)
            if options.sampleType == .automatic {
                switch pixelFormat.componentType {
                case .uint8: sample = .uint8
                case .float16: sample = .float16
                case .float32: sample = .float32
                default: sample = .uint16
                }
            } else {
                // 10-bit samples are a HEIC depth; a TIFF stores them in 16 bits.
                sample = options.sampleType == .uint10 ? .uint16 : options.sampleType
            }
            switch sample {
            case .uint8: memoryFormat = gray ? .gray8 : .rgba8
            case .uint16, .uint10, .automatic: memoryFormat = gray ? .gray16 : .rgba16
            case .float16: memoryFormat = gray ? .grayFloat : .rgbaHalf
            case .float32: memoryFormat = gray ? .grayFloat : .rgbaFloat
            }
            samplesPerPixel = gray ? 1 : 3
            deflate = options.tiffCompression == .deflate
        }

        /// The plan with or without an alpha sample (RGB only).
        func storing(alpha: Bool) -> SamplePlan {
            var plan = self
            plan.samplesPerPixel = gray ? 1 : (alpha ? 4 : 3)
            return plan
        }

        /// Rows per strip: strips of about 64 KiB.
        func rowsPerStrip(width: Int, height: Int) -> Int {
            max(1, min(height, 65536 / max(width * samplesPerPixel * bytesPerSample, 1)))
        }
    }

    /// IFD0 without its image data: sample description, compression, resolution, ICC, XMP and Exif.
    static func directory(
        width: Int, height: Int, plan l: SamplePlan, premultiplied: Bool, space: ColorSpace?, metadata: ImageMetadata,
        options: EncodingOptions
    ) -> TIFFOutputDirectory {
        let spp = l.samplesPerPixel
        var d = TIFFOutputDirectory()
        d[TIFFTag.imageWidth] = .longs([UInt32(width)])
        d[TIFFTag.imageLength] = .longs([UInt32(height)])
        d[TIFFTag.bitsPerSample] = .shorts(Array(repeating: UInt16(l.bytesPerSample * 8), count: spp))
        d[TIFFTag.photometric] = .shorts([l.gray ? 1 : 2])
        d[TIFFTag.samplesPerPixel] = .shorts([UInt16(spp)])
        d[TIFFTag.planarConfiguration] = .shorts([1])
        d[TIFFTag.xResolution] = .rationals([Rational(72, 1)])
        d[TIFFTag.yResolution] = .rationals([Rational(72, 1)])
        d[TIFFTag.resolutionUnit] = .shorts([2])
        if l.isFloat { d[TIFFTag.sampleFormat] = .shorts(Array(repeating: 3, count: spp)) }
        if l.hasAlpha { d[TIFFTag.extraSamples] = .shorts([premultiplied ? 1 : 2]) }
        d[TIFFTag.compression] = .shorts([l.deflate ? 8 : 1])
        if l.deflate { d[TIFFTag.predictor] = .shorts([l.isFloat ? 3 : 2]) }
        if let icc = ColorProfiles.profileToEmbed(for: space, original: metadata.iccProfile, options: options) {
            d[TIFFTag.iccProfile] = .undefined(icc)
        }
        if let xmp = metadata.xmp { d[TIFFTag.xmp] = .bytes(xmp) }
        var exif = metadata.exif
        if exif.exifDirectory() != nil {
            exif = exif.completedForImage(
                width: width, height: height, isWideGamut: !(space?.isColorimetricallyEqual(to: .sRGB) ?? true),
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
        return d
    }

    /// Makes `count` chunks in parallel — `bytes(i)` gives chunk `i`'s samples — applying the predictor and
    /// Deflate when the plan asks for them.
    static func encodeChunks(
        count: Int, plan l: SamplePlan, options: EncodingOptions, _ bytes: @Sendable (Int) -> ([UInt8], width: Int)
    ) throws(CodecError) -> [[UInt8]] {
        nonisolated(unsafe) let slots = UnsafeMutableBufferPointer<[UInt8]>.allocate(capacity: count)
        slots.initialize(repeating: [])
        defer { slots.deinitialize().deallocate() }
        let failure = FirstError()
        Parallel.forEachBand(count, threads: options.threads, minimumBand: 1) { range in
            for i in range {
                var (chunk, width) = bytes(i)
                if l.deflate {
                    let rows = chunk.count / (width * l.samplesPerPixel * l.bytesPerSample)
                    applyPredictor(
                        &chunk, width: width, rows: rows, spp: l.samplesPerPixel, bytesPerSample: l.bytesPerSample,
                        isFloat: l.isFloat)
                    do throws(CodecError) { chunk = try TIFFDecompression.deflate(chunk) } catch {
                        failure.record(error)
                    }
                }
                slots[i] = chunk
            }
        }
        if let error = failure.error { throw error }
        return Array(slots)
    }

    /// The little-endian bytes of one chunk (edge tiles padded by repeating the last column/row).
    static func chunkBytes(
        _ image: PixelBuffer, x0: Int, y0: Int, width: Int, rows: Int, plan: SamplePlan
    ) -> ([UInt8], width: Int) {
        let count = width * plan.samplesPerPixel * plan.bytesPerSample * rows
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            pack(image, x0: x0, y0: y0, width: width, rows: rows, plan: plan, into: buffer.baseAddress!)
            initialized = count
        }
        return (bytes, width)
    }

    /// Stores one chunk's little-endian bytes at `destination` (`width` × `rows` pixels of the plan's samples; edge
    /// tiles padded by repeating the last column/row).
    static func pack(
        _ image: PixelBuffer, x0: Int, y0: Int, width: Int, rows: Int, plan: SamplePlan,
        into destination: UnsafeMutableRawPointer
    ) {
        let spp = plan.samplesPerPixel
        let bytesPerSample = plan.bytesPerSample
        let sample = plan.sample
        let channels = image.format.channelCount == 1 ? 1 : 4
        let w = image.width
        let h = image.height
        let pixelBytes = spp * bytesPerSample
        let rowBytes = width * pixelBytes
        let inside = min(width, w - x0)  // pixels of the chunk row that lie in the image
        image.withUnsafePlane { plane in
            for r in 0..<rows {
                let y = min(y0 + r, h - 1)
                let d = destination + r * rowBytes
                if sample == .float16, channels == 1 {
                    // Gray float16 is stored as grayFloat in memory: narrow it here.
                    lux_float_to_half(
                        plane.row(y, as: Float.self) + x0, d.assumingMemoryBound(to: UInt16.self), inside)
                } else {
                    switch bytesPerSample {
                    case 1: packRow(plane.row(y, as: UInt8.self) + x0 * channels, d, inside, channels, spp)
                    case 2: packRow(plane.row(y, as: UInt16.self) + x0 * channels, d, inside, channels, spp)
                    default: packRow(plane.row(y, as: UInt32.self) + x0 * channels, d, inside, channels, spp)
                    }
                }
                for x in inside..<width {
                    (d + x * pixelBytes).copyMemory(from: d + (inside - 1) * pixelBytes, byteCount: pixelBytes)
                }
            }
        }
    }

    /// Stores `count` pixels of `channels` samples as `spp` little-endian samples (dropping alpha for 4 → 3).
    static func packRow<T: FixedWidthInteger>(
        _ s: UnsafePointer<T>, _ raw: UnsafeMutableRawPointer, _ count: Int, _ channels: Int, _ spp: Int
    ) {
        let d = raw.assumingMemoryBound(to: T.self)
        if channels == spp {
            for i in 0..<(count * spp) { d[i] = s[i].littleEndian }
        } else if spp == 3, channels == 4, T.self == UInt8.self {
            lux_rgba8_to_rgb8(
                UnsafeRawPointer(s).assumingMemoryBound(to: UInt8.self), raw.assumingMemoryBound(to: UInt8.self), count)
        } else if spp == 3 {
            for x in 0..<count {
                d[3 * x] = s[4 * x].littleEndian
                d[3 * x + 1] = s[4 * x + 1].littleEndian
                d[3 * x + 2] = s[4 * x + 2].littleEndian
            }
        } else {
            for x in 0..<count {
                for c in 0..<spp { d[x * spp + c] = s[x * channels + c].littleEndian }
            }
        }
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
