// Independent byte-level helpers for ICC tests: they read and build profiles without LuxColor's
// parser or writer, so tests check those against hand-made bytes.

func be32(_ b: [UInt8], _ at: Int) -> UInt32 {
    UInt32(b[at]) << 24 | UInt32(b[at + 1]) << 16 | UInt32(b[at + 2]) << 8 | UInt32(b[at + 3])
}

func be16(_ b: [UInt8], _ at: Int) -> UInt16 { UInt16(b[at]) << 8 | UInt16(b[at + 1]) }

func fourCC(_ s: String) -> [UInt8] {
    Array(s.utf8.prefix(4)) + Array(repeating: 0x20, count: max(0, 4 - s.utf8.count))
}

func bytes32(_ v: UInt32) -> [UInt8] {
    [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
}

func bytes16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }

/// s15Fixed16 of `v`, rounded to nearest.
func s15(_ v: Double) -> [UInt8] {
    let scaled = (v * 65536).rounded()
    return bytes32(UInt32(bitPattern: Int32(scaled)))
}

/// The raw bytes of the first tag `signature` (from the tag table), or nil.
func tagBytes(_ profile: [UInt8], _ signature: String) -> [UInt8]? {
    let count = Int(be32(profile, 128))
    for i in 0..<count {
        let at = 132 + 12 * i
        if Array(profile[at..<at + 4]) == fourCC(signature) {
            let offset = Int(be32(profile, at + 4))
            let size = Int(be32(profile, at + 8))
            return Array(profile[offset..<offset + size])
        }
    }
    return nil
}

/// The offset field of tag `signature` in the tag table.
func tagOffset(_ profile: [UInt8], _ signature: String) -> Int? {
    let count = Int(be32(profile, 128))
    for i in 0..<count where Array(profile[132 + 12 * i..<136 + 12 * i]) == fourCC(signature) {
        return Int(be32(profile, 136 + 12 * i))
    }
    return nil
}

enum TestTag {
    static func xyz(_ x: Double, _ y: Double, _ z: Double) -> [UInt8] {
        fourCC("XYZ ") + [0, 0, 0, 0] + s15(x) + s15(y) + s15(z)
    }
    static func sf32(_ m: [Double]) -> [UInt8] { fourCC("sf32") + [0, 0, 0, 0] + m.flatMap { s15($0) } }
    static func para(_ type: UInt16, _ params: [Double]) -> [UInt8] {
        fourCC("para") + [0, 0, 0, 0] + bytes16(type) + [0, 0] + params.flatMap { s15($0) }
    }
    static func curv(_ entries: [UInt16]) -> [UInt8] {
        fourCC("curv") + [0, 0, 0, 0] + bytes32(UInt32(entries.count)) + entries.flatMap { bytes16($0) }
    }
    static func text(_ s: String) -> [UInt8] { fourCC("text") + [0, 0, 0, 0] + Array(s.utf8) + [0] }
    static func desc(_ s: String) -> [UInt8] {
        fourCC("desc") + [0, 0, 0, 0] + bytes32(UInt32(s.utf8.count + 1)) + Array(s.utf8) + [0]
            + Array(repeating: 0, count: 4 + 4 + 2 + 1 + 67)
    }
    /// An mluc with records (language+country, text).
    static func mluc(_ records: [(String, String)]) -> [UInt8] {
        var head = fourCC("mluc") + [0, 0, 0, 0] + bytes32(UInt32(records.count)) + bytes32(12)
        var strings: [UInt8] = []
        let base = 16 + 12 * records.count
        for (lang, text) in records {
            let utf16 = text.utf16.flatMap { bytes16($0) }
            head += fourCC(lang) + bytes32(UInt32(utf16.count)) + bytes32(UInt32(base + strings.count))
            strings += utf16
        }
        return head + strings
    }
}

/// Builds a profile from raw tags (each block padded to 4 bytes, no sharing).
func makeTestProfile(
    version: (UInt8, UInt8) = (4, 0x30), deviceClass: String = "mntr", colorSpace: String = "RGB ",
    pcs: String = "XYZ ", tags: [(String, [UInt8])]
) -> [UInt8] {
    let tableSize = 4 + 12 * tags.count
    var table = bytes32(UInt32(tags.count))
    var blocks: [UInt8] = []
    for (sig, data) in tags {
        table += fourCC(sig) + bytes32(UInt32(128 + tableSize + blocks.count)) + bytes32(UInt32(data.count))
        blocks += data
        while blocks.count % 4 != 0 { blocks.append(0) }
    }
    var header = [UInt8](repeating: 0, count: 128)
    let size = 128 + tableSize + blocks.count
    header.replaceSubrange(0..<4, with: bytes32(UInt32(size)))
    header[8] = version.0
    header[9] = version.1
    header.replaceSubrange(12..<16, with: fourCC(deviceClass))
    header.replaceSubrange(16..<20, with: fourCC(colorSpace))
    header.replaceSubrange(20..<24, with: fourCC(pcs))
    header.replaceSubrange(36..<40, with: fourCC("acsp"))
    header.replaceSubrange(68..<80, with: s15(0.9642) + s15(1) + s15(0.8249))
    return header + table + blocks
}
