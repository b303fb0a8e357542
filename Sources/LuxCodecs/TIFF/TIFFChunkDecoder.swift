import LuxPixels

/// Decoded samples of one strip or tile, row-major, `width × rows × samplesPerPixel` values.
enum ChunkSamples {
    case u8([UInt8])
    case u16([UInt16])
    case f32([Float])
    /// IEEE half-precision samples as their bit patterns.
    case f16([UInt16])
    /// Uncompressed samples read in place from the file (host byte order, aligned).
    case borrowed(UnsafeRawBufferPointer, kind: Kind)

    /// The element type of the samples.
    enum Kind { case u8, u16, f16, f32 }

    /// Lends the first sample and the element type.
    func withBase<R>(_ body: (UnsafeRawPointer, Kind) -> R) -> R {
        switch self {
        case .u8(let a): a.withUnsafeBytes { body($0.baseAddress!, .u8) }
        case .u16(let a): a.withUnsafeBytes { body($0.baseAddress!, .u16) }
        case .f32(let a): a.withUnsafeBytes { body($0.baseAddress!, .f32) }
        case .f16(let a): a.withUnsafeBytes { body($0.baseAddress!, .f16) }
        case .borrowed(let raw, let kind): body(raw.baseAddress!, kind)
        }
    }
}

/// How the samples of a chunk are stored.
struct ChunkFormat {
    var bitsPerSample: Int
    /// Samples per pixel in the chunk (1 for planar storage).
    var samplesPerPixel: Int
    var isFloat: Bool
    var compression: Int
    var predictor: Int
    var bigEndian: Bool
    /// Lossless JPEG with DNG < 1.1 category-16 behaviour.
    var legacyLosslessJPEG: Bool = false
    /// Keep 8-bit samples as `.u8` (TIFF) instead of widening them to `.u16` (DNG).
    var keepsBytes: Bool = false
    /// The JPEGTables field (tag 347) of a TIFF whose compression 7 chunks are lossy (DCT) JPEG streams that leave
    /// their quantisation and Huffman tables to it; `nil` for DNG and self-contained streams.
    var jpegTables: [UInt8]? = nil

    /// Bytes in one stored row of `width` pixels (rows start on a byte boundary).
    func rowBytes(_ width: Int) -> Int { (width * samplesPerPixel * bitsPerSample + 7) / 8 }

    /// The most memory ``TIFFChunkDecoder/decode(_:width:rows:format:what:offset:)`` allocates for one chunk of `width`
    /// × `rows` pixels: the decompressed bytes and the unpacked samples.
    ///
    /// Saturates instead of overflowing (a hostile tile size then fails the limit check).
    func workingBytes(width: Int, rows: Int) -> Int {
        let (pixels, o1) = width.multipliedReportingOverflow(by: rows)
        let (samples, o2) = pixels.multipliedReportingOverflow(by: samplesPerPixel)
        let (bits, o3) = samples.multipliedReportingOverflow(by: bitsPerSample)
        guard !o1, !o2, !o3, samples <= Int.max / 8 else { return .max }
        let stored = (bits + 7) / 8 + rows  // rows start on byte boundaries
        if compression == 7 { return 2 * samples }
        let unpacked = isFloat ? 4 * samples : (bitsPerSample <= 8 && keepsBytes ? 0 : 2 * samples)
        return stored + unpacked
    }
}

