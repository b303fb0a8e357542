/// Builds ISO base media file format boxes (big-endian fields, sizes filled in when a box closes).
struct BoxWriter {
    private(set) var data: [UInt8] = []

    mutating func u8(_ v: UInt8) { data.append(v) }

    mutating func u16(_ v: UInt16) { data += [UInt8(v >> 8), UInt8(truncatingIfNeeded: v)] }

    mutating func u32(_ v: UInt32) { data += [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: v >> UInt32($0)) } }

    mutating func u64(_ v: UInt64) {
        data += stride(from: 56, through: 0, by: -8).map { UInt8(truncatingIfNeeded: v >> UInt64($0)) }
    }

    mutating func bytes(_ v: [UInt8]) { data += v }

    /// A four-character code.
    mutating func fourCC(_ code: String) {
        let bytes = Array(code.utf8)
        precondition(bytes.count == 4, "a four-character code has four bytes: \(code)")
        data += bytes
    }

    /// A NUL-terminated UTF-8 string.
    mutating func string(_ v: String) { data += Array(v.utf8) + [0] }

    /// A box of `type` whose body `body` writes.
    mutating func box(_ type: String, _ body: (inout BoxWriter) -> Void) {
        let start = data.count
        u32(0)
        fourCC(type)
        body(&self)
        setSize(at: start)
    }

    /// A full box (version and 24-bit flags before the body).
    mutating func fullBox(_ type: String, version: UInt8, flags: UInt32 = 0, _ body: (inout BoxWriter) -> Void) {
        box(type) { b in
            b.u32(UInt32(version) << 24 | (flags & 0xFF_FFFF))
            body(&b)
        }
    }

    private mutating func setSize(at start: Int) {
        let size = UInt32(data.count - start)
        for (k, shift) in [24, 16, 8, 0].enumerated() {
            data[start + k] = UInt8(truncatingIfNeeded: size >> UInt32(shift))
        }
    }
}
