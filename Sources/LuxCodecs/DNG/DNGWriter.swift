import LuxColor
import LuxPixels

/// Writes DNG files laid out as Adobe DNG Converter and Apple ProRAW do (FORMATS.md §2): IFD0 holds an
/// 8-bit RGB thumbnail and the camera-wide tags, SubIFD 1 the raw data (NewSubFileType 0), an optional
/// SubIFD 2 a full-size JPEG preview, plus an Exif IFD.
enum DNGWriter {
    static func encode(_ raw: RawImage, options: EncodingOptions) throws(CodecError) -> [UInt8] {
        var props = raw.properties
        let dng = options.dng
        let (pixels, photometric, spp) = try rawSamples(raw)
        props.width = pixels.width
        props.height = pixels.height
        try validate(props, photometric: photometric, spp: spp)

        // Raw IFD.
        var rawIFD = TIFFOutputDirectory()
        rawIFD[TIFFTag.newSubfileType] = .longs([0])
        rawIFD[TIFFTag.imageWidth] = .longs([UInt32(pixels.width)])
        rawIFD[TIFFTag.imageLength] = .longs([UInt32(pixels.height)])
        rawIFD[TIFFTag.bitsPerSample] = .shorts(Array(repeating: 16, count: spp))
        rawIFD[TIFFTag.photometric] = .shorts([photometric == .colorFilterArray ? 32803 : 34892])
        rawIFD[TIFFTag.samplesPerPixel] = .shorts([UInt16(spp)])
        rawIFD[TIFFTag.planarConfiguration] = .shorts([1])
        switch dng.compression {
        case .uncompressed:
            rawIFD[TIFFTag.compression] = .shorts([1])
            rawIFD[TIFFTag.rowsPerStrip] = .longs([UInt32(pixels.height)])
            rawIFD.data = TIFFImageData(
                offsetsTag: TIFFTag.stripOffsets, countsTag: TIFFTag.stripByteCounts,
                blobs: [uncompressedStrip(pixels, spp: spp)])
        case .losslessJPEG:
            let tile = dng.tileSize
            guard tile >= 16, tile % 16 == 0, tile <= 4096 else {
                throw .invalidArgument("DNG tile size \(tile) must be a multiple of 16 between 16 and 4096")
            }
            rawIFD[TIFFTag.compression] = .shorts([7])
            rawIFD[TIFFTag.tileWidth] = .longs([UInt32(tile)])
            rawIFD[TIFFTag.tileLength] = .longs([UInt32(tile)])
            let tiles = losslessTiles(
                pixels, spp: spp, isCFA: photometric == .colorFilterArray, tile: tile, threads: options.threads)
            rawIFD.data = TIFFImageData(
                offsetsTag: TIFFTag.tileOffsets, countsTag: TIFFTag.tileByteCounts, blobs: tiles.map { .bytes($0) })
        }
        if photometric == .colorFilterArray, let cfa = props.cfa {
            rawIFD[TIFFTag.cfaRepeatPatternDim] = .shorts([UInt16(cfa.repeatRows), UInt16(cfa.repeatColumns)])
            rawIFD[TIFFTag.cfaPattern] = .bytes(cfa.colors)
            rawIFD[TIFFTag.cfaPlaneColor] = .bytes(cfa.planeColors)
            rawIFD[TIFFTag.cfaLayout] = .shorts([UInt16(cfa.layout)])
        }
        writeLevels(props, into: &rawIFD)
        if let t = props.linearizationTable { rawIFD[TIFFTag.linearizationTable] = .shorts(t) }
        if let v = props.bayerGreenSplit { rawIFD[TIFFTag.bayerGreenSplit] = .longs([UInt32(clamping: v)]) }
        if let v = props.antiAliasStrength { rawIFD[TIFFTag.antiAliasStrength] = .rationals([unsignedRational(v)]) }
        if let v = props.bestQualityScale { rawIFD[TIFFTag.bestQualityScale] = .rationals([unsignedRational(v)]) }
        if let n = props.noiseProfile, !n.planes.isEmpty {
            rawIFD[TIFFTag.noiseProfile] = .doubles(n.planes.flatMap { [$0.scale, $0.offset] })
        }
        if !props.opcodeList1.isEmpty {
            rawIFD[TIFFTag.opcodeList1] = .undefined(DNGOpcode.encodeList(props.opcodeList1))
        }
        if !props.opcodeList2.isEmpty {
            rawIFD[TIFFTag.opcodeList2] = .undefined(DNGOpcode.encodeList(props.opcodeList2))
        }
        if !props.opcodeList3.isEmpty {
            rawIFD[TIFFTag.opcodeList3] = .undefined(DNGOpcode.encodeList(props.opcodeList3))
        }

        // IFD0: thumbnail + camera-wide tags.
        var ifd0 = TIFFOutputDirectory()
        var subIFDs = [rawIFD]
        let thumbnail = try makeThumbnail(raw, options: dng)
        if let thumbnail {
            ifd0[TIFFTag.newSubfileType] = .longs([1])
            ifd0[TIFFTag.imageWidth] = .longs([UInt32(thumbnail.width)])
            ifd0[TIFFTag.imageLength] = .longs([UInt32(thumbnail.height)])
            ifd0[TIFFTag.bitsPerSample] = .shorts([8, 8, 8])
            ifd0[TIFFTag.compression] = .shorts([1])
            ifd0[TIFFTag.photometric] = .shorts([2])
            ifd0[TIFFTag.samplesPerPixel] = .shorts([3])
            ifd0[TIFFTag.planarConfiguration] = .shorts([1])
            ifd0[TIFFTag.rowsPerStrip] = .longs([UInt32(thumbnail.height)])
            ifd0.data = TIFFImageData(
                offsetsTag: TIFFTag.stripOffsets, countsTag: TIFFTag.stripByteCounts,
                blobs: [.bytes(rgbBytes(thumbnail))])
            ifd0[TIFFTag.previewColorSpace] = .longs([2])
        }
        if let preview = raw.renderedPreview {
            subIFDs.append(try largePreview(preview, quality: dng.previewQuality))
        }
        if thumbnail == nil, subIFDs.count == 1 {
            // No preview at all: the raw image itself is IFD0 (TIFF/EP layout).
            ifd0 = rawIFD
            subIFDs = []
        }
        if !subIFDs.isEmpty { ifd0.children[TIFFTag.subIFDs] = subIFDs }
        writeCameraTags(props, backwardVersion: backwardVersion(props), into: &ifd0)
        var exif = props.exif
        if exif.software == nil { exif.software = "Lux" }
        if exif.orientation == nil { exif.orientation = .up }
        if exif.exifVersion == nil, exif.exifDirectory() != nil { exif.exifVersion = "0232" }
        exif.merge(into: &ifd0)
        if let xmp = props.xmp { ifd0[TIFFTag.xmp] = .bytes(xmp) }
        return TIFFEncoder.encode(ifd0, bigEndian: false)
    }