/// Turns the bytes of one strip or tile into samples: decompression, predictor, bit unpacking.
enum TIFFChunkDecoder {
    static func decode(
        _ data: UnsafeRawBufferPointer, width: Int, rows: Int, format f: ChunkFormat, what: String, offset: Int
    ) throws(CodecError) -> ChunkSamples {
        let rowBytes = f.rowBytes(width)
        let expected = rowBytes * rows
        // Uncompressed 8-bit, or 16/32-bit in host order at an aligned address: read in place, no copy.
        if f.compression == 1, f.predictor == 1, data.count >= expected, let base = data.baseAddress {
            let hostOrder = f.bigEndian == (UInt16(1).bigEndian == 1)
            let samples = UnsafeRawBufferPointer(rebasing: data[0..<expected])
            switch (f.bitsPerSample, f.isFloat) {
            case (8, false) where f.keepsBytes: return .borrowed(samples, kind: .u8)
            case (16, false) where hostOrder && Int(bitPattern: base) % 2 == 0: return .borrowed(samples, kind: .u16)
            case (16, true) where hostOrder && Int(bitPattern: base) % 2 == 0: return .borrowed(samples, kind: .f16)
            case (32, true) where hostOrder && Int(bitPattern: base) % 4 == 0: return .borrowed(samples, kind: .f32)
            default: break
            }
        }
        if f.compression == 7, f.keepsBytes, try !isLosslessJPEG(data, what: what) {
            return .u8(
                try lossyJPEG(data, tables: f.jpegTables, width: width, rows: rows, spp: f.samplesPerPixel, what: what))
        }
        if f.compression == 7 {
            return .u16(
                try losslessJPEG(
                    data, width: width, rows: rows, spp: f.samplesPerPixel, legacy: f.legacyLosslessJPEG, what: what))
        }
        var bytes: [UInt8]
        switch f.compression {
        case 1:
            guard data.count >= expected else {
                throw .truncated(what: "\(what) (\(data.count) of \(expected) bytes)", offset: offset + data.count)
            }
            bytes = Array(UnsafeRawBufferPointer(rebasing: data[0..<expected]))
        case 8, 32946:
            bytes = try TIFFDecompression.inflate(data, expected: expected, what: what, offset: offset)
        case 5:
            bytes = try TIFFDecompression.lzw(data, expected: expected, what: what, offset: offset)
        case 32773:
            bytes = try TIFFDecompression.packBits(data, expected: expected, what: what, offset: offset)
        default:
            throw .unsupported(what: "\(what) compression \(f.compression)", reason: compressionName(f.compression))
        }
        if f.isFloat {
            return try floats(&bytes, width: width, rows: rows, format: f, what: what, offset: offset)
        }
        var samples = try unpack(bytes, width: width, rows: rows, format: f, what: what, offset: offset)
        try applyIntegerPredictor(&samples, width: width, rows: rows, format: f, what: what, offset: offset)
        return samples
    }

    static func compressionName(_ c: Int) -> String {
        switch c {
        case 6: "old-style JPEG is not supported"
        case 34713: "Nikon NEF compression is not supported (convert the file to DNG)"
        case 34892: "lossy JPEG raw data is handled separately"
        case 52546: "JPEG XL raw data is not supported"
        case 65000: "Kodak compression is not supported"
        default: "this compression is not implemented"
        }
    }

    // MARK: Lossy JPEG (TIFF compression 7)

