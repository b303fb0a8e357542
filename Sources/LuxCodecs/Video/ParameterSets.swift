/// H.264 and HEVC parameter sets and NAL units as the QuickTime sample entry and samples hold them: the decoder
/// configuration records (`avcC`, ISO/IEC 14496-15 §5.3.3; `hvcC`, §8.3.3) built from the encoder's parameter sets,
/// and samples made of NAL units each preceded by its 4-byte length.
///
/// Only the header fields the records repeat are read from the parameter sets (profile, level, chroma format, bit
/// depth); the video itself is FFmpeg's business.
enum ParameterSets {
    /// The NAL units of a byte stream in either form: Annex B (start codes `00 00 01` / `00 00 00 01`) or 4-byte
    /// lengths.
    static func nalUnits(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        if bytes.count >= 4, bytes[0] == 0, bytes[1] == 0, bytes[2] == 1 || (bytes[2] == 0 && bytes[3] == 1) {
            return annexBUnits(bytes)
        }
        var units: [ArraySlice<UInt8>] = []
        var i = 0
        while i + 4 <= bytes.count {
            let n = Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            guard n > 0, n <= bytes.count - i - 4 else { break }
            units.append(bytes[(i + 4)..<(i + 4 + n)])
            i += 4 + n
        }
        return units
    }

    private static func annexBUnits(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var starts: [(code: Int, payload: Int)] = []
        var i = 0
        while i + 3 <= bytes.count {
            if bytes[i] == 0, bytes[i + 1] == 0, bytes[i + 2] == 1 {
                starts.append((i > 0 && bytes[i - 1] == 0 ? i - 1 : i, i + 3))
                i += 3
            } else {
                i += 1
            }
        }
        return starts.enumerated().compactMap { k, s in
            var end = k + 1 < starts.count ? starts[k + 1].code : bytes.count
            while end > s.payload, bytes[end - 1] == 0 { end -= 1 }  // trailing zero bytes
            return end > s.payload ? bytes[s.payload..<end] : nil
        }
    }

