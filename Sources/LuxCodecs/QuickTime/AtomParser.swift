/// One atom found in a file: its type and where its header and payload lie.
struct Atom {
    let type: FourCC
    /// Offset of the atom's first byte.
    let offset: Int
    /// 8, or 16 with a 64-bit size.
    let headerSize: Int
    /// Total size including the header.
    let size: Int

    var payload: Int { offset + headerSize }
    var end: Int { offset + size }
    var payloadSize: Int { size - headerSize }
}

/// Walks the atom tree of a QuickTime/ISO file over a bounds-checked reader.
///
/// Every size is checked against the parent's bounds, so a hostile file can neither read outside the buffer nor loop.
struct AtomParser {
    let reader: ByteReader

    init(_ bytes: UnsafeRawBufferPointer) {
        reader = ByteReader(bytes, bigEndian: true)
    }

    /// The atoms laid end to end in `range`.
    ///
    /// - Parameter topLevel: At the top level an atom of size 0 runs to the end of the file, and a final 'mdat',
    ///   'free' or 'skip' atom cut short by truncation is accepted (its samples fail when read).
    func children(in range: Range<Int>, of what: String, topLevel: Bool = false) throws(CodecError) -> [Atom] {
        var atoms: [Atom] = []
        var offset = range.lowerBound
        while offset < range.upperBound {
            guard range.upperBound - offset >= 8 else {
                // A few padding bytes (zeros) after the last atom are tolerated.
                if try reader.slice(offset, range.upperBound - offset, what).allSatisfy({ $0 == 0 }) { break }
                throw .truncated(what: "atom header in \(what)", offset: offset)
            }
            var size = Int(try reader.u32(offset, what))
            let type = FourCC(try reader.u32(offset + 4, what))
            var header = 8
            if size == 1 {
                let large = try reader.u64(offset + 8, "64-bit size of '\(type)' in \(what)")
                guard large <= UInt64(Int.max) else {
                    throw .malformed(
                        what: "'\(type)' atom in \(what)", offset: offset, reason: "size \(large) is absurd")
                }
                size = Int(large)
                header = 16
            } else if size == 0 {
                if !topLevel, type.rawValue == 0 { break }  // a zero terminator inside a container ('udta')
                size = range.upperBound - offset
            }
            guard size >= header else {
                throw .malformed(
                    what: "'\(type)' atom in \(what)", offset: offset, reason: "size \(size) is smaller than its header"
                )
            }
            if size > range.upperBound - offset {
                let tolerated: Set<FourCC> = ["mdat", "free", "skip", "wide"]
                guard topLevel, tolerated.contains(type) else {
                    throw .truncated(what: "'\(type)' atom (\(size) bytes) in \(what)", offset: offset)
                }
                size = range.upperBound - offset
            }
            atoms.append(Atom(type: type, offset: offset, headerSize: header, size: size))
            offset += size
        }
        return atoms
    }

    /// The children of a container atom.
    func children(of atom: Atom, skipping prefix: Int = 0) throws(CodecError) -> [Atom] {
        guard atom.payloadSize >= prefix else {
            throw .truncated(what: "'\(atom.type)' atom", offset: atom.offset)
        }
        return try children(in: (atom.payload + prefix)..<atom.end, of: "'\(atom.type)' at byte \(atom.offset)")
    }

    /// The first child of `atom` with `type`.
    func child(_ type: FourCC, of atom: Atom, skipping prefix: Int = 0) throws(CodecError) -> Atom? {
        try children(of: atom, skipping: prefix).first { $0.type == type }
    }

    /// The version and flags of a full atom, after checking that `minimum` payload bytes follow them.
    func fullHeader(_ atom: Atom, minimum: Int) throws(CodecError) -> (version: UInt8, flags: UInt32) {
        guard atom.payloadSize >= 4 + minimum else {
            throw .truncated(
                what: "'\(atom.type)' atom (\(atom.payloadSize) bytes, needs \(4 + minimum))", offset: atom.offset)
        }
        let v = reader.u32Unchecked(atom.payload)
        return (UInt8(v >> 24), v & 0xFF_FFFF)
    }

    /// `count` entries of `entrySize` bytes starting at `offset` must lie inside `atom`.
    func checkTable(_ atom: Atom, at offset: Int, count: UInt32, entrySize: Int) throws(CodecError) {
        let needed = Int(count) * entrySize
        guard offset + needed <= atom.end else {
            throw .malformed(
                what: "'\(atom.type)' table", offset: atom.offset,
                reason: "\(count) entries of \(entrySize) bytes do not fit in \(atom.end - offset) bytes")
        }
    }
}