    /// Whether a compression 7 chunk is a lossless (SOF3) JPEG stream, as DNG stores; TIFF's are usually baseline.
    static func isLosslessJPEG(_ data: UnsafeRawBufferPointer, what: String) throws(CodecError) -> Bool {
        // The first start-of-frame marker decides; the tables-only segments before it are skipped by length.
        var i = 2
        while i + 4 <= data.count, data[i] == 0xFF {
            let marker = data[i + 1]
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) { return marker == 0xC3 }
            i += 2 + (Int(data[i + 2]) << 8 | Int(data[i + 3]))
        }
        // A stream without a frame header before its scan: a lossless decode reports what is wrong with it.
        return true
    }

    /// Decodes a lossy JPEG chunk (its tables from `tables`, the JPEGTables field, when it has none of its own)
    /// through libjpeg-turbo into `width` × `rows` × `spp` 8-bit samples: R, G, B for Y′CbCr or RGB data (Y′CbCr
    /// subsampling as the stream's sampling factors say), one gray sample otherwise.
    static func lossyJPEG(
        _ data: UnsafeRawBufferPointer, tables: [UInt8]?, width: Int, rows: Int, spp: Int, what: String
    ) throws(CodecError) -> [UInt8] {
        guard spp == 1 || spp == 3, data.count >= 4 else {
            throw .unsupported(what: "\(what) JPEG data with \(spp) samples", reason: "1 (gray) or 3 (colour) samples")
        }
        // The tables' stream without its EOI, then the chunk's without its SOI: one complete JPEG.
        var stream: [UInt8]
        if let tables, tables.count >= 4, tables[0] == 0xFF, tables[1] == 0xD8 {
            stream = Array(tables.dropLast(tables.suffix(2) == [0xFF, 0xD9] ? 2 : 0)) + Array(data.dropFirst(2))
        } else {
            stream = Array(data)
        }
        let header = try JPEGHeader(bytes: stream)
        try JPEG.checkDecodable(header)
        let gray = header.componentCount == 1
        guard gray == (spp == 1), header.width >= width, header.height >= rows else {
            throw .malformed(
                what: "\(what) JPEG frame", offset: 0,
                reason:
                    "\(header.width)×\(header.height)×\(header.componentCount) cannot fill a \(width)×\(rows)×\(spp) chunk"
            )
        }
        var frame = PixelBuffer(width: header.width, height: header.height, format: gray ? .gray8 : .rgba8)
        try withBytes(of: stream) { raw throws(CodecError) in
            try JPEG.decodePixels(raw, into: &frame, gray: gray, limits: .default)
        }
        var out = [UInt8](repeating: 0, count: width * rows * spp)
        frame.withUnsafePlane { plane in
            for y in 0..<rows {
                let row = plane.row(y, as: UInt8.self)
                for x in 0..<width {
                    for c in 0..<spp { out[(y * width + x) * spp + c] = row[x * (gray ? 1 : 4) + c] }
                }
            }
        }
        return out
    }

    // MARK: Lossless JPEG

    static func losslessJPEG(
        _ data: UnsafeRawBufferPointer, width: Int, rows: Int, spp: Int, legacy: Bool, what: String
    ) throws(CodecError) -> [UInt16] {
        let header = try LosslessJPEGHeader(data, what: what)
        let rowSamples = width * spp
        let total = rowSamples * rows
        let frameTotal = header.width * header.components.count * header.height
        guard frameTotal >= total else {
            throw .malformed(
                what: "\(what) lossless JPEG frame", offset: 0,
                reason:
                    "\(header.width)×\(header.height)×\(header.components.count) samples cannot fill a \(width)×\(rows)×\(spp) chunk"
            )
        }
        var out = [UInt16](repeating: 0, count: total)
        try out.withUnsafeMutableBufferPointer { dst throws(CodecError) in
            let base = dst.baseAddress!
            let frameRow = header.width * header.components.count
            var k = 0  // linear sample index in the chunk
            let rowsNeeded = (total + frameRow - 1) / frameRow
            try LosslessJPEGDecoder.decode(
                data, header: header, legacyCategory16: legacy, rowLimit: rowsNeeded, what: what
            ) { _, row throws(CodecError) in
                let n = min(frameRow, total - k)
                if n > 0 { (base + k).update(from: row, count: n) }
                k += n
            }
        }
        return out
    }

    // MARK: Unpacking

    static func unpack(_ bytes: [UInt8], width: Int, rows: Int, format f: ChunkFormat, what: String, offset: Int)
        throws(CodecError)
        -> ChunkSamples
    {
        let n = width * f.samplesPerPixel
        let rowBytes = f.rowBytes(width)
        switch f.bitsPerSample {
        case 8:
            if f.keepsBytes { return .u8(bytes) }
            return .u16(bytes.map { UInt16($0) })
        case 16:
            var out = [UInt16](repeating: 0, count: n * rows)
            out.withUnsafeMutableBufferPointer { dst in
                bytes.withUnsafeBytes { src in
                    let s = src.baseAddress!
                    let d = dst.baseAddress!
                    if f.bigEndian {
                        for i in 0..<(n * rows) { d[i] = UInt16(bigEndian: (s + 2 * i).loadUnaligned(as: UInt16.self)) }
                    } else {
                        UnsafeMutableRawPointer(d).copyMemory(from: s, byteCount: 2 * n * rows)
                    }
                }
            }
            return .u16(out)
        case 1...15:
            let bps = f.bitsPerSample
            var out = [UInt16](repeating: 0, count: n * rows)
            out.withUnsafeMutableBufferPointer { dst in
                bytes.withUnsafeBufferPointer { src in
                    let mask: UInt64 = (1 << UInt64(bps)) - 1
                    for y in 0..<rows {
                        var p = y * rowBytes
                        let end = p + rowBytes
                        var acc: UInt64 = 0
                        var have = 0
                        let d = dst.baseAddress! + y * n
                        for i in 0..<n {
                            while have < bps {
                                acc = acc << 8 | UInt64(p < end ? src[p] : 0)
                                p += 1
                                have += 8
                            }
                            have -= bps
                            d[i] = UInt16(truncatingIfNeeded: (acc >> UInt64(have)) & mask)
                        }
                    }
                }
            }
            return .u16(out)
        default:
            throw .unsupported(
                what: "\(what) with \(f.bitsPerSample)-bit integer samples", reason: "1–16 bits are supported")
        }
    }

    static func applyIntegerPredictor(
        _ samples: inout ChunkSamples, width: Int, rows: Int, format f: ChunkFormat, what: String, offset: Int
    ) throws(CodecError) {
        let factor: Int
        switch f.predictor {
        case 1: return
        case 2: factor = 1
        case 34892: factor = 2
        case 34893: factor = 4
        default:
            throw .unsupported(
                what: "\(what) predictor \(f.predictor)", reason: "expected 1, 2, 34892 or 34893 for integer data")
        }
        let stride = f.samplesPerPixel * factor
        let n = width * f.samplesPerPixel
        switch samples {
        case .u8(var s):
            for y in 0..<rows {
                let base = y * n
                var i = stride
                while i < n {
                    s[base + i] = s[base + i] &+ s[base + i - stride]
                    i += 1
                }
            }
            samples = .u8(s)
        case .u16(var s):
            let mask: UInt16 = f.bitsPerSample >= 16 ? 0xFFFF : UInt16((1 << f.bitsPerSample) - 1)
            s.withUnsafeMutableBufferPointer { p in
                for y in 0..<rows {
                    let base = y * n
                    var i = stride
                    while i < n {
                        p[base + i] = (p[base + i] &+ p[base + i - stride]) & mask
                        i += 1
                    }
                }
            }
            samples = .u16(s)
        case .f16, .f32, .borrowed:
            break
        }
    }

    /// Floating-point samples (16, 24 or 32 bits), undoing predictor 3 (or the DNG ×2/×4 variants) first:
    /// half-precision bit patterns for 16 bits, `Float` otherwise.
    static func floats(_ bytes: inout [UInt8], width: Int, rows: Int, format f: ChunkFormat, what: String, offset: Int)
        throws(CodecError) -> ChunkSamples
    {
        let bps = f.bitsPerSample
        guard bps == 16 || bps == 24 || bps == 32 else {
            throw .unsupported(
                what: "\(what) with \(bps)-bit floating-point samples", reason: "16, 24 and 32 bits are supported")
        }
        let size = bps / 8
        let n = width * f.samplesPerPixel
        let rowBytes = n * size
        let floatPredictor: Bool
        let factor: Int
        switch f.predictor {
        case 1: (floatPredictor, factor) = (false, 1)
        case 3: (floatPredictor, factor) = (true, 1)
        case 34894: (floatPredictor, factor) = (true, 2)
        case 34895: (floatPredictor, factor) = (true, 4)
        default:
            throw .unsupported(
                what: "\(what) predictor \(f.predictor)", reason: "expected 1, 3, 34894 or 34895 for float data")
        }
        // Big-endian bytes of each sample, most significant first, `size` apart; then assembled.
        return bytes.withUnsafeMutableBytes { raw -> ChunkSamples in
            let src = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            var words = [UInt32](repeating: 0, count: n * rows)
            words.withUnsafeMutableBufferPointer { out in
                for y in 0..<rows {
                    let row = src + y * rowBytes
                    let o = out.baseAddress! + y * n
                    if floatPredictor {
                        // Undo byte differencing; the row then holds byte planes, most significant first.
                        let stride = f.samplesPerPixel * factor
                        if rowBytes > stride {
                            for i in stride..<rowBytes { row[i] = row[i] &+ row[i - stride] }
                        }
                        for j in 0..<n { o[j] = 0 }
                        for b in 0..<size {
                            let plane = row + b * n
                            for j in 0..<n { o[j] = o[j] << 8 | UInt32(plane[j]) }
                        }
                    } else if f.bigEndian {
                        for j in 0..<n {
                            var v: UInt32 = 0
                            for b in 0..<size { v = v << 8 | UInt32(row[j * size + b]) }
                            o[j] = v
                        }
                    } else {
                        for j in 0..<n {
                            var v: UInt32 = 0
                            for b in 0..<size { v = v << 8 | UInt32(row[j * size + size - 1 - b]) }
                            o[j] = v
                        }
                    }
                }
            }
            switch size {
            case 2: return .f16(words.map { UInt16(truncatingIfNeeded: $0) })
            case 3: return .f32(words.map(float24))
            default: return .f32(words.map { Float(bitPattern: $0) })
            }
        }
    }

    /// A 24-bit float (sign, 7-bit exponent with bias 63, 16-bit mantissa) as a `Float`.
    static func float24(_ v: UInt32) -> Float {
        let sign = v >> 23
        let exp = (v >> 16) & 0x7F
        let mant = v & 0xFFFF
        if exp == 0 && mant == 0 { return sign != 0 ? -0.0 : 0 }
        if exp == 0x7F { return Float(bitPattern: sign << 31 | 0xFF << 23 | mant << 7) }
        if exp == 0 {
            let value = Float(mant) / 65536 * Float(sign: .plus, exponent: -62, significand: 1)
            return sign != 0 ? -value : value
        }
        return Float(bitPattern: sign << 31 | (exp + 64) << 23 | mant << 7)
    }
}