    // MARK: Samples

    /// The pixels as 16-bit samples and the photometric interpretation they imply.
    static func rawSamples(_ raw: RawImage) throws(CodecError) -> (PixelBuffer, RawPhotometric, Int) {
        let px = raw.pixels
        switch px.format {
        case .bayer14, .bayer16, .gray16:
            if raw.properties.photometric == .linearRaw {
                return (px, .linearRaw, 1)
            }
            guard raw.properties.cfa != nil || px.format.cfaPattern != nil else {
                throw .invalidArgument(
                    "a 16-bit gray buffer needs a CFA layout in RawProperties.cfa to be written as DNG")
            }
            return (px, .colorFilterArray, 1)
        case .rgba16:
            return (px, .linearRaw, 3)
        case .rgbaHalf, .rgbaFloat:
            return (px.converted(to: .rgba16), .linearRaw, 3)
        default:
            throw .invalidArgument(
                "DNG raw data must be a Bayer mosaic (.bayer14/.bayer16), 16-bit gray with a CFA layout, or RGBA for a linear DNG; got \(px.format)"
            )
        }
    }

    static func validate(_ p: RawProperties, photometric: RawPhotometric, spp: Int) throws(CodecError) {
        let a = p.activeArea
        guard a.top >= 0, a.left >= 0, a.bottom <= p.height, a.right <= p.width, !a.isEmpty else {
            throw .invalidArgument("the active area \(a) must lie inside the \(p.width)×\(p.height) image")
        }
        if photometric == .colorFilterArray {
            guard let cfa = p.cfa, cfa.colors.count == cfa.repeatRows * cfa.repeatColumns, cfa.repeatRows >= 1,
                cfa.repeatColumns >= 1
            else {
                throw .invalidArgument("a CFA DNG needs RawProperties.cfa (for example CFALayout(.rggb))")
            }
            guard p.color.colorMatrix1 != nil else {
                throw .invalidArgument(
                    "a CFA DNG needs ColorMatrix1 (XYZ → camera); readers such as the Adobe DNG SDK and darktable refuse files without it"
                )
            }
        }
        if let i1 = p.color.calibrationIlluminant1, let i2 = p.color.calibrationIlluminant2,
            p.color.colorMatrix2 != nil, i1 == i2
        {
            throw .invalidArgument("CalibrationIlluminant1 and 2 must differ (both are \(i1))")
        }
        if let crop = p.defaultCrop {
            guard crop.x >= 0, crop.y >= 0, crop.x + crop.width <= Double(a.width),
                crop.y + crop.height <= Double(a.height),
                crop.width > 0, crop.height > 0
            else {
                throw .invalidArgument(
                    "the default crop \(crop) must lie inside the \(a.width)×\(a.height) active area")
            }
        }
        guard p.whiteLevel.allSatisfy({ $0 > p.blackLevel.maximum }) else {
            throw .invalidArgument("WhiteLevel \(p.whiteLevel) must exceed the black level \(p.blackLevel.maximum)")
        }
    }

