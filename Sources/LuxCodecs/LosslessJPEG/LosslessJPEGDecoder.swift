/// Decodes lossless (SOF3, ITU-T T.81 Annex H) JPEG streams: predictors 1–7, one to four interleaved
/// components, restart intervals aligned to rows, point transform.
///
/// Rows are handed to a sink as `width × components` interleaved samples, so a caller can place them
/// into a DNG tile however the tile is folded.
enum LosslessJPEGDecoder {
    /// Decodes the stream in `bytes`.
    ///
    /// - Parameters:
    ///   - legacyCategory16: read 16 extra bits for difference category 16, as DNG files older than 1.1 do.
    ///   - rowLimit: stop after this many rows (a DNG tile may need fewer rows than the frame declares).
    ///   - row: called once per frame row with its index and the samples (valid during the call).
    /// - Throws: ``CodecError`` for malformed headers, invalid Huffman codes and data that ends early.
    static func decode(
        _ bytes: UnsafeRawBufferPointer, header h: LosslessJPEGHeader, legacyCategory16: Bool = false,
        rowLimit: Int? = nil,
        what: String,
        row sink: (Int, UnsafeMutablePointer<UInt16>) throws(CodecError) -> Void
    ) throws(CodecError) {
        let nf = h.components.count
        let w = h.width
        let rowSamples = w * nf
        if h.restartInterval > 0, h.restartInterval % w != 0 {
            throw .unsupported(
                what: "\(what) restart interval \(h.restartInterval)", reason: "restart intervals must cover whole rows"
            )
        }
        // All lookahead tables side by side; per-component base offsets.
        let lut = h.tables.flatMap {
            $0?.lookahead ?? Array(repeating: 0, count: 1 << HuffmanDecodingTable.lookaheadBits)
        }
        let slow = h.tables
        var scratch = [UInt16](repeating: 0, count: 2 * rowSamples)
        var reader = JPEGBitReader(bytes, start: h.dataOffset)
        let shifted = UnsafeMutablePointer<UInt16>.allocate(capacity: h.pointTransform > 0 ? rowSamples : 1)
        defer { shifted.deallocate() }
        let initial = Int32(1 << (h.precision - h.pointTransform - 1))
        let rowsPerRestart = h.restartInterval > 0 ? h.restartInterval / w : Int.max
        try lut.withUnsafeBufferPointer { lutBuffer throws(CodecError) in
            try scratch.withUnsafeMutableBufferPointer { rows throws(CodecError) in
                var state = DecodeState(
                    lut: lutBuffer.baseAddress!, slow: slow,
                    tableOffsets: h.components.map { $0.table << HuffmanDecodingTable.lookaheadBits },
                    legacy16: legacyCategory16)
                var prev = rows.baseAddress!
                var cur = rows.baseAddress! + rowSamples
                for y in 0..<min(h.height, rowLimit ?? h.height) {
                    var first = y == 0
                    if y > 0, y % rowsPerRestart == 0 {
                        guard reader.restart() else {
                            throw .truncated(what: "\(what) restart marker before row \(y)", offset: reader.position)
                        }
                        first = true
                    }
                    switch h.predictor {
                    case 1: state.decodeRow(&reader, cur, prev, w, nf, first, initial, Predictor1.self)
                    case 2: state.decodeRow(&reader, cur, prev, w, nf, first, initial, Predictor2.self)
                    case 3: state.decodeRow(&reader, cur, prev, w, nf, first, initial, Predictor3.self)
                    case 4: state.decodeRow(&reader, cur, prev, w, nf, first, initial, Predictor4.self)
                    case 5: state.decodeRow(&reader, cur, prev, w, nf, first, initial, Predictor5.self)
                    case 6: state.decodeRow(&reader, cur, prev, w, nf, first, initial, Predictor6.self)
                    default: state.decodeRow(&reader, cur, prev, w, nf, first, initial, Predictor7.self)
                    }
                    if state.badCode {
                        throw .malformed(
                            what: "\(what) entropy-coded data", offset: reader.position,
                            reason: "invalid Huffman code in row \(y)")
                    }
                    if reader.ranPastData {
                        throw .truncated(
                            what: "\(what) entropy-coded data (row \(y) of \(h.height))", offset: reader.position)
                    }
                    if h.pointTransform > 0 {
                        // Prediction works on the shifted-down values; the sink gets them scaled back up.
                        let pt = UInt16(h.pointTransform)
                        for i in 0..<rowSamples { shifted[i] = cur[i] << pt }
                        try sink(y, shifted)
                    } else {
                        try sink(y, cur)
                    }
                    swap(&prev, &cur)
                }
            }
        }
    }
}

