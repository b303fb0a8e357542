import LuxColor
import LuxPixels
import Synchronization

/// Reads DNG and TIFF/EP raw files: the raw image, its description and embedded previews.
enum DNGReader {
    /// The description of the raw image (no pixel decoding).
    ///
    /// With `loadingPreviews`, preview bytes are copied.
    static func properties(_ s: DNGStructure, loadingPreviews: Bool) throws(CodecError) -> RawProperties {
        guard let rawDir = s.raw else {
            throw .missingPixelData(what: "DNG", reason: "no directory holds CFA or Linear Raw image data")
        }
        let p = s.parser
        let what = "DNG \(s.rawName)"
        guard let width = try p.integer(rawDir, TIFFTag.imageWidth),
            let height = try p.integer(rawDir, TIFFTag.imageLength)
        else {
            throw .malformed(what: "\(what) ImageWidth/ImageLength", offset: rawDir.offset, reason: "missing")
        }
        guard width > 0, height > 0 else {
            throw .malformed(
                what: "\(what) ImageWidth/ImageLength", offset: rawDir.offset, reason: "empty image \(width)×\(height)")
        }
        let photometricCode = try p.integer(rawDir, TIFFTag.photometric) ?? 32803
        let spp = try p.integer(rawDir, TIFFTag.samplesPerPixel) ?? 1
        guard (1...4).contains(spp) else {
            throw .unsupported(what: "\(what) SamplesPerPixel \(spp)", reason: "1 to 4 samples per pixel are supported")
        }
        let bpsList = try p.integers(rawDir, TIFFTag.bitsPerSample) ?? [1]
        let bps = bpsList.first ?? 1
        guard bpsList.allSatisfy({ $0 == bps }), (1...32).contains(bps) else {
            throw .malformed(
                what: "\(what) BitsPerSample", offset: rawDir[TIFFTag.bitsPerSample]?.entryOffset ?? 0,
                reason: "\(bpsList)")
        }
        var props = RawProperties(
            width: width, height: height, photometric: photometricCode == 34892 ? .linearRaw : .colorFilterArray,
            samplesPerPixel: spp, bitsPerSample: bps)
        props.isFloatingPoint = (try p.integer(rawDir, TIFFTag.sampleFormat)) == 3
        var consumed: Set<UInt16> = []
        func use(_ tags: UInt16...) { consumed.formUnion(tags) }

        // Storage.
        let compression = try p.integer(rawDir, TIFFTag.compression) ?? 1
        var storage = RawStorage(compression: compression, predictor: try p.integer(rawDir, TIFFTag.predictor) ?? 1)
        if rawDir.has(TIFFTag.tileOffsets) {
            storage.tileWidth = try p.integer(rawDir, TIFFTag.tileWidth)
            storage.tileLength = try p.integer(rawDir, TIFFTag.tileLength)
            storage.chunkCount = rawDir[TIFFTag.tileOffsets]?.count ?? 0
        } else {
            storage.rowsPerStrip = try p.integer(rawDir, TIFFTag.rowsPerStrip)
            storage.chunkCount = rawDir[TIFFTag.stripOffsets]?.count ?? 0
        }
        if compression == 7, let first = try? TIFFChunkLayout.firstChunk(p, rawDir),
            let header = try? LosslessJPEGHeader(first, what: what)
        {
            storage.losslessJPEGPredictor = header.predictor
        }
        props.storage = storage

        // Versions and camera.
        props.dngVersion = s.bytes(TIFFTag.dngVersion).flatMap { $0.count == 4 ? $0 : nil }
        props.dngBackwardVersion = s.bytes(TIFFTag.dngBackwardVersion).flatMap { $0.count == 4 ? $0 : nil }
        props.uniqueCameraModel = s.string(TIFFTag.uniqueCameraModel)
        props.localizedCameraModel = s.string(TIFFTag.localizedCameraModel)
        props.cameraSerialNumber = s.string(TIFFTag.cameraSerialNumber)
        use(
            TIFFTag.dngVersion, TIFFTag.dngBackwardVersion, TIFFTag.uniqueCameraModel, TIFFTag.localizedCameraModel,
            TIFFTag.cameraSerialNumber)

        // CFA.
        if props.photometric == .colorFilterArray {
            let dims = s.integers(TIFFTag.cfaRepeatPatternDim) ?? [2, 2]
            let colors = s.bytes(TIFFTag.cfaPattern) ?? []
            guard dims.count == 2, dims[0] >= 1, dims[1] >= 1, dims[0] * dims[1] <= 64,
                colors.count == dims[0] * dims[1]
            else {
                throw .malformed(
                    what: "\(what) CFARepeatPatternDim/CFAPattern", offset: rawDir.offset,
                    reason: "pattern \(dims) with \(colors.count) colours")
            }
            var layout = CFALayout(repeatRows: dims[0], repeatColumns: dims[1], colors: colors)
            if let planes = s.bytes(TIFFTag.cfaPlaneColor), !planes.isEmpty { layout.planeColors = planes }
            if let l = s.integers(TIFFTag.cfaLayout)?.first { layout.layout = l }
            props.cfa = layout
        }
        use(TIFFTag.cfaRepeatPatternDim, TIFFTag.cfaPattern, TIFFTag.cfaPlaneColor, TIFFTag.cfaLayout)

        // Linearisation, black and white.
        if let table = s.integers(TIFFTag.linearizationTable), !table.isEmpty, table.count <= 65536 {
            props.linearizationTable = table.map { UInt16(clamping: $0) }
        }
        let active = activeArea(s, width: width, height: height)
        props.activeArea = active
        let repeatDim = s.integers(TIFFTag.blackLevelRepeatDim) ?? [1, 1]
        let rr = repeatDim.count == 2 ? max(1, min(repeatDim[0], 64)) : 1
        let rc = repeatDim.count == 2 ? max(1, min(repeatDim[1], 64)) : 1
        var blackValues = (s.doubles(TIFFTag.blackLevel) ?? [0]).map { $0.isFinite ? $0 : 0 }
        let needed = rr * rc * spp
        if blackValues.isEmpty { blackValues = [0] }
        if blackValues.count < needed { blackValues = (0..<needed).map { blackValues[$0 % blackValues.count] } }
        var black = BlackLevel(
            repeatRows: rr, repeatColumns: rc, planes: spp, values: Array(blackValues.prefix(needed)))
        if let dh = s.doubles(TIFFTag.blackLevelDeltaH), dh.count == active.width { black.deltaH = dh }
        if let dv = s.doubles(TIFFTag.blackLevelDeltaV), dv.count == active.height { black.deltaV = dv }
        props.blackLevel = black
        if let white = s.doubles(TIFFTag.whiteLevel), !white.isEmpty {
            props.whiteLevel = (0..<spp).map { white[min($0, white.count - 1)] }
        }
        if let masked = s.integers(TIFFTag.maskedAreas), masked.count % 4 == 0 {
            props.maskedAreas = stride(from: 0, to: masked.count, by: 4).map {
                RawArea(top: masked[$0], left: masked[$0 + 1], bottom: masked[$0 + 2], right: masked[$0 + 3])
            }
        }
        if let o = s.doubles(TIFFTag.defaultCropOrigin), let z = s.doubles(TIFFTag.defaultCropSize), o.count == 2,
            z.count == 2
        {
            props.defaultCrop = DefaultCrop(x: o[0], y: o[1], width: z[0], height: z[1])
        }
        if let v = s.doubles(TIFFTag.defaultScale), v.count == 2 { props.defaultScale = v }
        props.bestQualityScale = s.double(TIFFTag.bestQualityScale)
        if let v = s.doubles(TIFFTag.defaultUserCrop), v.count == 4 { props.defaultUserCrop = v }
        use(
            TIFFTag.linearizationTable, TIFFTag.activeArea, TIFFTag.blackLevelRepeatDim, TIFFTag.blackLevel,
            TIFFTag.blackLevelDeltaH, TIFFTag.blackLevelDeltaV, TIFFTag.whiteLevel, TIFFTag.maskedAreas,
            TIFFTag.defaultCropOrigin, TIFFTag.defaultCropSize, TIFFTag.defaultScale, TIFFTag.bestQualityScale,
            TIFFTag.defaultUserCrop)

        // Colour.
        func matrix(_ tag: UInt16) -> Matrix3x3? {
            guard let v = s.doubles(tag), v.count == 9, v.allSatisfy(\.isFinite) else { return nil }
            return Matrix3x3(v)
        }
        var color = ColorCalibration()
        color.colorMatrix1 = matrix(TIFFTag.colorMatrix1)
        color.colorMatrix2 = matrix(TIFFTag.colorMatrix2)
        color.forwardMatrix1 = matrix(TIFFTag.forwardMatrix1)
        color.forwardMatrix2 = matrix(TIFFTag.forwardMatrix2)
        color.cameraCalibration1 = matrix(TIFFTag.cameraCalibration1)
        color.cameraCalibration2 = matrix(TIFFTag.cameraCalibration2)
        color.calibrationIlluminant1 = s.integers(TIFFTag.calibrationIlluminant1)?.first.map {
            LightSource(rawValue: UInt16(clamping: $0))
        }
        color.calibrationIlluminant2 = s.integers(TIFFTag.calibrationIlluminant2)?.first.map {
            LightSource(rawValue: UInt16(clamping: $0))
        }
        color.analogBalance = s.doubles(TIFFTag.analogBalance)
        color.asShotNeutral = s.doubles(TIFFTag.asShotNeutral)
        if let xy = s.doubles(TIFFTag.asShotWhiteXY), xy.count == 2 {
            color.asShotWhiteXY = Chromaticity(x: xy[0], y: xy[1])
        }
        color.cameraCalibrationSignature = s.string(TIFFTag.cameraCalibrationSignature)
        color.profileCalibrationSignature = s.string(TIFFTag.profileCalibrationSignature)
        color.profileName = s.string(TIFFTag.profileName)
        props.color = color
        use(
            TIFFTag.colorMatrix1, TIFFTag.colorMatrix2, TIFFTag.forwardMatrix1, TIFFTag.forwardMatrix2,
            TIFFTag.cameraCalibration1, TIFFTag.cameraCalibration2, TIFFTag.calibrationIlluminant1,
            TIFFTag.calibrationIlluminant2, TIFFTag.analogBalance, TIFFTag.asShotNeutral, TIFFTag.asShotWhiteXY,
            TIFFTag.cameraCalibrationSignature, TIFFTag.profileCalibrationSignature, TIFFTag.profileName)
        props.baselineExposure = s.double(TIFFTag.baselineExposure)
        props.baselineNoise = s.double(TIFFTag.baselineNoise)
        props.baselineSharpness = s.double(TIFFTag.baselineSharpness)
        props.linearResponseLimit = s.double(TIFFTag.linearResponseLimit)
        props.bayerGreenSplit = s.integers(TIFFTag.bayerGreenSplit)?.first
        props.antiAliasStrength = s.double(TIFFTag.antiAliasStrength)
        props.chromaBlurRadius = s.double(TIFFTag.chromaBlurRadius)
        props.shadowScale = s.double(TIFFTag.shadowScale)
        if let n = s.doubles(TIFFTag.noiseProfile), n.count >= 2, n.count % 2 == 0 {
            props.noiseProfile = NoiseProfile(
                planes: stride(from: 0, to: n.count, by: 2).map {
                    NoiseProfile.Coefficients(scale: n[$0], offset: n[$0 + 1])
                })
        }
        // Kept in the verbatim tags too, so a DNG written back carries them unchanged.
        if let curve = s.doubles(TIFFTag.profileToneCurve), curve.count >= 4, curve.count % 2 == 0,
            curve.allSatisfy(\.isFinite)
        {
            props.profileToneCurve = stride(from: 0, to: curve.count, by: 2).map { SIMD2(curve[$0], curve[$0 + 1]) }
        }
        if let map = s.bytes(TIFFTag.profileGainTableMap) {
            props.profileGainTableMap = try? ProfileGainTableMap(bytes: map, bigEndian: p.bigEndian)
        }
        use(
            TIFFTag.baselineExposure, TIFFTag.baselineNoise, TIFFTag.baselineSharpness, TIFFTag.linearResponseLimit,
            TIFFTag.bayerGreenSplit, TIFFTag.antiAliasStrength, TIFFTag.chromaBlurRadius, TIFFTag.shadowScale,
            TIFFTag.noiseProfile)

        // Opcodes (damaged lists are dropped rather than failing the file).
        func opcodes(_ tag: UInt16, _ name: String) -> [DNGOpcode] {
            guard let b = s.bytes(tag) else { return [] }
            return (try? DNGOpcode.parseList(b, name: "\(what) \(name)")) ?? []
        }
        props.opcodeList1 = opcodes(TIFFTag.opcodeList1, "OpcodeList1")
        props.opcodeList2 = opcodes(TIFFTag.opcodeList2, "OpcodeList2")
        props.opcodeList3 = opcodes(TIFFTag.opcodeList3, "OpcodeList3")
        use(TIFFTag.opcodeList1, TIFFTag.opcodeList2, TIFFTag.opcodeList3)

        // Metadata.
        props.exif = EXIF(parser: p, primary: s.ifd0, keepsUnknownPrimaryFields: false)
        if let x = s.ifd0[TIFFTag.xmp].flatMap({ _ in (try? p.rawBytes(s.ifd0, TIFFTag.xmp)) ?? nil }) { props.xmp = x }
        props.rawDataUniqueID = s.bytes(TIFFTag.rawDataUniqueID)
        props.originalRawFileName = s.string(TIFFTag.originalRawFileName)
        use(TIFFTag.rawDataUniqueID, TIFFTag.originalRawFileName)

        // Everything else of the DNG range (camera profiles, private data …), kept verbatim.
        var extra: [UInt16: TIFFValue] = [:]
        for dir in [s.ifd0, rawDir] {
            for (tag, e) in dir.entries where tag >= 50706 && !consumed.contains(tag) && extra[tag] == nil {
                if let v = try? p.value(e) { extra[tag] = v }
            }
        }
        props.additionalTags = extra
        props.previews = previews(s, loadingData: loadingPreviews)
        return props
    }

