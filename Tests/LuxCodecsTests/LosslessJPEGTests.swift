import Foundation
import LuxPixels
import LuxTestSupport
import Testing

@testable import LuxCodecs

/// A deliberately simple lossless-JPEG encoder written from ITU-T T.81 Annex H for the tests: any predictor,
/// several components, row-aligned restart intervals, and a fixed Huffman table given by its code lengths.
struct ReferenceLJ92 {
    var predictor: Int
    var precision: Int = 16
    var restartRows: Int = 0
    /// Code lengths (DHT counts) and symbols.
    var counts: [UInt8]
    var symbols: [UInt8]

    /// Every category 0…16 gets a 5-bit code.
    static let flat = (counts: [0, 0, 0, 0, 17] + [UInt8](repeating: 0, count: 11), symbols: (0...16).map(UInt8.init))
    /// Category k gets a (k+1)-bit code (0, 10, 110, …): categories ≥ 11 need more than 11 bits.
    ///
    /// No category 16.
    static let long = (counts: [UInt8](repeating: 1, count: 16), symbols: (0...15).map(UInt8.init))

    func encode(_ rows: [[UInt16]], components nf: Int) -> [UInt8] {
        let h = rows.count
        let w = rows[0].count / nf
        var codes: [Int: (UInt32, Int)] = [:]
        var code: UInt32 = 0
        var k = 0
        for length in 1...16 {
            for _ in 0..<Int(counts[length - 1]) {
                codes[Int(symbols[k])] = (code, length)
                code += 1
                k += 1
            }
            code <<= 1
        }
        var out: [UInt8] = [
            0xFF, 0xD8, 0xFF, 0xC3, 0, UInt8(8 + 3 * nf), UInt8(precision), UInt8(h >> 8), UInt8(h & 255),
            UInt8(w >> 8), UInt8(w & 255), UInt8(nf),
        ]
        for c in 0..<nf { out += [UInt8(c + 1), 0x11, 0] }
        let dhtLength = 2 + 17 + symbols.count
        out += [0xFF, 0xC4, UInt8(dhtLength >> 8), UInt8(dhtLength & 255), 0x00] + counts + symbols
        if restartRows > 0 {
            let interval = restartRows * w
            out += [0xFF, 0xDD, 0, 4, UInt8(interval >> 8), UInt8(interval & 255)]
        }
        out += [0xFF, 0xDA, 0, UInt8(6 + 2 * nf), UInt8(nf)]
        for c in 0..<nf { out += [UInt8(c + 1), 0x00] }
        out += [UInt8(predictor), 0, 0]
        var bits: [Bool] = []
        func put(_ v: UInt32, _ n: Int) {
            for i in stride(from: n - 1, through: 0, by: -1) { bits.append((v >> UInt32(i)) & 1 == 1) }
        }
        func flush() {
            while bits.count % 8 != 0 { bits.append(true) }
            for i in stride(from: 0, to: bits.count, by: 8) {
                var b: UInt8 = 0
                for j in 0..<8 { b = b << 1 | (bits[i + j] ? 1 : 0) }
                out.append(b)
                if b == 0xFF { out.append(0) }
            }
            bits = []
        }
        var restartIndex = 0
        for y in 0..<h {
            let first = restartRows > 0 ? y % restartRows == 0 : y == 0
            if restartRows > 0, y > 0, y % restartRows == 0 {
                flush()
                out += [0xFF, UInt8(0xD0 + restartIndex % 8)]
                restartIndex += 1
            }
            for x in 0..<w {
                for c in 0..<nf {
                    let i = x * nf + c
                    let v = Int(rows[y][i])
                    let pred: Int
                    if first {
                        pred = x == 0 ? 1 << (precision - 1) : Int(rows[y][i - nf])
                    } else if x == 0 {
                        pred = Int(rows[y - 1][i])
                    } else {
                        let a = Int(rows[y][i - nf])
                        let b = Int(rows[y - 1][i])
                        let cc = Int(rows[y - 1][i - nf])
                        switch predictor {
                        case 1: pred = a
                        case 2: pred = b
                        case 3: pred = cc
                        case 4: pred = a + b - cc
                        case 5: pred = a + ((b - cc) >> 1)
                        case 6: pred = b + ((a - cc) >> 1)
                        default: pred = (a + b) >> 1
                        }
                    }
                    var diff = (v - pred) & 0xFFFF
                    if diff >= 32768 { diff -= 65536 }
                    var ssss = 0
                    while (1 << ssss) <= abs(diff) { ssss += 1 }
                    let (c0, l0) = codes[ssss]!
                    put(c0, l0)
                    if ssss > 0, ssss < 16 {
                        let extra = diff > 0 ? diff : diff - 1
                        put(UInt32(extra & ((1 << ssss) - 1)), ssss)
                    }
                }
            }
        }
        flush()
        return out + [0xFF, 0xD9]
    }
}

