/// Bounds-checked reads of integers from a byte buffer, in either byte order.
///
/// Every accessor checks that the bytes it reads lie inside the buffer and throws
/// ``CodecError/truncated(what:offset:)`` naming the structure otherwise. The reader never owns the memory:
/// it lives inside a `withUnsafeBytes` scope of the caller.
struct ByteReader: @unchecked Sendable {
    // @unchecked: a read-only view of memory that outlives every parallel reader (they run inside the
    // caller's withUnsafeBytes scope).
    let bytes: UnsafeRawBufferPointer
    var bigEndian: Bool

    init(_ bytes: UnsafeRawBufferPointer, bigEndian: Bool = false) {
        self.bytes = bytes
        self.bigEndian = bigEndian
    }

    var count: Int { bytes.count }

    /// Whether `length` bytes starting at `offset` lie inside the buffer.
    @inline(__always)
    func contains(_ offset: Int, _ length: Int) -> Bool {
        offset >= 0 && length >= 0 && offset <= bytes.count && length <= bytes.count - offset
    }

    @inline(__always)
    func check(_ offset: Int, _ length: Int, _ what: @autoclosure () -> String) throws(CodecError) {
        guard contains(offset, length) else { throw .truncated(what: what(), offset: offset) }
    }

    func u8(_ offset: Int, _ what: @autoclosure () -> String) throws(CodecError) -> UInt8 {
        try check(offset, 1, what())
        return bytes[offset]
    }

    func u16(_ offset: Int, _ what: @autoclosure () -> String) throws(CodecError) -> UInt16 {
        try check(offset, 2, what())
        return u16Unchecked(offset)
    }

    func u32(_ offset: Int, _ what: @autoclosure () -> String) throws(CodecError) -> UInt32 {
        try check(offset, 4, what())
        return u32Unchecked(offset)
    }

    func u64(_ offset: Int, _ what: @autoclosure () -> String) throws(CodecError) -> UInt64 {
        try check(offset, 8, what())
        let a = UInt64(u32Unchecked(offset))
        let b = UInt64(u32Unchecked(offset + 4))
        return bigEndian ? a << 32 | b : b << 32 | a
    }

    @inline(__always)
    func u16Unchecked(_ offset: Int) -> UInt16 {
        let v = bytes.loadUnaligned(fromByteOffset: offset, as: UInt16.self)
        return bigEndian ? UInt16(bigEndian: v) : UInt16(littleEndian: v)
    }

    @inline(__always)
    func u32Unchecked(_ offset: Int) -> UInt32 {
        let v = bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
        return bigEndian ? UInt32(bigEndian: v) : UInt32(littleEndian: v)
    }

    /// A copy of `length` bytes at `offset`.
    func slice(_ offset: Int, _ length: Int, _ what: @autoclosure () -> String) throws(CodecError) -> [UInt8] {
        try check(offset, length, what())
        return [UInt8](UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + length]))
    }

    /// A view of `length` bytes at `offset` (valid as long as the underlying buffer).
    func view(_ offset: Int, _ length: Int, _ what: @autoclosure () -> String) throws(CodecError)
        -> UnsafeRawBufferPointer
    {
        try check(offset, length, what())
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + length])
    }
}

/// Big-endian reads from a small array (marker payloads, opcode parameters, ICC headers).
struct BigEndianCursor {
    let bytes: [UInt8]
    var position: Int
    let what: String
    let baseOffset: Int

    init(_ bytes: [UInt8], what: String, baseOffset: Int = 0) {
        self.bytes = bytes
        self.position = 0
        self.what = what
        self.baseOffset = baseOffset
    }

    var remaining: Int { bytes.count - position }

    mutating func u8() throws(CodecError) -> UInt8 {
        guard remaining >= 1 else { throw .truncated(what: what, offset: baseOffset + position) }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func u16() throws(CodecError) -> UInt16 {
        guard remaining >= 2 else { throw .truncated(what: what, offset: baseOffset + position) }
        defer { position += 2 }
        return UInt16(bytes[position]) << 8 | UInt16(bytes[position + 1])
    }

    mutating func u32() throws(CodecError) -> UInt32 {
        guard remaining >= 4 else { throw .truncated(what: what, offset: baseOffset + position) }
        defer { position += 4 }
        return UInt32(bytes[position]) << 24 | UInt32(bytes[position + 1]) << 16 | UInt32(bytes[position + 2]) << 8
            | UInt32(bytes[position + 3])
    }

    mutating func f32() throws(CodecError) -> Float { Float(bitPattern: try u32()) }

    mutating func f64() throws(CodecError) -> Double {
        let hi = UInt64(try u32())
        let lo = UInt64(try u32())
        return Double(bitPattern: hi << 32 | lo)
    }

    mutating func bytes(_ n: Int) throws(CodecError) -> [UInt8] {
        guard n >= 0, remaining >= n else { throw .truncated(what: what, offset: baseOffset + position) }
        defer { position += n }
        return Array(bytes[position..<position + n])
    }
}

/// Appends big- or little-endian integers to a byte array.
struct ByteWriter {
    var bytes: [UInt8] = []
    var bigEndian: Bool

    init(bigEndian: Bool, capacity: Int = 0) {
        self.bigEndian = bigEndian
        bytes.reserveCapacity(capacity)
    }

    var count: Int { bytes.count }

    mutating func u8(_ v: UInt8) { bytes.append(v) }

    mutating func u16(_ v: UInt16) {
        if bigEndian {
            bytes.append(UInt8(v >> 8))
            bytes.append(UInt8(v & 0xFF))
        } else {
            bytes.append(UInt8(v & 0xFF))
            bytes.append(UInt8(v >> 8))
        }
    }

    mutating func u32(_ v: UInt32) {
        if bigEndian {
            for s in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8((v >> UInt32(s)) & 0xFF)) }
        } else {
            for s in stride(from: 0, through: 24, by: 8) { bytes.append(UInt8((v >> UInt32(s)) & 0xFF)) }
        }
    }

    mutating func f32(_ v: Float) { u32(v.bitPattern) }

    mutating func f64(_ v: Double) {
        let b = v.bitPattern
        if bigEndian {
            u32(UInt32(b >> 32))
            u32(UInt32(b & 0xFFFF_FFFF))
        } else {
            u32(UInt32(b & 0xFFFF_FFFF))
            u32(UInt32(b >> 32))
        }
    }

    mutating func append(_ data: some Sequence<UInt8>) { bytes.append(contentsOf: data) }

    mutating func pad(toMultipleOf n: Int) {
        while bytes.count % n != 0 { bytes.append(0) }
    }
}