    /// One strip of 16-bit little-endian samples, written straight into the output.
    static func uncompressedStrip(_ pixels: PixelBuffer, spp: Int) -> TIFFBlob {
        let w = pixels.width
        let h = pixels.height
        let rowBytes = w * spp * 2
        return .fill(count: rowBytes * h) { out in
            pixels.withUnsafePlane { plane in
                for y in 0..<h {
                    let dst = out.baseAddress! + y * rowBytes
                    if spp == 1 {
                        dst.copyMemory(from: plane.row(y), byteCount: rowBytes)
                    } else {
                        let s = plane.row(y, as: UInt16.self)
                        let d = dst.assumingMemoryBound(to: UInt16.self)
                        for x in 0..<w {
                            for c in 0..<spp { d[x * spp + c] = s[4 * x + c] }
                        }
                    }
                }
            }
        }
    }

    /// Lossless-JPEG tiles, encoded in parallel.
    ///
    /// CFA tiles fold two columns into two components (the frame is tile/2 wide), as Adobe's writer does, so predictor
    /// 1 predicts each sample from the same colour.
    static func losslessTiles(_ pixels: PixelBuffer, spp: Int, isCFA: Bool, tile: Int, threads: Int) -> [[UInt8]] {
        let across = (pixels.width + tile - 1) / tile
        let down = (pixels.height + tile - 1) / tile
        let count = across * down
        let results = TileResults(count: count)
        let components = isCFA ? 2 : spp
        let frameWidth = isCFA ? tile / 2 : tile
        Parallel.forEachBand(count, threads: threads, minimumBand: 1, bandsPerThread: 4) { range in
            let scratch = UnsafeMutablePointer<UInt16>.allocate(capacity: tile * tile * spp)
            defer { scratch.deallocate() }
            let workspace = LosslessJPEGEncoder.Scratch(samples: tile * tile * spp)
            for i in range {
                let x0 = (i % across) * tile
                let y0 = (i / across) * tile
                let w = min(tile, pixels.width - x0)
                let h = min(tile, pixels.height - y0)
                // Copy the tile; padding repeats the sample two columns/rows back, so the CFA phase and
                // the prediction stay the same and the padding costs almost nothing to code.
                pixels.withUnsafePlane { plane in
                    for ty in 0..<h {
                        let src = plane.row(y0 + ty, as: UInt16.self)
                        let dst = scratch + ty * tile * spp
                        if spp == 1 {
                            dst.update(from: src + x0, count: w)
                            for tx in w..<tile { dst[tx] = tx >= 2 && w >= 2 ? dst[tx - 2] : dst[w - 1] }
                        } else {
                            for tx in 0..<tile {
                                let sx = x0 + min(tx, w - 1)
                                for c in 0..<spp { dst[tx * spp + c] = src[sx * 4 + c] }
                            }
                        }
                    }
                    for ty in h..<tile {
                        let from = ty >= 2 && h >= 2 ? ty - 2 : h - 1
                        (scratch + ty * tile * spp).update(from: scratch + from * tile * spp, count: tile * spp)
                    }
                }
                results.store(
                    i,
                    LosslessJPEGEncoder.encode(
                        samples: scratch, rowStride: tile * spp, width: frameWidth, height: tile,
                        components: components, precision: 16, scratch: workspace))
            }
        }
        return results.values()
    }

