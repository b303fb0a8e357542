/// One entry of an image file directory.
struct TIFFEntry: Hashable, Sendable {
    /// The tag number.
    let tag: UInt16
    /// The field type (`nil` for a type this reader does not know; such entries are skipped).
    let type: TIFFFieldType?
    /// The number of values.
    let count: Int
    /// Where the value bytes start (inside the entry when they fit, otherwise the offset it points to).
    let valueOffset: Int
    /// Where the entry itself starts (for error messages).
    let entryOffset: Int

    /// The number of value bytes (`nil` on overflow).
    var byteCount: Int? {
        guard let type else { return nil }
        let (n, o) = count.multipliedReportingOverflow(by: type.size)
        return o ? nil : n
    }
}

/// A parsed image file directory: its entries by tag (the last one wins when a tag repeats, as exiftool
/// reads it) and the offset of the next directory.
struct TIFFDirectory: Sendable {
    let offset: Int
    let entries: [UInt16: TIFFEntry]
    let nextOffset: Int

    subscript(tag: UInt16) -> TIFFEntry? { entries[tag] }
    func has(_ tag: UInt16) -> Bool { entries[tag] != nil }
}

/// Reads the structure of a TIFF file (classic or BigTIFF) from bytes: header, directories and typed
/// values, checking every offset and count against the data.
///
/// Offsets are relative to the start of `bytes`, which is the TIFF header (for Exif inside a JPEG, the
/// caller passes the bytes after `Exif\0\0`).
struct TIFFParser {
    let reader: ByteReader
    let isBigTIFF: Bool
    let firstDirectoryOffset: Int
    let context: String

    var bigEndian: Bool { reader.bigEndian }

    /// Whether `bytes` start with a TIFF header.
    static func isTIFF(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count >= 8 else { return false }
        let a = bytes[0]
        let b = bytes[1]
        let c = bytes[2]
        let d = bytes[3]
        if a == 0x49, b == 0x49 { return (c == 42 || c == 43) && d == 0 }
        if a == 0x4D, b == 0x4D { return c == 0 && (d == 42 || d == 43) }
        return false
    }

    init(_ bytes: UnsafeRawBufferPointer, context: String = "TIFF") throws(CodecError) {
        self.context = context
        guard bytes.count >= 8 else { throw .truncated(what: "\(context) header", offset: 0) }
        let bigEndian: Bool
        switch (bytes[0], bytes[1]) {
        case (0x49, 0x49): bigEndian = false
        case (0x4D, 0x4D): bigEndian = true
        default:
            throw .malformed(what: "\(context) header", offset: 0, reason: "byte order must be II or MM")
        }
        let r = ByteReader(bytes, bigEndian: bigEndian)
        let magic = r.u16Unchecked(2)
        switch magic {
        case 42:
            isBigTIFF = false
            firstDirectoryOffset = Int(r.u32Unchecked(4))
        case 43:
            guard r.u16Unchecked(4) == 8, r.u16Unchecked(6) == 0 else {
                throw .malformed(what: "BigTIFF header", offset: 4, reason: "offset size must be 8")
            }
            isBigTIFF = true
            let o = try r.u64(8, "BigTIFF header")
            guard o <= UInt64(Int.max) else {
                throw .malformed(what: "BigTIFF header", offset: 8, reason: "directory offset out of range")
            }
            firstDirectoryOffset = Int(o)
        default:
            throw .malformed(what: "\(context) header", offset: 2, reason: "magic number \(magic) is neither 42 nor 43")
        }
        reader = r
    }

