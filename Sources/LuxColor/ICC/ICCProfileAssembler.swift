/// Lays out a display profile: header, tag table, 4-byte-aligned tag data (identical blocks shared), and
/// for v4 the MD5 profile ID.
enum ICCProfileAssembler {
    static func assemble(
        tags: [(String, [UInt8])], dataColorSpace: String, version: ICCProfile.Version
    ) throws(ColorError) -> ICCProfile {
        let tableSize = 4 + 12 * tags.count
        var blocks = ICCByteWriter()
        var entries: [(String, Int, Int)] = []
        var placed: [(bytes: [UInt8], offset: Int)] = []
        for (signature, bytes) in tags {
            if let shared = placed.first(where: { $0.bytes == bytes }) {
                entries.append((signature, shared.offset, bytes.count))
                continue
            }
            let offset = 128 + tableSize + blocks.bytes.count
            blocks.bytes.append(contentsOf: bytes)
            blocks.align4()
            placed.append((bytes, offset))
            entries.append((signature, offset, bytes.count))
        }

        var w = ICCByteWriter()
        let size = 128 + tableSize + blocks.bytes.count
        w.uint32(UInt32(size))
        w.uint32(0)  // preferred CMM
        w.uint32(version == .v4 ? 0x0430_0000 : 0x0240_0000)
        w.signature("mntr")
        w.signature(dataColorSpace)
        w.signature("XYZ ")
        for field: UInt16 in [2025, 1, 1, 0, 0, 0] { w.uint16(field) }  // fixed creation date
        w.signature("acsp")
        w.uint32(0)  // primary platform
        w.uint32(0)  // flags
        w.uint32(0)  // manufacturer
        w.uint32(0)  // model
        w.zeros(8)  // attributes
        w.uint32(0)  // rendering intent: perceptual
        for v in [WhitePoint.iccD50XYZ.x, WhitePoint.iccD50XYZ.y, WhitePoint.iccD50XYZ.z] { try w.s15Fixed16(v) }
        w.uint32(0)  // creator
        w.zeros(16)  // profile ID, filled in below for v4
        w.zeros(28)  // reserved
        w.uint32(UInt32(tags.count))
        for (signature, offset, length) in entries {
            w.signature(signature)
            w.uint32(UInt32(offset))
            w.uint32(UInt32(length))
        }
        w.bytes.append(contentsOf: blocks.bytes)

        if version == .v4 {
            // ICC.1:2010 §7.2.18: MD5 over the profile with flags, rendering intent and the ID zeroed.
            var hashed = w.bytes
            for range in [44..<48, 64..<68, 84..<100] {
                hashed.replaceSubrange(range, with: repeatElement(0, count: range.count))
            }
            w.bytes.replaceSubrange(84..<100, with: MD5.digest(hashed))
        }
        return try ICCProfile(data: w.bytes)
    }
}