@Suite struct LosslessJPEGTests {
    /// Smooth content with noise, some large jumps, and full-range values.
    static func samples(width: Int, height: Int, components nf: Int, seed: UInt64, maxValue: Int = 65535) -> [[UInt16]]
    {
        var s = seed
        return (0..<height).map { y in
            (0..<(width * nf)).map { i in
                s = s &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let noise = Int(s >> 54) - 512
                let jump = (i / nf) % 37 == 0 ? Int(s >> 48) : 0
                return UInt16(clamping: min(maxValue, max(0, (y * 97 + i * 31) % 40000 + noise + jump)))
            }
        }
    }

    func decode(_ bytes: [UInt8]) throws -> [[UInt16]] {
        try bytes.withUnsafeBytes { raw in
            let header = try LosslessJPEGHeader(raw, what: "test")
            var rows: [[UInt16]] = []
            try LosslessJPEGDecoder.decode(raw, header: header, what: "test") { _, row in
                rows.append(Array(UnsafeBufferPointer(start: row, count: header.width * header.components.count)))
            }
            return rows
        }
    }

    @Test(
        "every predictor, one to four components, decodes what the reference encoder wrote",
        arguments: Array(1...7), [1, 2, 3, 4])
    func predictors(_ predictor: Int, _ nf: Int) throws {
        let rows = Self.samples(width: 53, height: 17, components: nf, seed: UInt64(predictor * 10 + nf))
        let bytes = ReferenceLJ92(
            predictor: predictor, counts: ReferenceLJ92.flat.counts, symbols: ReferenceLJ92.flat.symbols
        )
        .encode(rows, components: nf)
        #expect(try decode(bytes) == rows)
    }

    @Test("codes longer than the 11-bit lookahead, and restart markers every 3 rows", arguments: [1, 6])
    func longCodesAndRestarts(_ predictor: Int) throws {
        let rows = Self.samples(width: 40, height: 12, components: 2, seed: 99, maxValue: 32767)
        var encoder = ReferenceLJ92(
            predictor: predictor, counts: ReferenceLJ92.long.counts, symbols: ReferenceLJ92.long.symbols)
        #expect(try decode(encoder.encode(rows, components: 2)) == rows)
        encoder.restartRows = 3
        #expect(try decode(encoder.encode(rows, components: 2)) == rows)
    }

    @Test("Lux's encoder output decodes to the input", arguments: [1, 2, 4])
    func encoderRoundTrip(_ nf: Int) throws {
        let rows = Self.samples(width: 64, height: 30, components: nf, seed: 5)
        let flat = rows.flatMap { $0 }
        let bytes = flat.withUnsafeBufferPointer {
            LosslessJPEGEncoder.encode(
                samples: $0.baseAddress!, rowStride: 64 * nf, width: 64, height: 30, components: nf, precision: 16)
        }
        #expect(try decode(bytes) == rows)
    }

    @Test("truncated entropy-coded data throws instead of padding with zeros")
    func truncatedData() throws {
        let rows = Self.samples(width: 64, height: 20, components: 1, seed: 3)
        let bytes = ReferenceLJ92(predictor: 1, counts: ReferenceLJ92.flat.counts, symbols: ReferenceLJ92.flat.symbols)
            .encode(rows, components: 1)
        #expect(throws: CodecError.self) { _ = try decode(Array(bytes.prefix(bytes.count / 2))) }
    }