    static func activeArea(_ s: DNGStructure, width: Int, height: Int) -> RawArea {
        guard let a = s.integers(TIFFTag.activeArea), a.count == 4 else {
            return RawArea(top: 0, left: 0, bottom: height, right: width)
        }
        let area = RawArea(
            top: max(0, min(a[0], height)), left: max(0, min(a[1], width)), bottom: max(0, min(a[2], height)),
            right: max(0, min(a[3], width)))
        return area.isEmpty ? RawArea(top: 0, left: 0, bottom: height, right: width) : area
    }

    /// Previews: directories marked as reduced-resolution images, and Exif/TIFF-EP JPEG thumbnails.
    static func previews(_ s: DNGStructure, loadingData: Bool) -> [EmbeddedPreview] {
        let p = s.parser
        var out: [EmbeddedPreview] = []
        for (_, d) in s.directories {
            if let raw = s.raw, d.offset == raw.offset { continue }
            let subfile = ((try? p.integer(d, TIFFTag.newSubfileType)) ?? nil) ?? 0
            let photometric = ((try? p.integer(d, TIFFTag.photometric)) ?? nil) ?? -1
            let compression = ((try? p.integer(d, TIFFTag.compression)) ?? nil) ?? 1
            guard let w = (try? p.integer(d, TIFFTag.imageWidth)) ?? nil,
                let h = (try? p.integer(d, TIFFTag.imageLength)) ?? nil,
                w > 0, h > 0
            else { continue }
            let isPreviewType = subfile & 1 == 1 || (s.raw != nil && subfile == 0 && [1, 2, 6].contains(photometric))
            guard isPreviewType, [1, 2, 6].contains(photometric) else { continue }
            let spp = ((try? p.integer(d, TIFFTag.samplesPerPixel)) ?? nil) ?? 1
            let bps = ((try? p.integers(d, TIFFTag.bitsPerSample)) ?? nil)?.first ?? 8
            let offsets =
                ((try? p.integers(d, TIFFTag.stripOffsets)) ?? nil)
                ?? ((try? p.integers(d, TIFFTag.tileOffsets)) ?? nil) ?? []
            let counts =
                ((try? p.integers(d, TIFFTag.stripByteCounts)) ?? nil)
                ?? ((try? p.integers(d, TIFFTag.tileByteCounts)) ?? nil) ?? []
            guard offsets.count == counts.count, !offsets.isEmpty else { continue }
            let encoding: EmbeddedPreview.Encoding =
                compression == 7 || compression == 6 ? .jpeg : (compression == 1 && bps == 8 ? .uncompressed : .other)
            var preview = EmbeddedPreview(
                width: w, height: h, encoding: encoding, newSubfileType: subfile, samplesPerPixel: spp,
                bitsPerSample: bps,
                previewColorSpace: ((try? p.integer(d, TIFFTag.previewColorSpace)) ?? nil) ?? nil,
                byteRanges: zip(offsets, counts).map { EmbeddedPreview.ByteRange(offset: $0, length: $1) }, data: nil)
            if loadingData { preview.data = load(preview, from: p.reader) }
            out.append(preview)
        }
        // A JPEG thumbnail referenced by JPEGInterchangeFormat (IFD1 of TIFF/EP files).
        for (_, d) in s.directories {
            guard let o = (try? p.integer(d, TIFFTag.jpegInterchangeFormat)) ?? nil,
                let n = (try? p.integer(d, TIFFTag.jpegInterchangeFormatLength)) ?? nil, n > 0, p.reader.contains(o, n),
                let header = try? JPEGHeader(p.reader.view(o, n, "JPEG thumbnail"))
            else { continue }
            var preview = EmbeddedPreview(
                width: header.width, height: header.height, encoding: .jpeg, newSubfileType: 1,
                samplesPerPixel: header.componentCount, bitsPerSample: 8, previewColorSpace: nil,
                byteRanges: [EmbeddedPreview.ByteRange(offset: o, length: n)], data: nil)
            if loadingData { preview.data = load(preview, from: p.reader) }
            out.append(preview)
        }
        return out
    }