/// A T.81 Table H.1 predictor.
protocol LosslessPredictor {
    static func predict(_ a: Int32, _ b: Int32, _ c: Int32) -> Int32
}
enum Predictor1: LosslessPredictor {
    @inline(__always) static func predict(_ a: Int32, _ b: Int32, _ c: Int32) -> Int32 { a }
}
enum Predictor2: LosslessPredictor {
    @inline(__always) static func predict(_ a: Int32, _ b: Int32, _ c: Int32) -> Int32 { b }
}
enum Predictor3: LosslessPredictor {
    @inline(__always) static func predict(_ a: Int32, _ b: Int32, _ c: Int32) -> Int32 { c }
}
enum Predictor4: LosslessPredictor {
    @inline(__always) static func predict(_ a: Int32, _ b: Int32, _ c: Int32) -> Int32 { a &+ b &- c }
}
enum Predictor5: LosslessPredictor {
    @inline(__always) static func predict(_ a: Int32, _ b: Int32, _ c: Int32) -> Int32 { a &+ ((b &- c) >> 1) }
}
enum Predictor6: LosslessPredictor {
    @inline(__always) static func predict(_ a: Int32, _ b: Int32, _ c: Int32) -> Int32 { b &+ ((a &- c) >> 1) }
}
enum Predictor7: LosslessPredictor {
    @inline(__always) static func predict(_ a: Int32, _ b: Int32, _ c: Int32) -> Int32 { (a &+ b) >> 1 }
}

/// The per-stream decoding state used by the row loops.
private struct DecodeState {
    let lut: UnsafePointer<UInt32>
    let slow: [HuffmanDecodingTable?]
    let tableOffsets: [Int]
    let legacy16: Bool
    var badCode = false

    init(lut: UnsafePointer<UInt32>, slow: [HuffmanDecodingTable?], tableOffsets: [Int], legacy16: Bool) {
        self.lut = lut
        self.slow = slow
        self.tableOffsets = tableOffsets
        self.legacy16 = legacy16
    }

    /// Decodes one difference with the table at `table` (an offset into `lut`).
    ///
    /// After a refill the buffer holds at least 32 bits, enough for any code of up to 11 bits (the lookahead)
    /// plus up to 16 extra bits, so only codes longer than the lookahead leave the inline path.
    @inline(__always)
    mutating func diff(_ r: inout JPEGBitReader, _ table: Int) -> Int32 {
        if r.count < 32 { r.fill() }
        let e = lut[table + Int(truncatingIfNeeded: r.buffer >> 53)]
        let n = Int(e & 31)
        if e & 0x20 != 0 {
            r.buffer <<= UInt64(n)
            r.count -= n
            return Int32(Int16(truncatingIfNeeded: e >> 16))
        }
        if n != 0 {
            r.buffer <<= UInt64(n)
            r.count -= n
            let ssss = Int((e >> 8) & 31)
            if ssss == 0 { return 0 }
            if ssss == 16 {
                if legacy16 {
                    r.buffer <<= 16
                    r.count -= 16
                }
                return -32768
            }
            let v = Int32(truncatingIfNeeded: r.buffer >> UInt64(64 - ssss))
            r.buffer <<= UInt64(ssss)
            r.count -= ssss
            return HuffmanDecodingTable.extend(v, ssss)
        }
        return diffSlowly(&r, table, e)
    }

    /// ``diff(_:_:)`` as a call, for the cold places (first row, first column) so the hot loops keep the
    /// inlined copy small enough to stay inlined.
    @inline(never)
    mutating func diffCold(_ r: inout JPEGBitReader, _ table: Int) -> Int32 { diff(&r, table) }

