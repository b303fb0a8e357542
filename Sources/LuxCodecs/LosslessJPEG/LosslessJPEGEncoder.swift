/// Encodes lossless JPEG (SOF3) the way DNG readers expect it: predictor 1, point transform 0, one scan
/// interleaving all components, full-size frames, one optimal Huffman table per component (ITU-T T.81
/// Annex H and K.2; FORMATS.md §2.8).
enum LosslessJPEGEncoder {
    /// Working memory reused across the tiles one thread encodes (fresh large allocations cost page faults).
    final class Scratch {
        private(set) var diffs: UnsafeMutablePointer<Int16>
        private(set) var output: UnsafeMutablePointer<UInt8>
        private var samples: Int

        init(samples: Int = 0) {
            self.samples = max(samples, 1)
            diffs = .allocate(capacity: self.samples)
            output = .allocate(capacity: self.samples * 8 + 16)
        }

        /// Makes room for `n` samples.
        func reserve(_ n: Int) {
            guard n > samples else { return }
            diffs.deallocate()
            output.deallocate()
            samples = n
            diffs = .allocate(capacity: n)
            output = .allocate(capacity: n * 8 + 16)
        }

        deinit {
            diffs.deallocate()
            output.deallocate()
        }
    }

    /// Encodes `height` rows; row `y` holds `width × components` interleaved samples at `samples + y × rowStride`.
    static func encode(
        samples: UnsafePointer<UInt16>, rowStride: Int, width: Int, height: Int, components nf: Int, precision: Int,
        scratch: Scratch = Scratch()
    ) -> [UInt8] {
        precondition(width > 0 && height > 0 && (1...4).contains(nf) && (2...16).contains(precision))
        precondition(width <= 65535 && height <= 65535)
        // Pass 1: differences (kept for pass 2) and category histograms.
        let total = width * height * nf
        scratch.reserve(total)
        let diffs = scratch.diffs
        var histogram = [Int](repeating: 0, count: 18 * nf)
        histogram.withUnsafeMutableBufferPointer { h in
            let base = h.baseAddress!
            var k = 0
            forEachDifference(samples, rowStride, width, height, nf, precision) { c, diff in
                base[c * 18 + category(diff)] += 1
                diffs[k] = Int16(truncatingIfNeeded: diff)
                k += 1
            }
        }
        let tables = (0..<nf).map { HuffmanEncodingTable(frequencies: Array(histogram[($0 * 18)..<($0 * 18 + 18)])) }

        // Headers.
        var head = ByteWriter(bigEndian: true, capacity: 256)
        head.u16(0xFFD8)
        head.u16(0xFFC3)
        head.u16(UInt16(8 + 3 * nf))
        head.u8(UInt8(precision))
        head.u16(UInt16(height))
        head.u16(UInt16(width))
        head.u8(UInt8(nf))
        for c in 0..<nf {
            head.u8(UInt8(c))
            head.u8(0x11)
            head.u8(0)
        }
        head.u16(0xFFC4)
        head.u16(UInt16(2 + tables.reduce(0) { $0 + 17 + $1.symbols.count }))
        for (c, t) in tables.enumerated() {
            head.u8(UInt8(c))
            head.append(t.counts)
            head.append(t.symbols)
        }
        head.u16(0xFFDA)
        head.u16(UInt16(6 + 2 * nf))
        head.u8(UInt8(nf))
        for c in 0..<nf {
            head.u8(UInt8(c))
            head.u8(UInt8(c << 4))
        }
        head.u8(1)  // predictor
        head.u8(0)  // Se
        head.u8(0)  // Ah/Al

        // Pass 2: entropy-coded data. Each sample costs at most 32 bits (64 with byte stuffing).
        let buffer = scratch.output
        var writer = BitWriter(buffer)
        // Code (high 16 bits) and length (low 8 bits) per component and category.
        var codeTable = [UInt32](repeating: 0, count: 17 * nf)
        for (c, t) in tables.enumerated() {
            for s in 0..<17 { codeTable[c * 17 + s] = UInt32(t.codes[s]) << 16 | UInt32(t.lengths[s]) }
        }
        codeTable.withUnsafeBufferPointer { table in
            let t = table.baseAddress!
            @inline(__always) func emit(_ diff: Int32, _ tableBase: Int) {
                let s = category(diff)
                let entry = t[tableBase + s]
                let extraBits = s & 15  // category 16 sends no extra bits
                let extra = UInt32(truncatingIfNeeded: diff > 0 ? diff : diff - 1) & ((1 << UInt32(extraBits)) - 1)
                writer.put((entry >> 16) << UInt32(extraBits) | extra, Int(entry & 0xFF) + extraBits)
            }
            if nf == 1 {
                for i in 0..<total { emit(Int32(diffs[i]), 0) }
            } else {
                var i = 0
                while i < total {
                    for c in 0..<nf { emit(Int32(diffs[i + c]), c * 17) }
                    i += nf
                }
            }
        }
        writer.finish()
        var out = head.bytes
        out.reserveCapacity(out.count + writer.count + 2)
        out.append(contentsOf: UnsafeBufferPointer(start: buffer, count: writer.count))
        out.append(0xFF)
        out.append(0xD9)
        return out
    }

    /// The difference category SSSS: the bit length of |diff| (16 only for −32768).
    @inline(__always)
    static func category(_ diff: Int32) -> Int {
        let magnitude = UInt32(diff.magnitude)
        return 32 - magnitude.leadingZeroBitCount
    }