    // MARK: Tags

    static func unsignedRational(_ v: Double) -> Rational {
        Rational(approximating: max(v, 0), maxDenominator: 1_000_000, signed: false)
    }
    static func signedRational(_ v: Double) -> Rational { Rational(approximating: v, maxDenominator: 1_000_000) }

    static func writeLevels(_ p: RawProperties, into d: inout TIFFOutputDirectory) {
        let b = p.blackLevel
        if b.repeatRows != 1 || b.repeatColumns != 1 {
            d[TIFFTag.blackLevelRepeatDim] = .shorts([UInt16(b.repeatRows), UInt16(b.repeatColumns)])
        }
        if b.values.allSatisfy({ $0 == $0.rounded() && $0 >= 0 && $0 <= 65535 }) {
            d[TIFFTag.blackLevel] = .shorts(b.values.map { UInt16($0) })
        } else {
            d[TIFFTag.blackLevel] = .rationals(b.values.map(unsignedRational))
        }
        if let h = b.deltaH { d[TIFFTag.blackLevelDeltaH] = .signedRationals(h.map(signedRational)) }
        if let v = b.deltaV { d[TIFFTag.blackLevelDeltaV] = .signedRationals(v.map(signedRational)) }
        d[TIFFTag.whiteLevel] = .longs(p.whiteLevel.map { UInt32(max(0, min($0.rounded(), Double(UInt32.max)))) })
        let a = p.activeArea
        if a != RawArea(top: 0, left: 0, bottom: p.height, right: p.width) {
            d[TIFFTag.activeArea] = .longs([a.top, a.left, a.bottom, a.right].map { UInt32($0) })
        }
        if !p.maskedAreas.isEmpty {
            d[TIFFTag.maskedAreas] = .longs(
                p.maskedAreas.flatMap { [$0.top, $0.left, $0.bottom, $0.right] }.map { UInt32(max(0, $0)) })
        }
        d[TIFFTag.defaultScale] = .rationals((p.defaultScale ?? [1, 1]).map(unsignedRational))
        if let c = p.defaultCrop {
            d[TIFFTag.defaultCropOrigin] = .rationals([unsignedRational(c.x), unsignedRational(c.y)])
            d[TIFFTag.defaultCropSize] = .rationals([unsignedRational(c.width), unsignedRational(c.height)])
        }
        if let u = p.defaultUserCrop { d[TIFFTag.defaultUserCrop] = .rationals(u.map(unsignedRational)) }
    }

    static func backwardVersion(_ p: RawProperties) -> [UInt8] {
        let required = (p.opcodeList1 + p.opcodeList2 + p.opcodeList3).filter { !$0.isOptional }
        let maxOpcode = required.map(\.dngVersion).max() ?? 0
        if maxOpcode >= 0x0104_0000 { return [1, 4, 0, 0] }
        if maxOpcode >= 0x0103_0000 { return [1, 3, 0, 0] }
        return [1, 1, 0, 0]
    }