    /// dcraw is the oracle here: a DNG whose single tile is coded with predictor `p` by the reference encoder.
    @Test(
        "dcraw decodes reference-encoded tiles (predictors 1–7) to the same values as Lux", .needs("dcraw"),
        arguments: Array(1...7))
    func dcrawAgrees(_ predictor: Int) throws {
        let w = 64
        let h = 32
        let rows = Self.samples(width: w / 2, height: h, components: 2, seed: UInt64(predictor), maxValue: 16383)
        let tile = ReferenceLJ92(
            predictor: predictor, precision: 14, counts: ReferenceLJ92.flat.counts, symbols: ReferenceLJ92.flat.symbols
        )
        .encode(rows, components: 2)
        var d = TIFFOutputDirectory()
        d[TIFFTag.newSubfileType] = .longs([0])
        d[TIFFTag.imageWidth] = .longs([UInt32(w)])
        d[TIFFTag.imageLength] = .longs([UInt32(h)])
        d[TIFFTag.bitsPerSample] = .shorts([14])
        d[TIFFTag.compression] = .shorts([7])
        d[TIFFTag.photometric] = .shorts([32803])
        d[TIFFTag.samplesPerPixel] = .shorts([1])
        d[TIFFTag.tileWidth] = .longs([UInt32(w)])
        d[TIFFTag.tileLength] = .longs([UInt32(h)])
        d[TIFFTag.cfaRepeatPatternDim] = .shorts([2, 2])
        d[TIFFTag.cfaPattern] = .bytes([0, 1, 1, 2])
        d[TIFFTag.make] = .ascii("Lux")
        d[TIFFTag.model] = .ascii("Test")
        d[TIFFTag.dngVersion] = .bytes([1, 4, 0, 0])
        d[TIFFTag.uniqueCameraModel] = .ascii("Lux Test")
        d[TIFFTag.colorMatrix1] = .signedRationals(
            SyntheticRaw.xyzToCamera.entries.map { Rational(Int64($0 * 10000), 10000) })
        d[TIFFTag.calibrationIlluminant1] = .shorts([21])
        d[TIFFTag.whiteLevel] = .longs([16383])
        d.data = TIFFImageData(
            offsetsTag: TIFFTag.tileOffsets, countsTag: TIFFTag.tileByteCounts, blobs: [.bytes(tile)])
        let bytes = TIFFEncoder.encode(d)
        let ours = try DNG.decode(bytes).pixels.components(as: UInt16.self)
        #expect(ours == rows.flatMap { $0 })
        let dir = try ExternalTool.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("p\(predictor).dng")
        try Data(bytes).write(to: url)
        let pgm = try NetpbmImage(ExternalTool.capture("dcraw", ["-D", "-4", "-c", url.path]).stdout)
        #expect(pgm.samples == ours)
    }
}

/// Regression: a DHT whose counts over-subscribe a code length (found by the mutation corpus) used to
/// index past the lookahead table; it must throw.
@Suite struct HuffmanTableRegressionTests {
    @Test func overSubscribedCodeLengthThrows() {
        // Three codes of length 1 cannot exist (only "0" and "1").
        var counts = [UInt8](repeating: 0, count: 16)
        counts[0] = 3
        #expect(throws: CodecError.self) {
            try HuffmanDecodingTable(counts: counts, symbols: [0, 1, 2], what: "DHT", offset: 0)
        }
        // Over-subscription discovered only after shorter lengths: 2 codes of length 1, then 1 of length 2.
        counts = [UInt8](repeating: 0, count: 16)
        counts[0] = 2
        counts[1] = 1
        #expect(throws: CodecError.self) {
            try HuffmanDecodingTable(counts: counts, symbols: [0, 1, 2], what: "DHT", offset: 0)
        }
        // A full but valid table still builds: 1 code of length 1, 2 of length 2.
        counts = [UInt8](repeating: 0, count: 16)
        counts[0] = 1
        counts[1] = 2
        #expect(throws: Never.self) {
            try HuffmanDecodingTable(counts: counts, symbols: [0, 1, 2], what: "DHT", offset: 0)
        }
    }
}
