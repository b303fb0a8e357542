/// A bounds-checked, big-endian view of a range of an ICC profile's bytes.
///
/// Every read checks its offset against the view's length and reports failures as
/// ``ColorError/malformedProfile(reason:offset:)`` with the absolute byte offset, so parsers built on
/// it cannot read outside the profile whatever the file says.
struct ICCBytes {
    let bytes: [UInt8]
    /// Absolute offset of the view's first byte in `bytes`.
    let start: Int
    /// Number of bytes in the view.
    let count: Int
    /// What the view holds, for error messages ("tag 'rTRC'").
    let context: String

    init(_ bytes: [UInt8], start: Int = 0, count: Int? = nil, context: String = "profile") {
        self.bytes = bytes
        self.start = start
        self.count = count ?? bytes.count - start
        self.context = context
    }

    /// Throws unless `length` bytes at relative `offset` lie inside the view.
    func require(_ offset: Int, _ length: Int, _ what: String) throws(ColorError) {
        guard offset >= 0, length >= 0, offset <= count, length <= count - offset else {
            throw .malformedProfile(
                reason: "\(what) needs \(length) bytes at \(offset) but \(context) has \(count)",
                offset: start + min(max(offset, 0), count))
        }
    }

    func uint8(_ offset: Int, _ what: String = "value") throws(ColorError) -> UInt8 {
        try require(offset, 1, what)
        return bytes[start + offset]
    }

    func uint16(_ offset: Int, _ what: String = "value") throws(ColorError) -> UInt16 {
        try require(offset, 2, what)
        let p = start + offset
        return UInt16(bytes[p]) << 8 | UInt16(bytes[p + 1])
    }

    func uint32(_ offset: Int, _ what: String = "value") throws(ColorError) -> UInt32 {
        try require(offset, 4, what)
        let p = start + offset
        return UInt32(bytes[p]) << 24 | UInt32(bytes[p + 1]) << 16 | UInt32(bytes[p + 2]) << 8 | UInt32(bytes[p + 3])
    }

    /// A signed 15.16 fixed-point number.
    func s15Fixed16(_ offset: Int, _ what: String = "s15Fixed16 number") throws(ColorError) -> Double {
        Double(Int32(bitPattern: try uint32(offset, what))) / 65536
    }

    /// A four-character signature as text (each byte one Latin-1 character).
    func signature(_ offset: Int, _ what: String = "signature") throws(ColorError) -> String {
        ICCSignature.string(try uint32(offset, what))
    }

    /// A sub-view of `length` bytes at relative `offset`.
    func slice(_ offset: Int, _ length: Int, context: String) throws(ColorError) -> ICCBytes {
        try require(offset, length, context)
        return ICCBytes(bytes, start: start + offset, count: length, context: context)
    }
}

/// Four-character ICC signatures.
enum ICCSignature {
    static func string(_ value: UInt32) -> String {
        var s = ""
        for shift in stride(from: 24, through: 0, by: -8) {
            s.unicodeScalars.append(Unicode.Scalar(UInt8(truncatingIfNeeded: value >> UInt32(shift))))
        }
        return s
    }

    /// The 32-bit value of a four-character signature (shorter strings are padded with spaces).
    static func value(_ string: String) -> UInt32 {
        var v: UInt32 = 0
        var n = 0
        for scalar in string.unicodeScalars.prefix(4) {
            v = v << 8 | UInt32(scalar.value & 0xFF)
            n += 1
        }
        while n < 4 {
            v = v << 8 | 0x20
            n += 1
        }
        return v
    }
}

/// Appends big-endian ICC values to a byte array.
struct ICCByteWriter {
    var bytes: [UInt8] = []

    mutating func uint8(_ v: UInt8) { bytes.append(v) }

    mutating func uint16(_ v: UInt16) {
        bytes.append(UInt8(v >> 8))
        bytes.append(UInt8(v & 0xFF))
    }

    mutating func uint32(_ v: UInt32) {
        for shift in stride(from: 24, through: 0, by: -8) {
            bytes.append(UInt8(truncatingIfNeeded: v >> UInt32(shift)))
        }
    }

    mutating func signature(_ s: String) { uint32(ICCSignature.value(s)) }

    /// Writes a signed 15.16 fixed-point number, rounding to nearest.
    mutating func s15Fixed16(_ v: Double) throws(ColorError) {
        uint32(UInt32(bitPattern: try Self.fixed(v)))
    }

    mutating func zeros(_ n: Int) { bytes.append(contentsOf: repeatElement(0, count: n)) }

    /// Pads with zeros to a multiple of four bytes.
    mutating func align4() { zeros((4 - bytes.count % 4) % 4) }

    /// The s15Fixed16 encoding of `v`: ⌊v·65536 + ½⌋, as lcms's `_cmsDoubleTo15Fixed16`.
    static func fixed(_ v: Double) throws(ColorError) -> Int32 {
        let scaled = v * 65536 + 0.5
        guard scaled.isFinite, scaled >= -2_147_483_648, scaled < 2_147_483_648 else {
            throw .outOfRange(name: "s15Fixed16 value", value: v, allowed: -32768...32767.99998)
        }
        let truncated = Int64(scaled)
        return Int32(Double(truncated) > scaled ? truncated - 1 : truncated)
    }
}