    static func load(_ preview: EmbeddedPreview, from r: ByteReader) -> [UInt8]? {
        // Strips of one preview never overlap, so together they are no larger than the file; ranges that
        // repeat the same bytes would otherwise multiply a small file into gigabytes.
        var total = 0
        for range in preview.byteRanges {
            guard range.length >= 0, range.length <= r.count - total else { return nil }
            total += range.length
        }
        var data: [UInt8] = []
        data.reserveCapacity(total)
        for range in preview.byteRanges {
            guard let chunk = try? r.slice(range.offset, range.length, "preview") else { return nil }
            data += chunk
        }
        return data
    }

    // MARK: Pixels

    /// Decodes the raw image into a buffer (`.bayer16`, `.gray16`, `.rgba16`, `.grayFloat` or `.rgbaFloat`).
    ///
    /// When the structure was read from `file`'s bytes (``DecodingOptions/allowsMappedPixels``) and the samples
    /// are stored uncompressed, in host byte order, one sample per pixel and row after row (see
    /// ``borrowedPixels(_:_:format:file:reader:)``), the buffer borrows the file's rows instead of copying them.
    static func decodePixels(
        _ s: DNGStructure, _ props: RawProperties, options: DecodingOptions, file: FileContents? = nil
    ) throws(CodecError) -> PixelBuffer {
        guard let rawDir = s.raw else { throw .missingPixelData(what: "DNG", reason: "no raw image directory") }
        let what = "DNG \(s.rawName)"
        let spp = props.samplesPerPixel
        let format: PixelFormat
        if props.isFloatingPoint {
            format = spp == 1 ? .grayFloat : .rgbaFloat
        } else {
            guard props.bitsPerSample <= 16 else {
                throw .unsupported(
                    what: "\(what) with \(props.bitsPerSample)-bit integer samples",
                    reason: "up to 16 bits are supported")
            }
            if spp == 1 {
                format = props.storedPixelFormat
            } else {
                guard spp != 2 else {
                    throw .unsupported(what: "\(what) with 2 samples per pixel", reason: "expected 1, 3 or 4")
                }
                format = .rgba16
            }
        }
        try options.limits.check(
            width: props.width, height: props.height, bytesPerPixel: format.bytesPerPixel(), what: what)
        let p = s.parser
        let planar = (try p.integer(rawDir, TIFFTag.planarConfiguration)) == 2 && spp > 1
        let layout = try TIFFChunkLayout(
            parser: p, directory: rawDir, width: props.width, height: props.height, planes: planar ? spp : 1,
            limits: options.limits, what: what)
        let compression = props.storage.compression
        if compression == 34892 {
            return try decodeLossyJPEG(p, layout, props, format: format, what: what, options: options)
        }
        let chunkFormat = ChunkFormat(
            bitsPerSample: props.bitsPerSample, samplesPerPixel: planar ? 1 : spp, isFloat: props.isFloatingPoint,
            compression: compression, predictor: props.storage.predictor, bigEndian: p.bigEndian,
            legacyLosslessJPEG: (props.dngVersion.map { $0[0] == 1 && $0[1] == 0 } ?? false))
        if let file, !planar,
            let lent = borrowedPixels(layout, chunkFormat, format: format, file: file, reader: p.reader)
        {
            // Counted like a decoded image: a write copies it.
            try options.reserve(props.width * props.height * format.bytesPerPixel(), for: what)
            return lent
        }
        let threads = try options.budgeted().budget!.reserveChunkedDecode(
            outputBytes: props.width * props.height * format.bytesPerPixel(),
            chunkBytes: chunkFormat.workingBytes(width: layout.chunkWidth, rows: layout.chunkHeight),
            threads: options.threads, what: what)
        var out = PixelBuffer(width: props.width, height: props.height, format: format)
        let plane = out.unsafeSharedMutablePlane()
        let failure = FirstError()
        let reader = p.reader
        let samplesPerPixelOut = format.channelCount == 1 ? 1 : 4
        Parallel.forEachBand(layout.count, threads: threads, minimumBand: 1, bandsPerThread: 2) { chunks in
            for i in chunks {
                if failure.hasError { return }
                do throws(CodecError) {
                    let region = layout.region(i)
                    let rows = layout.storedRows(i)
                    let data = try reader.view(layout.offsets[i], layout.counts[i], "\(what) chunk \(i)")
                    if compression == 7, !planar, chunkFormat.samplesPerPixel == samplesPerPixelOut {
                        // Lossless JPEG straight into the output rows: no per-tile buffer.
                        try decodeLosslessJPEG(
                            data, region: region, chunkWidth: layout.chunkWidth, rows: rows, spp: spp,
                            legacy: chunkFormat.legacyLosslessJPEG, into: plane,
                            what: "\(what) \(layout.isTiled ? "tile" : "strip") \(i)")
                        continue
                    }
                    let samples = try TIFFChunkDecoder.decode(
                        data, width: layout.chunkWidth, rows: rows, format: chunkFormat,
                        what: "\(what) \(layout.isTiled ? "tile" : "strip") \(i)",
                        offset: layout.offsets[i])
                    place(
                        samples, region: region, chunkWidth: layout.chunkWidth, chunkSPP: chunkFormat.samplesPerPixel,
                        planar: planar, into: plane, outputSPP: samplesPerPixelOut, fileSPP: spp)
                } catch {
                    failure.record(error)
                }
            }
        }
        if let e = failure.error { throw e }
        if spp == 3 { fillOpaque(&out) }
        withExtendedLifetime(out) {}
        return out
    }