    @inline(never)
    mutating func diffSlowly(_ r: inout JPEGBitReader, _ table: Int, _ e: UInt32) -> Int32 {
        var ssss: Int
        if e & 31 != 0 {
            let n = Int(e & 31)
            r.buffer <<= UInt64(n)
            r.count -= n
            ssss = Int((e >> 8) & 31)
        } else {
            // A code longer than the lookahead: walk lengths 12…16.
            guard let t = slow[table >> HuffmanDecodingTable.lookaheadBits] else {
                badCode = true
                return 0
            }
            var length = HuffmanDecodingTable.lookaheadBits + 1
            var code = Int32(truncatingIfNeeded: r.buffer >> UInt64(64 - length))
            while length <= 16, code > t.maxCode[length] {
                length += 1
                code = Int32(truncatingIfNeeded: r.buffer >> UInt64(64 - length))
            }
            guard length <= 16 else {
                badCode = true
                return 0
            }
            r.buffer <<= UInt64(length)
            r.count -= length
            let index = Int(code + t.valueOffset[length])
            guard index >= 0, index < t.values.count else {
                badCode = true
                return 0
            }
            ssss = Int(t.values[index])
        }
        if ssss == 0 { return 0 }
        if ssss == 16 {
            if legacy16 { _ = r.bits(16) }
            return -32768
        }
        let v = Int32(r.bits(ssss))
        return HuffmanDecodingTable.extend(v, ssss)
    }

    /// Decodes one frame row of `w × nf` samples into `cur`.
    @inline(__always)
    mutating func decodeRow<P: LosslessPredictor>(
        _ r: inout JPEGBitReader, _ cur: UnsafeMutablePointer<UInt16>, _ prev: UnsafeMutablePointer<UInt16>, _ w: Int,
        _ nf: Int, _ first: Bool, _ initial: Int32, _: P.Type
    ) {
        if nf == 1 {
            decodeRow1(&r, cur, prev, w, first, initial, P.self)
            return
        }
        for c in 0..<nf {
            let d = diffCold(&r, tableOffsets[c])
            let pred = first ? initial : Int32(prev[c])
            cur[c] = UInt16(truncatingIfNeeded: pred &+ d)
        }
        var i = nf
        let n = w * nf
        if first {
            while i < n {
                for c in 0..<nf {
                    let d = diffCold(&r, tableOffsets[c])
                    cur[i + c] = UInt16(truncatingIfNeeded: Int32(cur[i + c - nf]) &+ d)
                }
                i += nf
            }
        } else {
            while i < n {
                for c in 0..<nf {
                    let d = diff(&r, tableOffsets[c])
                    let p = P.predict(Int32(cur[i + c - nf]), Int32(prev[i + c]), Int32(prev[i + c - nf]))
                    cur[i + c] = UInt16(truncatingIfNeeded: p &+ d)
                }
                i += nf
            }
        }
    }

    /// The one-component row loop (the common single-tile DNG case), with the table offset hoisted.
    @inline(__always)
    mutating func decodeRow1<P: LosslessPredictor>(
        _ r: inout JPEGBitReader, _ cur: UnsafeMutablePointer<UInt16>, _ prev: UnsafeMutablePointer<UInt16>, _ w: Int,
        _ first: Bool, _ initial: Int32, _: P.Type
    ) {
        let t = tableOffsets[0]
        let d0 = diffCold(&r, t)
        var left = (first ? initial : Int32(prev[0])) &+ d0
        cur[0] = UInt16(truncatingIfNeeded: left)
        left = Int32(cur[0])
        if first {
            for i in 1..<max(w, 1) {
                left = Int32(UInt16(truncatingIfNeeded: left &+ diffCold(&r, t)))
                cur[i] = UInt16(truncatingIfNeeded: left)
            }
        } else {
            var upLeft = Int32(prev[0])
            for i in 1..<max(w, 1) {
                let up = Int32(prev[i])
                let p = P.predict(left, up, upLeft)
                left = Int32(UInt16(truncatingIfNeeded: p &+ diff(&r, t)))
                cur[i] = UInt16(truncatingIfNeeded: left)
                upLeft = up
            }
        }
    }
}