    /// Calls `body(component, difference)` for every sample in coding order (predictor 1).
    @inline(__always)
    static func forEachDifference(
        _ samples: UnsafePointer<UInt16>, _ rowStride: Int, _ width: Int, _ height: Int, _ nf: Int, _ precision: Int,
        _ body: (Int, Int32) -> Void
    ) {
        let initial = Int32(1 << (precision - 1))
        for y in 0..<height {
            let row = samples + y * rowStride
            let above = samples + (y - 1) * rowStride
            for c in 0..<nf {
                let pred = y == 0 ? initial : Int32(above[c])
                body(c, Int32(Int16(truncatingIfNeeded: Int32(row[c]) - pred)))
            }
            if nf == 1 {
                var left = Int32(row[0])
                for i in 1..<max(width, 1) {
                    let v = Int32(row[i])
                    body(0, Int32(Int16(truncatingIfNeeded: v - left)))
                    left = v
                }
            } else {
                for i in stride(from: nf, to: width * nf, by: nf) {
                    for c in 0..<nf {
                        body(c, Int32(Int16(truncatingIfNeeded: Int32(row[i + c]) - Int32(row[i + c - nf]))))
                    }
                }
            }
        }
    }
}

/// Writes Huffman-coded bits MSB-first with 0xFF byte stuffing into a preallocated buffer.
struct BitWriter {
    let base: UnsafeMutablePointer<UInt8>
    var count = 0
    var accumulator: UInt64 = 0
    var bits = 0

    init(_ base: UnsafeMutablePointer<UInt8>) { self.base = base }

    @inline(__always)
    mutating func put(_ value: UInt32, _ length: Int) {
        accumulator = accumulator << UInt64(length) | UInt64(value)
        bits += length
        if bits >= 32 {
            // Four bytes at once unless one of them is 0xFF (which needs a stuffed zero after it).
            let word = UInt32(truncatingIfNeeded: accumulator >> UInt64(bits - 32))
            let inverted = ~word
            if (inverted &- 0x0101_0101) & ~inverted & 0x8080_8080 == 0 {
                UnsafeMutableRawPointer(base + count).storeBytes(of: word.bigEndian, as: UInt32.self)
                count += 4
                bits -= 32
            } else {
                flush(32)
            }
        }
    }

    @inline(__always)
    mutating func flush(_ n: Int) {
        var k = n
        while k >= 8 {
            let byte = UInt8(truncatingIfNeeded: accumulator >> UInt64(bits - 8))
            base[count] = byte
            count += 1
            if byte == 0xFF {
                base[count] = 0
                count += 1
            }
            bits -= 8
            k -= 8
        }
    }

    /// Pads the last byte with 1-bits and writes what is left.
    mutating func finish() {
        let pad = (8 - bits % 8) % 8
        if pad > 0 { put((1 << UInt32(pad)) - 1, pad) }
        flush(bits)
    }
}

/// An optimal, length-limited Huffman table for categories 0…16 (T.81 K.2 with the all-ones code reserved).
struct HuffmanEncodingTable {
    /// Codes of each length 1…16 (the DHT counts).
    var counts: [UInt8]
    /// Symbols in code order.
    var symbols: [UInt8]
    /// Code and length per symbol 0…16 (17 entries).
    var codes: [UInt16]
    var lengths: [UInt8]

    init(frequencies input: [Int]) {
        let n = 17
        var freq = Array(input.prefix(n)) + Array(repeating: 0, count: max(0, n - input.count))
        freq.append(1)  // reserved symbol: keeps the all-ones code unused
        var codesize = [Int](repeating: 0, count: n + 1)
        var others = [Int](repeating: -1, count: n + 1)
        while true {
            var c1 = -1
            var c2 = -1
            var v1 = Int.max
            var v2 = Int.max
            for i in 0...n where freq[i] > 0 && freq[i] <= v1 {
                v1 = freq[i]
                c1 = i
            }
            for i in 0...n where freq[i] > 0 && freq[i] <= v2 && i != c1 {
                v2 = freq[i]
                c2 = i
            }
            if c2 < 0 { break }
            freq[c1] += freq[c2]
            freq[c2] = 0
            codesize[c1] += 1
            while others[c1] >= 0 {
                c1 = others[c1]
                codesize[c1] += 1
            }
            others[c1] = c2
            codesize[c2] += 1
            while others[c2] >= 0 {
                c2 = others[c2]
                codesize[c2] += 1
            }
        }
        var bits = [Int](repeating: 0, count: 40)
        for i in 0...n where codesize[i] > 0 { bits[codesize[i]] += 1 }
        var i = 39
        while i > 16 {
            while bits[i] > 0 {
                var j = i - 2
                while bits[j] == 0 { j -= 1 }
                bits[i] -= 2
                bits[i - 1] += 1
                bits[j + 1] += 2
                bits[j] -= 1
            }
            i -= 1
        }
        while i > 0, bits[i] == 0 { i -= 1 }
        bits[i] -= 1  // drop the reserved code
        counts = (1...16).map { UInt8(bits[$0]) }
        var order: [UInt8] = []
        for length in 1...39 {
            for s in 0..<n where codesize[s] == length { order.append(UInt8(s)) }
        }
        symbols = Array(order.prefix(counts.reduce(0) { $0 + Int($1) }))
        codes = Array(repeating: 0, count: n)
        lengths = Array(repeating: 0, count: n)
        var code: UInt16 = 0
        var k = 0
        for length in 1...16 {
            for _ in 0..<Int(counts[length - 1]) {
                codes[Int(symbols[k])] = code
                lengths[Int(symbols[k])] = UInt8(length)
                code += 1
                k += 1
            }
            code <<= 1
        }
    }
}