    /// The raw samples as a read-only view of `file`'s bytes, when they can be used as they are stored: no compression
    /// or predictor, 16-bit integers or 32-bit floats in host byte order at an aligned address, one sample per pixel,
    /// one column of strips or tiles that follow each other in the file without gaps, each as long as its rows.
    ///
    /// Returns `nil` otherwise (including any short chunk, which the copying path reports).
    static func borrowedPixels(
        _ layout: TIFFChunkLayout, _ f: ChunkFormat, format: PixelFormat, file: FileContents, reader: ByteReader
    ) -> PixelBuffer? {
        let hostBigEndian = UInt16(1).bigEndian == 1
        guard let base = reader.bytes.baseAddress, base == file.bytes.baseAddress, reader.count == file.bytes.count,
            f.compression == 1, f.predictor == 1, f.samplesPerPixel == 1, f.bigEndian == hostBigEndian,
            format.channelCount == 1, layout.across == 1, layout.separatePlanes == 1, layout.count > 0,
            (f.bitsPerSample == 16 && !f.isFloat && format.componentType == .uint16)
                || (f.bitsPerSample == 32 && f.isFloat && format.componentType == .float32)
        else { return nil }
        let sampleBytes = f.bitsPerSample / 8
        let rowBytes = f.rowBytes(layout.chunkWidth)
        let (chunkBytes, overflow) = rowBytes.multipliedReportingOverflow(by: layout.chunkHeight)
        let start = layout.offsets[0]
        guard !overflow, start >= 0, (Int(bitPattern: base) + start) % sampleBytes == 0 else { return nil }
        for i in 0..<layout.count {
            let (step, o1) = chunkBytes.multipliedReportingOverflow(by: i)
            let (expected, o2) = start.addingReportingOverflow(step)
            guard !o1, !o2, layout.offsets[i] == expected, layout.counts[i] >= rowBytes * layout.storedRows(i) else {
                return nil
            }
        }
        let used = (layout.height - 1) * rowBytes + layout.width * sampleBytes
        guard reader.contains(start, used) else { return nil }
        return PixelBuffer(
            borrowing: base + start, byteCount: used, bytesPerRow: rowBytes, width: layout.width,
            height: layout.height, format: format, owner: file)
    }

