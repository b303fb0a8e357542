/// Builds QuickTime atoms (big-endian) into a byte array, patching each atom's size when its body is complete.
struct AtomWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    var count: Int { bytes.count }

    /// Writes an atom whose payload `body` appends.
    mutating func atom(_ type: FourCC, _ body: (inout AtomWriter) -> Void) {
        let start = bytes.count
        u32(0)
        u32(type.rawValue)
        body(&self)
        patch(UInt32(bytes.count - start), at: start)
    }

    /// Writes a full atom (version and flags first).
    mutating func fullAtom(_ type: FourCC, version: UInt8 = 0, flags: UInt32 = 0, _ body: (inout AtomWriter) -> Void) {
        atom(type) { w in
            w.u32(UInt32(version) << 24 | flags & 0xFF_FFFF)
            body(&w)
        }
    }

    mutating func u8(_ v: UInt8) { bytes.append(v) }
    mutating func u16(_ v: UInt16) { bytes += [UInt8(v >> 8), UInt8(v & 0xFF)] }
    mutating func i16(_ v: Int16) { u16(UInt16(bitPattern: v)) }
    mutating func u32(_ v: UInt32) {
        bytes += [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
    }
    mutating func i32(_ v: Int32) { u32(UInt32(bitPattern: v)) }
    mutating func u64(_ v: UInt64) {
        u32(UInt32(v >> 32))
        u32(UInt32(v & 0xFFFF_FFFF))
    }
    mutating func f64(_ v: Double) { u64(v.bitPattern) }
    mutating func fourCC(_ code: FourCC) { u32(code.rawValue) }
    mutating func append(_ data: some Sequence<UInt8>) { bytes.append(contentsOf: data) }
    mutating func zeros(_ n: Int) { bytes.append(contentsOf: repeatElement(0, count: n)) }

    /// A Pascal string (length byte, then the bytes) padded with zeros to `width` bytes.
    mutating func pascalString(_ text: String, width: Int) {
        let b = Array(text.utf8.prefix(width - 1))
        u8(UInt8(b.count))
        append(b)
        zeros(width - 1 - b.count)
    }

    /// A 3×3 QuickTime matrix (a, b, u, c, d, v, tx, ty, w; 16.16 except u, v, w in 2.30).
    mutating func matrix(_ m: MovieMatrix) {
        for v in [m.a, m.b] { i32(Int32((v * 65536).rounded())) }
        i32(0)
        for v in [m.c, m.d] { i32(Int32((v * 65536).rounded())) }
        i32(0)
        for v in [m.tx, m.ty] { i32(Int32((v * 65536).rounded())) }
        u32(0x4000_0000)
    }

    private mutating func patch(_ v: UInt32, at offset: Int) {
        bytes[offset] = UInt8(v >> 24)
        bytes[offset + 1] = UInt8((v >> 16) & 0xFF)
        bytes[offset + 2] = UInt8((v >> 8) & 0xFF)
        bytes[offset + 3] = UInt8(v & 0xFF)
    }
}