    static func writeCameraTags(_ p: RawProperties, backwardVersion: [UInt8], into d: inout TIFFOutputDirectory) {
        // Profile and private tags read from another file first, so the typed values below win.
        for (tag, value) in p.additionalTags where tag >= 50706 { d[tag] = value }
        d[TIFFTag.dngVersion] = .bytes([1, 4, 0, 0])
        d[TIFFTag.dngBackwardVersion] = .bytes(backwardVersion)
        let model = p.uniqueCameraModel ?? [p.make, p.model].compactMap { $0 }.joined(separator: " ")
        d[TIFFTag.uniqueCameraModel] = .ascii(model.isEmpty ? "Lux Camera" : model)
        if let v = p.localizedCameraModel { d[TIFFTag.localizedCameraModel] = .ascii(v) }
        if let v = p.cameraSerialNumber { d[TIFFTag.cameraSerialNumber] = .ascii(v) }
        func matrix(_ m: Matrix3x3?, _ tag: UInt16) {
            guard let m else { return }
            d[tag] = .signedRationals(m.entries.map { Rational(Int64(($0 * 10_000).rounded()), 10_000) })
        }
        let c = p.color
        matrix(c.colorMatrix1, TIFFTag.colorMatrix1)
        matrix(c.colorMatrix2, TIFFTag.colorMatrix2)
        matrix(c.forwardMatrix1, TIFFTag.forwardMatrix1)
        matrix(c.forwardMatrix2, TIFFTag.forwardMatrix2)
        matrix(c.cameraCalibration1, TIFFTag.cameraCalibration1)
        matrix(c.cameraCalibration2, TIFFTag.cameraCalibration2)
        if c.colorMatrix1 != nil {
            d[TIFFTag.calibrationIlluminant1] = .shorts([(c.calibrationIlluminant1 ?? .d65).rawValue])
        }
        if c.colorMatrix2 != nil, let i2 = c.calibrationIlluminant2 {
            d[TIFFTag.calibrationIlluminant2] = .shorts([i2.rawValue])
        }
        if let v = c.analogBalance { d[TIFFTag.analogBalance] = .rationals(v.map(unsignedRational)) }
        if let v = c.asShotNeutral {
            d[TIFFTag.asShotNeutral] = .rationals(v.map(unsignedRational))
        } else if let xy = c.asShotWhiteXY {
            d[TIFFTag.asShotWhiteXY] = .rationals([unsignedRational(xy.x), unsignedRational(xy.y)])
        }
        if let v = c.cameraCalibrationSignature { d[TIFFTag.cameraCalibrationSignature] = .ascii(v) }
        if let v = c.profileCalibrationSignature { d[TIFFTag.profileCalibrationSignature] = .ascii(v) }
        if let v = c.profileName { d[TIFFTag.profileName] = .ascii(v) }
        if let v = p.baselineExposure { d[TIFFTag.baselineExposure] = .signedRationals([signedRational(v)]) }
        if let v = p.baselineNoise { d[TIFFTag.baselineNoise] = .rationals([unsignedRational(v)]) }
        if let v = p.baselineSharpness { d[TIFFTag.baselineSharpness] = .rationals([unsignedRational(v)]) }
        if let v = p.linearResponseLimit { d[TIFFTag.linearResponseLimit] = .rationals([unsignedRational(v)]) }
        if let v = p.shadowScale { d[TIFFTag.shadowScale] = .rationals([unsignedRational(v)]) }
        if let v = p.chromaBlurRadius { d[TIFFTag.chromaBlurRadius] = .rationals([unsignedRational(v)]) }
        if let v = p.rawDataUniqueID, v.count == 16 { d[TIFFTag.rawDataUniqueID] = .bytes(v) }
        if let v = p.originalRawFileName { d[TIFFTag.originalRawFileName] = .ascii(v) }
    }

    // MARK: Previews

    static func makeThumbnail(_ raw: RawImage, options: DNGEncodingOptions) throws(CodecError) -> PixelBuffer? {
        if let preview = raw.renderedPreview {
            return try downscaledSRGB(preview, longSide: options.thumbnailSize)
        }
        guard options.generatesThumbnail else { return nil }
        return RawThumbnail.make(raw, longSide: options.thumbnailSize)
    }