    /// Decodes one lossless-JPEG tile or strip into the output plane.
    ///
    /// The stream's samples fill the chunk in raster order (`chunkWidth × spp` per row), whatever the frame's own width
    /// and component count.
    static func decodeLosslessJPEG(
        _ data: UnsafeRawBufferPointer, region: (x: Int, y: Int, width: Int, height: Int, plane: Int), chunkWidth: Int,
        rows: Int, spp: Int, legacy: Bool, into out: MutableRawPlane, what: String
    ) throws(CodecError) {
        let header = try LosslessJPEGHeader(data, what: what)
        let rowSamples = chunkWidth * spp
        let frameRow = header.width * header.components.count
        let needed = rowSamples * region.height
        guard frameRow * header.height >= needed else {
            throw .malformed(
                what: "\(what) lossless JPEG frame", offset: 0,
                reason:
                    "\(header.width)×\(header.height)×\(header.components.count) samples cannot fill a \(chunkWidth)×\(rows)×\(spp) chunk"
            )
        }
        let visible = region.width * spp
        var k = 0  // linear sample index within the chunk
        try LosslessJPEGDecoder.decode(
            data, header: header, legacyCategory16: legacy, rowLimit: (needed + frameRow - 1) / frameRow, what: what
        ) { _, row throws(CodecError) in
            var consumed = 0
            while consumed < frameRow, k < needed {
                let ty = k / rowSamples
                let tx = k % rowSamples
                let n = min(frameRow - consumed, rowSamples - tx)
                if tx < visible {
                    let copy = min(n, visible - tx)
                    (out.row(region.y + ty, as: UInt16.self) + region.x * spp + tx).update(
                        from: row + consumed, count: copy)
                }
                consumed += n
                k += n
            }
        }
    }