    /// `units` as a sample: each NAL unit preceded by its length in 4 bytes.
    static func lengthPrefixed(_ units: [ArraySlice<UInt8>]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(units.reduce(0) { $0 + $1.count + 4 })
        for u in units {
            let n = UInt32(u.count)
            out += [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)]
            out += u
        }
        return out
    }

    /// The `avcC` record of an H.264 stream whose parameter sets are among `units`.
    ///
    /// - Throws: ``CodecError/malformed(what:offset:reason:)`` without a sequence and a picture parameter set.
    static func avcConfiguration(_ units: [ArraySlice<UInt8>]) throws(CodecError) -> [UInt8] {
        let sps = units.filter { $0.first.map { $0 & 0x1F == 7 } ?? false }
        let pps = units.filter { $0.first.map { $0 & 0x1F == 8 } ?? false }
        guard let first = sps.first, first.count >= 4, !pps.isEmpty else {
            throw .malformed(
                what: "H.264 encoder output", offset: 0, reason: "no sequence and picture parameter sets to describe")
        }
        let s = Array(first)
        var out: [UInt8] = [1, s[1], s[2], s[3], 0xFF, 0xE0 | UInt8(sps.count)]
        for u in sps { out += length16(u) + u }
        out.append(UInt8(pps.count))
        for u in pps { out += length16(u) + u }
        if [100, 110, 122, 144].contains(s[1]) {
            // High profiles: chroma format and bit depths, read from the SPS.
            var r = BitReader(rbsp(first.dropFirst(4)))
            _ = r.unsignedExpGolomb()  // seq_parameter_set_id
            let chroma = r.unsignedExpGolomb()
            if chroma == 3 { _ = r.bits(1) }
            let luma = r.unsignedExpGolomb()
            let chromaDepth = r.unsignedExpGolomb()
            out += [0xFC | UInt8(chroma & 3), 0xF8 | UInt8(luma & 7), 0xF8 | UInt8(chromaDepth & 7), 0]
        }
        return out
    }

    /// The `hvcC` record of an HEVC stream whose parameter sets are among `units`.
    ///
    /// - Throws: ``CodecError/malformed(what:offset:reason:)`` without VPS, SPS and PPS, or for an SPS too short to
    ///   hold its profile, tier and level.
    static func hevcConfiguration(_ units: [ArraySlice<UInt8>]) throws(CodecError) -> [UInt8] {
        func type(_ u: ArraySlice<UInt8>) -> UInt8 { ((u.first ?? 0) >> 1) & 0x3F }
        let arrays = [32, 33, 34].map { t in units.filter { type($0) == t } }
        guard arrays.allSatisfy({ !$0.isEmpty }), let sps = arrays[1].first else {
            throw .malformed(
                what: "HEVC encoder output", offset: 0, reason: "no video, sequence and picture parameter sets")
        }
        let payload = rbsp(sps.dropFirst(2))
        guard payload.count >= 13 else {
            throw .malformed(what: "HEVC sequence parameter set", offset: 0, reason: "\(payload.count) bytes")
        }
        let maxSubLayersMinus1 = Int(payload[0] >> 1) & 7
        let temporalIdNesting = payload[0] & 1
        var r = BitReader(payload)
        _ = r.bits(8)
        // profile_tier_level: the general part is 12 bytes, copied into the record as it is.
        let general = Array(payload[1..<13])
        _ = r.bits(96)
        var subProfile = [Bool](repeating: false, count: maxSubLayersMinus1)
        var subLevel = [Bool](repeating: false, count: maxSubLayersMinus1)
        for i in 0..<maxSubLayersMinus1 {
            subProfile[i] = r.bits(1) == 1
            subLevel[i] = r.bits(1) == 1
        }
        if maxSubLayersMinus1 > 0 { _ = r.bits(2 * (8 - maxSubLayersMinus1)) }
        for i in 0..<maxSubLayersMinus1 {
            if subProfile[i] { _ = r.bits(88) }
            if subLevel[i] { _ = r.bits(8) }
        }
        _ = r.unsignedExpGolomb()  // sps_seq_parameter_set_id
        let chroma = r.unsignedExpGolomb()
        if chroma == 3 { _ = r.bits(1) }
        _ = r.unsignedExpGolomb()  // width
        _ = r.unsignedExpGolomb()  // height
        if r.bits(1) == 1 { for _ in 0..<4 { _ = r.unsignedExpGolomb() } }  // conformance window
        let luma = r.unsignedExpGolomb()
        let chromaDepth = r.unsignedExpGolomb()
        var out: [UInt8] = [1] + general
        out += [0xF0, 0x00, 0xFC, 0xFC | UInt8(chroma & 3), 0xF8 | UInt8(luma & 7), 0xF8 | UInt8(chromaDepth & 7)]
        out += [0, 0]  // average frame rate: unspecified
        out.append(UInt8(maxSubLayersMinus1 + 1) << 3 | temporalIdNesting << 2 | 3)
        out.append(3)
        for (t, list) in zip([UInt8(32), 33, 34], arrays) {
            out.append(0x80 | t)
            out += [UInt8(list.count >> 8), UInt8(list.count & 0xFF)]
            for u in list { out += length16(u) + u }
        }
        return out
    }

    private static func length16(_ u: ArraySlice<UInt8>) -> [UInt8] {
        [UInt8(u.count >> 8 & 0xFF), UInt8(u.count & 0xFF)]
    }

    /// A NAL unit's payload without its emulation-prevention bytes (`00 00 03` → `00 00`).
    static func rbsp(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var zeros = 0
        for b in bytes {
            if zeros >= 2, b == 3 {
                zeros = 0
                continue
            }
            zeros = b == 0 ? zeros + 1 : 0
            out.append(b)
        }
        return out
    }
}

/// Reads bits most significant first; reads past the end give zeros.
struct BitReader {
    let bytes: [UInt8]
    var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func bits(_ n: Int) -> UInt64 {
        var v: UInt64 = 0
        for _ in 0..<n {
            let byte = position / 8 < bytes.count ? bytes[position / 8] : 0
            v = v << 1 | UInt64(byte >> (7 - UInt8(position % 8)) & 1)
            position += 1
        }
        return v
    }

    /// ue(v): an unsigned exponential-Golomb code (at most 31 leading zeros).
    mutating func unsignedExpGolomb() -> UInt64 {
        var zeros = 0
        while bits(1) == 0, zeros < 31, position < 8 * bytes.count { zeros += 1 }
        return (UInt64(1) << UInt64(zeros)) - 1 + bits(zeros)
    }
}
