/// A Huffman table for lossless-JPEG difference categories, with an 11-bit lookahead table.
///
/// Each lookahead entry resolves the code of the next bits and, when the code and its extra bits both fit
/// in the lookahead, the signed difference itself — so most samples cost one table read. Longer codes fall
/// back to the canonical `maxCode`/`valueOffset` walk of ITU-T T.81 F.2.2.3.
struct HuffmanDecodingTable: Sendable {
    static let lookaheadBits = 11

    /// Entry layout: bits 0–4 bits consumed (0 = slow path), bit 5 = the difference is complete,
    /// bits 8–12 the category SSSS, bits 16–31 the difference (Int16).
    var lookahead: [UInt32]
    /// Largest code of each length 1…16 (−1 when none), for the slow path.
    var maxCode: [Int32]
    var valueOffset: [Int32]
    var values: [UInt8]

    /// Builds a table from the DHT counts (16 entries) and symbols.
    init(counts: [UInt8], symbols: [UInt8], what: String, offset: Int) throws(CodecError) {
        guard counts.count == 16 else {
            throw .malformed(what: what, offset: offset, reason: "a Huffman table needs 16 counts")
        }
        let total = counts.reduce(0) { $0 + Int($1) }
        guard total == symbols.count, total > 0, total <= 256 else {
            throw .malformed(what: what, offset: offset, reason: "\(total) codes for \(symbols.count) symbols")
        }
        guard symbols.allSatisfy({ $0 <= 16 }) else {
            throw .malformed(what: what, offset: offset, reason: "a lossless difference category exceeds 16")
        }
        values = symbols
        maxCode = Array(repeating: -1, count: 18)
        valueOffset = Array(repeating: 0, count: 18)
        lookahead = Array(repeating: 0, count: 1 << Self.lookaheadBits)
        var code: Int32 = 0
        var k = 0
        for length in 1...16 {
            let n = Int(counts[length - 1])
            // A code space overflow means the counts describe an impossible table (checked before the codes
            // of this length are laid out, so no code indexes past the lookahead table).
            guard Int(code) + n <= 1 << length else {
                throw .malformed(what: what, offset: offset, reason: "the code lengths over-subscribe the code space")
            }
            if n > 0 {
                valueOffset[length] = Int32(k) - code
                for _ in 0..<n {
                    // A code that does not fit in `length` bits means the counts over-subscribe the code
                    // space; checked before the code indexes the lookahead table.
                    guard code < (1 << length) else {
                        throw .malformed(
                            what: what, offset: offset, reason: "the code lengths over-subscribe the code space")
                    }
                    let symbol = symbols[k]
                    if length <= Self.lookaheadBits {
                        let shift = Self.lookaheadBits - length
                        let first = Int(code) << shift
                        for fill in 0..<(1 << shift) {
                            let index = first | fill
                            let ssss = Int(symbol)
                            var entry = UInt32(length) | UInt32(ssss) << 8
                            if length + ssss <= Self.lookaheadBits, ssss < 16 {
                                // The extra bits are the next `ssss` bits after the code.
                                let extra = (index >> (Self.lookaheadBits - length - ssss)) & ((1 << ssss) - 1)
                                let diff = Self.extend(Int32(extra), ssss)
                                entry =
                                    UInt32(length + ssss) | 1 << 5 | UInt32(ssss) << 8
                                    | UInt32(UInt16(bitPattern: Int16(truncatingIfNeeded: diff))) << 16
                            }
                            lookahead[index] = entry
                        }
                    }
                    code += 1
                    k += 1
                }
                maxCode[length] = code - 1
            }
            code <<= 1
        }
        maxCode[17] = Int32.max
    }

    /// T.81 F.12: the signed difference of `ssss` extra bits `v`.
    @inline(__always)
    static func extend(_ v: Int32, _ ssss: Int) -> Int32 {
        if ssss == 0 { return 0 }
        return v < (1 << (ssss - 1)) ? v - (1 << ssss) + 1 : v
    }
}
