internal import CLuxCodecShims

/// One HEVC intra picture encoded by x265: its parameter sets and its coded data, as a HEIF `hvc1` item stores them.
struct HEVCPicture: Sendable {
    /// The VPS, SPS and PPS, each without a length prefix.
    let parameterSets: [[UInt8]]
    /// The picture's NAL units, each preceded by its length in 4 big-endian bytes (the item data).
    let data: [UInt8]

    /// What to encode.
    struct Settings: Sendable {
        var bitDepth: Int
        var monochrome: Bool
        /// x265's constant rate factor, 0…51 (lower is better).
        var rateFactor: Double
        /// x265's speed preset.
        var preset: String
        /// The H.273 colour description written to the stream's VUI.
        var primaries: Int
        var transfer: Int
        var matrix: Int
    }

    /// Encodes a picture whose Y (and, at 4:2:0, Cb and Cr) planes are given with their strides in bytes.
    ///
    /// - Throws: ``CodecError/library(name:message:)`` when x265 fails.
    static func encode(
        width: Int, height: Int, planes: [UnsafeRawPointer], strides: [Int], settings: Settings
    ) throws(CodecError) -> HEVCPicture {
        var headers: UnsafeMutablePointer<UInt8>?
        var data: UnsafeMutablePointer<UInt8>?
        var headersSize = 0
        var dataSize = 0
        let planeList: [UnsafeRawPointer?] = (0..<3).map { $0 < planes.count ? planes[$0] : nil }
        let strideList = (0..<3).map { $0 < strides.count ? strides[$0] : 0 }
        try callC("x265") { message, capacity in
            settings.preset.withCString { preset in
                var params = lux_hevc_encode_params(
                    width: Int32(width), height: Int32(height), bit_depth: Int32(settings.bitDepth),
                    chroma: Int32(settings.monochrome ? LUX_HEVC_CHROMA_400 : LUX_HEVC_CHROMA_420),
                    crf: settings.rateFactor, preset: preset, full_range: 1, primaries: Int32(settings.primaries),
                    transfer: Int32(settings.transfer), matrix: Int32(settings.matrix))
                return planeList.withUnsafeBufferPointer { p in
                    strideList.withUnsafeBufferPointer { s in
                        lux_hevc_encode_picture(
                            &params, p.baseAddress, s.baseAddress, &headers, &headersSize, &data, &dataSize, message,
                            capacity)
                    }
                }
            }
        }
        defer {
            lux_free(headers)
            lux_free(data)
        }
        guard let headers, let data else { throw .library(name: "x265", message: "no output") }
        let sets = lengthPrefixedUnits(UnsafeBufferPointer(start: headers, count: headersSize))
        return HEVCPicture(parameterSets: sets, data: Array(UnsafeBufferPointer(start: data, count: dataSize)))
    }

    /// The NAL units of a stream where each is preceded by its 4-byte big-endian length.
    static func lengthPrefixedUnits(_ bytes: UnsafeBufferPointer<UInt8>) -> [[UInt8]] {
        var units: [[UInt8]] = []
        var i = 0
        while i + 4 <= bytes.count {
            let length = bytes[i..<i + 4].reduce(0) { $0 << 8 | Int($1) }
            guard length > 0, i + 4 + length <= bytes.count else { break }
            units.append(Array(bytes[(i + 4)..<(i + 4 + length)]))
            i += 4 + length
        }
        return units
    }

    /// The `hvcC` box (HEVCDecoderConfigurationRecord, ISO/IEC 14496-15 §8.3.3) describing this picture's stream.
    ///
    /// The profile, tier and level are copied from the SPS's general profile_tier_level (its first 12 bytes after the
    /// sub-layer byte, read past emulation-prevention bytes); chroma format and bit depths are the encoder's settings.
    func configurationBox(settings: Settings) throws(CodecError) -> [UInt8] {
        guard let sps = parameterSets.first(where: { ($0.first ?? 0) >> 1 & 0x3F == 33 }) else {
            throw .library(name: "x265", message: "the stream has no SPS")
        }
        let rbsp = Self.removingEmulationPrevention(Array(sps.dropFirst(2)))
        guard rbsp.count >= 13 else { throw .library(name: "x265", message: "the SPS is too short") }
        let profileTierLevel = rbsp[1...12]
        let subLayers = Int(rbsp[0] >> 1 & 0x7) + 1
        let temporalIDNested = rbsp[0] & 1
        var record = BoxWriter()
        record.u8(1)
        record.bytes(Array(profileTierLevel))
        record.u16(0xF000)  // reserved, min_spatial_segmentation_idc 0
        record.u8(0xFC)  // reserved, parallelismType 0 (unknown)
        record.u8(0xFC | (settings.monochrome ? 0 : 1))
        record.u8(0xF8 | UInt8(settings.bitDepth - 8))
        record.u8(0xF8 | UInt8(settings.bitDepth - 8))
        record.u16(0)  // avgFrameRate
        record.u8(UInt8(subLayers << 3) | temporalIDNested << 2 | 3)  // lengthSizeMinusOne 3
        let ordered = [32, 33, 34].compactMap { type in parameterSets.first { ($0.first ?? 0) >> 1 & 0x3F == type } }
        record.u8(UInt8(ordered.count))
        for unit in ordered {
            record.u8(0x80 | (unit[0] >> 1 & 0x3F))  // array_completeness 1
            record.u16(1)
            record.u16(UInt16(unit.count))
            record.bytes(unit)
        }
        var box = BoxWriter()
        box.box("hvcC") { $0.bytes(record.data) }
        return box.data
    }

    /// NAL unit payload bytes with the emulation-prevention bytes (the 3 of each `00 00 03`) removed.
    static func removingEmulationPrevention(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var zeros = 0
        for b in bytes {
            if zeros >= 2 && b == 3 {
                zeros = 0
                continue
            }
            zeros = b == 0 ? zeros + 1 : 0
            out.append(b)
        }
        return out
    }
}