    /// Copies a decoded chunk into the output plane, expanding 3-sample pixels into RGBA.
    static func place(
        _ samples: ChunkSamples, region: (x: Int, y: Int, width: Int, height: Int, plane: Int), chunkWidth: Int,
        chunkSPP: Int, planar: Bool, into out: MutableRawPlane, outputSPP: Int, fileSPP: Int
    ) {
        let rowSamples = chunkWidth * chunkSPP
        /// Sample by sample into the output channel each stored sample feeds.
        func spread<S, D>(_ src: UnsafePointer<S>, _: D.Type, _ convert: (S) -> D) {
            for r in 0..<region.height {
                let d = out.row(region.y + r, as: D.self)
                let srow = src + r * rowSamples
                for x in 0..<region.width {
                    for c in 0..<chunkSPP {
                        d[(region.x + x) * outputSPP + (planar ? region.plane : c)] = convert(srow[x * chunkSPP + c])
                    }
                }
            }
        }
        samples.withBase { base, kind in
            switch kind {
            case .u16 where !planar && chunkSPP == outputSPP:
                let src = base.assumingMemoryBound(to: UInt16.self)
                for r in 0..<region.height {
                    (out.row(region.y + r, as: UInt16.self) + region.x * outputSPP)
                        .update(from: src + r * rowSamples, count: region.width * outputSPP)
                }
            case .u16: spread(base.assumingMemoryBound(to: UInt16.self), UInt16.self) { $0 }
            case .u8: spread(base.assumingMemoryBound(to: UInt8.self), UInt16.self) { UInt16($0) }
            case .f32: spread(base.assumingMemoryBound(to: Float.self), Float.self) { $0 }
            case .f16: spread(base.assumingMemoryBound(to: UInt16.self), Float.self) { Float(Float16(bitPattern: $0)) }
            }
        }
    }