    /// Parses the directory at `offset`.
    func directory(at offset: Int, name: String) throws(CodecError) -> TIFFDirectory {
        let what = "\(context) \(name) directory"
        guard offset >= 8, offset < reader.count else {
            if offset >= reader.count {
                throw .truncated(what: what, offset: offset)
            }
            throw .malformed(what: what, offset: offset, reason: "directory offset \(offset) is inside the header")
        }
        let countSize = isBigTIFF ? 8 : 2
        let entrySize = isBigTIFF ? 20 : 12
        let rawCount = isBigTIFF ? Int(clamping: try reader.u64(offset, what)) : Int(try reader.u16(offset, what))
        guard rawCount > 0 else {
            throw .malformed(what: what, offset: offset, reason: "the directory has no entries")
        }
        let tableBytes = rawCount.multipliedReportingOverflow(by: entrySize)
        guard !tableBytes.overflow else { throw .truncated(what: what, offset: offset) }
        try reader.check(offset + countSize, tableBytes.partialValue + (isBigTIFF ? 8 : 4), what)
        var entries: [UInt16: TIFFEntry] = [:]
        entries.reserveCapacity(rawCount)
        for i in 0..<rawCount {
            let e = offset + countSize + i * entrySize
            let tag = reader.u16Unchecked(e)
            let type = TIFFFieldType(rawValue: reader.u16Unchecked(e + 2))
            let count: Int
            let inline: Int
            if isBigTIFF {
                count = Int(clamping: try reader.u64(e + 4, what))
                inline = e + 12
            } else {
                count = Int(reader.u32Unchecked(e + 4))
                inline = e + 8
            }
            var valueOffset = inline
            let limit = isBigTIFF ? 8 : 4
            if let type {
                let (bytes, overflow) = count.multipliedReportingOverflow(by: type.size)
                if overflow || bytes > limit {
                    valueOffset =
                        isBigTIFF ? Int(clamping: try reader.u64(inline, what)) : Int(reader.u32Unchecked(inline))
                }
            }
            entries[tag] = TIFFEntry(tag: tag, type: type, count: count, valueOffset: valueOffset, entryOffset: e)
        }
        let nextAt = offset + countSize + tableBytes.partialValue
        let next = isBigTIFF ? Int(clamping: try reader.u64(nextAt, what)) : Int(reader.u32Unchecked(nextAt))
        return TIFFDirectory(offset: offset, entries: entries, nextOffset: next)
    }

    /// The name of a tag for error messages (“tag 273 StripOffsets”).
    func describe(_ entry: TIFFEntry) -> String {
        "\(context) tag \(entry.tag)" + (TIFFTag.name(entry.tag).map { " \($0)" } ?? "")
    }

    /// Checks that an entry's value bytes lie in the data and returns their byte count.
    func checkedBytes(_ entry: TIFFEntry) throws(CodecError) -> Int {
        guard let n = entry.byteCount else {
            throw .malformed(
                what: describe(entry), offset: entry.entryOffset, reason: "value count \(entry.count) is too large")
        }
        try reader.check(entry.valueOffset, n, describe(entry))
        return n
    }

    /// The typed value of an entry.
    func value(_ entry: TIFFEntry) throws(CodecError) -> TIFFValue {
        guard let type = entry.type else {
            throw .unsupported(what: describe(entry), reason: "unknown field type")
        }
        _ = try checkedBytes(entry)
        let o = entry.valueOffset
        let n = entry.count
        let r = reader
        switch type {
        case .byte: return .bytes(try r.slice(o, n, describe(entry)))
        case .undefined: return .undefined(try r.slice(o, n, describe(entry)))
        case .ascii:
            var raw = try r.slice(o, n, describe(entry))
            if let nul = raw.firstIndex(of: 0) { raw.removeSubrange(nul...) }
            return .ascii(String(decoding: raw, as: UTF8.self))
        case .sbyte: return .signedBytes(try r.slice(o, n, describe(entry)).map { Int8(bitPattern: $0) })
        case .short: return .shorts((0..<n).map { r.u16Unchecked(o + 2 * $0) })
        case .sshort: return .signedShorts((0..<n).map { Int16(bitPattern: r.u16Unchecked(o + 2 * $0)) })
        case .long, .ifd: return .longs((0..<n).map { r.u32Unchecked(o + 4 * $0) })
        case .slong: return .signedLongs((0..<n).map { Int32(bitPattern: r.u32Unchecked(o + 4 * $0)) })
        case .rational:
            return .rationals(
                (0..<n).map { Rational(Int64(r.u32Unchecked(o + 8 * $0)), Int64(r.u32Unchecked(o + 8 * $0 + 4))) })
        case .srational:
            return .signedRationals(
                (0..<n).map {
                    Rational(
                        Int64(Int32(bitPattern: r.u32Unchecked(o + 8 * $0))),
                        Int64(Int32(bitPattern: r.u32Unchecked(o + 8 * $0 + 4))))
                })
        case .float: return .floats((0..<n).map { Float(bitPattern: r.u32Unchecked(o + 4 * $0)) })
        case .double:
            return .doubles(
                (0..<n).map {
                    let a = UInt64(r.u32Unchecked(o + 8 * $0))
                    let b = UInt64(r.u32Unchecked(o + 8 * $0 + 4))
                    return Double(bitPattern: r.bigEndian ? a << 32 | b : b << 32 | a)
                })
        case .long8, .ifd8:
            var out: [UInt32] = []
            for i in 0..<n {
                let v = try r.u64(o + 8 * i, describe(entry))
                out.append(UInt32(clamping: v))
            }
            return .longs(out)
        case .slong8:
            var out: [Int32] = []
            for i in 0..<n {
                let v = Int64(bitPattern: try r.u64(o + 8 * i, describe(entry)))
                out.append(Int32(clamping: v))
            }
            return .signedLongs(out)
        }
    }