    /// An 8-bit sRGB copy no larger than `longSide` (box filter).
    static func downscaledSRGB(_ image: PixelBuffer, longSide: Int) throws(CodecError) -> PixelBuffer {
        var src = image
        if let space = src.colorSpace, !space.isColorimetricallyEqual(to: .sRGB) {
            do { src = try src.converted(to: .rgbaFloat).matchingColors(to: .sRGB) } catch {
                throw .invalidArgument("cannot convert the preview to sRGB: \(error)")
            }
        }
        src = src.converted(to: .rgba8)
        let factor = max(1, (max(src.width, src.height) + longSide - 1) / longSide)
        if factor == 1 { return src }
        let w = max(1, src.width / factor)
        let h = max(1, src.height / factor)
        let out = PixelBuffer(width: w, height: h, format: .rgba8, colorSpace: .sRGB)
        let dst = out.unsafeSharedMutablePlane()
        src.withUnsafePlane { s in
            for y in 0..<h {
                let d = dst.row(y, as: UInt8.self)
                for x in 0..<w {
                    var acc = SIMD4<UInt32>.zero
                    for by in 0..<factor {
                        let row = s.row(y * factor + by, as: UInt8.self)
                        for bx in 0..<factor {
                            let p = 4 * (x * factor + bx)
                            acc &+= SIMD4(UInt32(row[p]), UInt32(row[p + 1]), UInt32(row[p + 2]), UInt32(row[p + 3]))
                        }
                    }
                    let n = UInt32(factor * factor)
                    for c in 0..<4 { d[4 * x + c] = UInt8((acc[c] + n / 2) / n) }
                }
            }
        }
        withExtendedLifetime(out) {}
        return out
    }

    static func rgbBytes(_ image: PixelBuffer) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: image.width * image.height * 3)
        image.withUnsafePlane { p in
            for y in 0..<image.height {
                let s = p.row(y, as: UInt8.self)
                for x in 0..<image.width {
                    for c in 0..<3 { out[(y * image.width + x) * 3 + c] = s[4 * x + c] }
                }
            }
        }
        return out
    }

    /// A full-size baseline JPEG preview in its own SubIFD (NewSubFileType 1, YCbCr).
    static func largePreview(_ preview: PixelBuffer, quality: Double) throws(CodecError) -> TIFFOutputDirectory {
        var options = EncodingOptions(
            quality: quality, chromaSubsampling: .both, colorSpace: .sRGB, embedsColorProfile: false)
        options.optimizesHuffmanTables = true
        let jpeg = try JPEG.encode(preview, options: options)
        var d = TIFFOutputDirectory()
        d[TIFFTag.newSubfileType] = .longs([1])
        d[TIFFTag.imageWidth] = .longs([UInt32(preview.width)])
        d[TIFFTag.imageLength] = .longs([UInt32(preview.height)])
        d[TIFFTag.bitsPerSample] = .shorts([8, 8, 8])
        d[TIFFTag.compression] = .shorts([7])
        d[TIFFTag.photometric] = .shorts([6])
        d[TIFFTag.samplesPerPixel] = .shorts([3])
        d[TIFFTag.planarConfiguration] = .shorts([1])
        d[TIFFTag.rowsPerStrip] = .longs([UInt32(preview.height)])
        d[TIFFTag.yCbCrCoefficients] = .rationals([Rational(299, 1000), Rational(587, 1000), Rational(114, 1000)])
        d[TIFFTag.yCbCrSubSampling] = .shorts([2, 2])
        d[TIFFTag.yCbCrPositioning] = .shorts([1])
        d[TIFFTag.referenceBlackWhite] = .rationals([
            Rational(0, 1), Rational(255, 1), Rational(128, 1), Rational(255, 1), Rational(128, 1), Rational(255, 1),
        ])
        d[TIFFTag.previewColorSpace] = .longs([2])
        d[TIFFTag.previewApplicationName] = .ascii("Lux")
        d.data = TIFFImageData(
            offsetsTag: TIFFTag.stripOffsets, countsTag: TIFFTag.stripByteCounts, blobs: [.bytes(jpeg)])
        return d
    }
}

/// Per-tile results filled by parallel workers.
final class TileResults: @unchecked Sendable {
    // @unchecked: each slot is written by exactly one worker, and read only after all workers finish.
    private let slots: UnsafeMutablePointer<[UInt8]>
    private let count: Int

    init(count: Int) {
        self.count = count
        slots = .allocate(capacity: count)
        slots.initialize(repeating: [], count: count)
    }

    deinit {
        slots.deinitialize(count: count)
        slots.deallocate()
    }

    func store(_ i: Int, _ value: [UInt8]) { slots[i] = value }

    func values() -> [[UInt8]] { Array(UnsafeBufferPointer(start: slots, count: count)) }
}