    /// 8-bit lossy-JPEG Linear Raw tiles (Compression 34892, DNG 1.4 proxies).
    static func decodeLossyJPEG(
        _ p: TIFFParser, _ layout: TIFFChunkLayout, _ props: RawProperties, format: PixelFormat, what: String,
        options: DecodingOptions
    ) throws(CodecError) -> PixelBuffer {
        // One RGBA tile at a time next to the output; a tile's JPEG may be padded to whole 16-pixel MCUs.
        let maxTileWidth = (layout.chunkWidth + 15) / 16 * 16
        let maxTileHeight = (layout.chunkHeight + 15) / 16 * 16
        let options = options.budgeted()
        _ = try options.budget!.reserveChunkedDecode(
            outputBytes: props.width * props.height * format.bytesPerPixel(),
            chunkBytes: maxTileWidth * maxTileHeight * 4, threads: 1, what: what)
        var out = PixelBuffer(width: props.width, height: props.height, format: format)
        let plane = out.unsafeSharedMutablePlane()
        for i in 0..<layout.count {
            let region = layout.region(i)
            let data = try p.reader.view(layout.offsets[i], layout.counts[i], "\(what) tile \(i)")
            let header = try JPEGHeader(data)
            try JPEG.checkDecodable(header)
            guard header.width >= region.width, header.height >= region.height else {
                throw .malformed(
                    what: "\(what) tile \(i)", offset: layout.offsets[i], reason: "JPEG tile smaller than the tile")
            }
            guard header.width <= maxTileWidth, header.height <= maxTileHeight else {
                throw .malformed(
                    what: "\(what) tile \(i)", offset: layout.offsets[i],
                    reason:
                        "the JPEG is \(header.width)×\(header.height) for a \(layout.chunkWidth)×\(layout.chunkHeight) tile"
                )
            }
            let gray = header.componentCount == 1
            var tile = PixelBuffer(width: header.width, height: header.height, format: gray ? .gray8 : .rgba8)
            try JPEG.decodePixels(
                data, into: &tile, gray: gray, limits: options.limits, libraryBudget: options.remainingBytes)
            tile.withUnsafePlane { t in
                for r in 0..<region.height {
                    let s = t.row(r, as: UInt8.self)
                    let d = plane.row(region.y + r, as: UInt16.self)
                    let channels = format.channelCount == 1 ? 1 : 4
                    for x in 0..<region.width {
                        for c in 0..<channels {
                            d[(region.x + x) * channels + c] = UInt16(s[x * (gray ? 1 : 4) + (gray ? 0 : c)])
                        }
                    }
                }
            }
        }
        if format == .rgba16 { fillOpaque(&out) }
        return out
    }
}

extension TIFFChunkLayout {
    /// The bytes of the first strip or tile of a directory, when they lie in the file.
    static func firstChunk(_ p: TIFFParser, _ d: TIFFDirectory) throws(CodecError) -> UnsafeRawBufferPointer {
        let tiled = d.has(TIFFTag.tileOffsets)
        guard let o = try p.integer(d, tiled ? TIFFTag.tileOffsets : TIFFTag.stripOffsets),
            let n = try p.integer(d, tiled ? TIFFTag.tileByteCounts : TIFFTag.stripByteCounts)
        else { throw .missingPixelData(what: "first chunk", reason: "no offsets") }
        return try p.reader.view(o, n, "first chunk")
    }
}

/// Collects the first error thrown by parallel workers.
final class FirstError: Sendable {
    private let state = Mutex<CodecError?>(nil)

    var hasError: Bool { state.withLock { $0 != nil } }
    var error: CodecError? { state.withLock { $0 } }

    func record(_ e: CodecError) {
        state.withLock { if $0 == nil { $0 = e } }
    }
}