    // MARK: Convenience accessors

    /// Integer values of a tag (unsigned types and LONG8 read as Int), or `nil` when absent.
    func integers(_ dir: TIFFDirectory, _ tag: UInt16) throws(CodecError) -> [Int]? {
        guard let e = dir[tag] else { return nil }
        if e.type == .long8 || e.type == .ifd8 {
            _ = try checkedBytes(e)
            var out: [Int] = []
            out.reserveCapacity(e.count)
            for i in 0..<e.count { out.append(Int(clamping: try reader.u64(e.valueOffset + 8 * i, describe(e)))) }
            return out
        }
        let v = try value(e)
        guard let ints = v.integers else {
            if let d = v.doubles { return d.map { Int(exactly: $0.rounded()) ?? 0 } }
            throw .malformed(
                what: describe(e), offset: e.entryOffset, reason: "expected integers, found \(v.fieldType)")
        }
        return ints
    }

    /// The first integer value of a tag.
    func integer(_ dir: TIFFDirectory, _ tag: UInt16) throws(CodecError) -> Int? {
        guard let e = dir[tag], e.count >= 1 else { return nil }
        return try integers(dir, tag)?.first
    }

    /// Numeric values of a tag as `Double`.
    func doubles(_ dir: TIFFDirectory, _ tag: UInt16) throws(CodecError) -> [Double]? {
        guard let e = dir[tag] else { return nil }
        let v = try value(e)
        guard let d = v.doubles else {
            throw .malformed(what: describe(e), offset: e.entryOffset, reason: "expected numbers, found \(v.fieldType)")
        }
        return d
    }

    /// The first numeric value of a tag.
    func double(_ dir: TIFFDirectory, _ tag: UInt16) throws(CodecError) -> Double? {
        try doubles(dir, tag)?.first
    }

    /// The text of an ASCII tag (trailing blanks kept); BYTE tags holding text are accepted too.
    func string(_ dir: TIFFDirectory, _ tag: UInt16) throws(CodecError) -> String? {
        guard let e = dir[tag] else { return nil }
        switch try value(e) {
        case .ascii(let s): return s
        case .bytes(var b), .undefined(var b):
            if let nul = b.firstIndex(of: 0) { b.removeSubrange(nul...) }
            return String(decoding: b, as: UTF8.self)
        default: return nil
        }
    }

    /// The raw bytes of a tag's value (any type, in file order).
    func rawBytes(_ dir: TIFFDirectory, _ tag: UInt16) throws(CodecError) -> [UInt8]? {
        guard let e = dir[tag] else { return nil }
        let n = try checkedBytes(e)
        return try reader.slice(e.valueOffset, n, describe(e))
    }

    /// Offsets of child directories named by a pointer tag (SubIFDs, Exif, GPS), ignoring zeros.
    func childOffsets(_ dir: TIFFDirectory, _ tag: UInt16) throws(CodecError) -> [Int] {
        guard let e = dir[tag] else { return [] }
        guard e.count <= 4096 else {
            throw .limitExceeded(what: "\(describe(e)) count", value: e.count, limit: 4096)
        }
        return (try integers(dir, tag) ?? []).filter { $0 != 0 }
    }
}
