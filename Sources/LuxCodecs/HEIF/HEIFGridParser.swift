/// A small, bounded, read-only parse of a HEIF file's `meta` box that finds the layout of its grid images.
///
/// libheif 1.15 decodes grids but has no call that reports their layout (rows, columns, tile size), so Lux reads the
/// few boxes that hold it (ISO/IEC 23008-12): item types (`iinf`), the `dimg` references from a grid to its tiles
/// (`iref`), the tiles' `ispe` through `ipma`, and the grid item's data from `idat` or the file (`iloc`). It is used
/// only to describe grids; libheif still decodes them. Nothing is trusted: every box must lie inside its parent, counts
/// are capped, and anything inconsistent throws ``CodecError/malformed(what:offset:reason:)`` (or `.truncated`,
/// `.limitExceeded`, `.unsupported`).
struct HEIFGridParser {
    /// The largest `meta` box read (iPhone photos' are a few kilobytes).
    static let maximumMetaSize = 16 << 20
    /// The most items, references or property associations read from one box.
    static let maximumEntries = 1 << 16
    /// The most `iloc` extents read in all (their fields may be zero bytes wide, so the box size bounds nothing).
    static let maximumExtents = 1 << 18

    private let parser: AtomParser
    private var reader: ByteReader { parser.reader }
    /// The `meta` box's children.
    private let boxes: [Atom]

    /// Finds the `meta` box of the HEIF file in `raw`.
    init(_ raw: UnsafeRawBufferPointer) throws(CodecError) {
        parser = AtomParser(raw)
        let top = try parser.children(in: 0..<raw.count, of: "HEIF file", topLevel: true)
        guard let meta = top.first(where: { $0.type == "meta" }) else {
            throw .malformed(what: "HEIF file", offset: 0, reason: "no 'meta' box")
        }
        guard meta.size <= Self.maximumMetaSize else {
            throw .limitExceeded(what: "HEIF 'meta' box size", value: meta.size, limit: Self.maximumMetaSize)
        }
        _ = try parser.fullHeader(meta, minimum: 0)
        boxes = try parser.children(of: meta, skipping: 4)
    }

    /// The layout of every grid item, by item ID (empty when the file has no grid).
    func layouts() throws(CodecError) -> [UInt32: HEIFGridLayout] {
        let types = try itemTypes()
        let grids = types.filter { $0.value == "grid" }.keys.sorted()
        guard !grids.isEmpty else { return [:] }
        let tiles = try derivations()
        let sizes = try imageSizes()
        var layouts: [UInt32: HEIFGridLayout] = [:]
        for grid in grids {
            let what = "HEIF grid item \(grid)"
            guard let tileIDs = tiles[grid], let first = tileIDs.first else {
                throw .malformed(what: what, offset: 0, reason: "no 'dimg' reference to its tiles")
            }
            let descriptor = try descriptor(of: grid, what: what)
            guard descriptor.rows * descriptor.columns == tileIDs.count else {
                throw .malformed(
                    what: what, offset: 0,
                    reason: "\(descriptor.rows) × \(descriptor.columns) tiles but \(tileIDs.count) 'dimg' references")
            }
            guard let codec = types[first], let size = sizes[first] else {
                throw .malformed(what: what, offset: 0, reason: "tile item \(first) has no type or no 'ispe'")
            }
            for tile in tileIDs where types[tile] != codec || sizes[tile].map({ $0 != size }) ?? true {
                throw .malformed(
                    what: what, offset: 0, reason: "tile item \(tile) differs in type or size from the first")
            }
            guard descriptor.columns * size.width >= descriptor.width,
                descriptor.rows * size.height >= descriptor.height
            else {
                throw .malformed(
                    what: what, offset: 0,
                    reason: "\(descriptor.columns) × \(descriptor.rows) tiles of \(size.width) × \(size.height) "
                        + "do not cover \(descriptor.width) × \(descriptor.height)")
            }
            layouts[grid] = HEIFGridLayout(
                rows: descriptor.rows, columns: descriptor.columns, tileWidth: size.width, tileHeight: size.height,
                tileCodec: codec.description, width: descriptor.width, height: descriptor.height)
        }
        return layouts
    }

    // MARK: Boxes

    private func box(_ type: FourCC) throws(CodecError) -> Atom {
        guard let box = boxes.first(where: { $0.type == type }) else {
            throw .malformed(what: "HEIF 'meta' box", offset: 0, reason: "no '\(type)' box")
        }
        return box
    }

    /// A count read from a box, refused above ``maximumEntries``.
    private func count(_ value: UInt32, of what: String, at offset: Int) throws(CodecError) -> Int {
        guard value <= UInt32(Self.maximumEntries) else {
            throw .limitExceeded(what: "\(what) at byte \(offset)", value: Int(value), limit: Self.maximumEntries)
        }
        return Int(value)
    }

    /// An unsigned big-endian field of `size` bytes (0, 1, 2, 4 or 8) at `offset`, which must lie inside `box`.
    private func field(_ offset: Int, size: Int, in box: Atom, _ what: String) throws(CodecError) -> Int {
        guard offset >= box.payload, size <= box.end - offset else {
            throw .truncated(what: "\(what) in '\(box.type)' box at byte \(box.offset)", offset: offset)
        }
        switch size {
        case 0: return 0
        case 1: return Int(try reader.u8(offset, what))
        case 2: return Int(try reader.u16(offset, what))
        case 4: return Int(try reader.u32(offset, what))
        default:
            let value = try reader.u64(offset, what)
            guard value <= UInt64(Int32.max) else {
                throw .malformed(what: what, offset: offset, reason: "value \(value) is beyond the file")
            }
            return Int(value)
        }
    }

    /// The type of every item with an `infe` of version 2 or 3 (the versions that have one).
    private func itemTypes() throws(CodecError) -> [UInt32: FourCC] {
        let iinf = try box("iinf")
        let (version, _) = try parser.fullHeader(iinf, minimum: 2)
        let infes = try parser.children(of: iinf, skipping: version == 0 ? 6 : 8)
        guard infes.count <= Self.maximumEntries else {
            throw .limitExceeded(what: "HEIF 'iinf' entries", value: infes.count, limit: Self.maximumEntries)
        }
        var types: [UInt32: FourCC] = [:]
        for infe in infes where infe.type == "infe" {
            let (version, _) = try parser.fullHeader(infe, minimum: 0)
            guard version >= 2 else { continue }
            let idSize = version == 2 ? 2 : 4
            let id = UInt32(try field(infe.payload + 4, size: idSize, in: infe, "'infe' item ID"))
            guard infe.payload + 4 + idSize + 6 <= infe.end else {
                throw .truncated(what: "'infe' box of item \(id)", offset: infe.offset)
            }
            guard types.updateValue(FourCC(reader.u32Unchecked(infe.payload + 4 + idSize + 2)), forKey: id) == nil
            else { throw .malformed(what: "'iinf' box", offset: infe.offset, reason: "item \(id) is listed twice") }
        }
        return types
    }

    /// The `dimg` references: the items each derived image is made of, in order.
    private func derivations() throws(CodecError) -> [UInt32: [UInt32]] {
        let iref = try box("iref")
        let (version, _) = try parser.fullHeader(iref, minimum: 0)
        let idSize = version == 0 ? 2 : 4
        var derived: [UInt32: [UInt32]] = [:]
        for reference in try parser.children(of: iref, skipping: 4) where reference.type == "dimg" {
            let from = UInt32(try field(reference.payload, size: idSize, in: reference, "'dimg' reference"))
            let toCount = try field(reference.payload + idSize, size: 2, in: reference, "'dimg' reference count")
            try parser.checkTable(
                reference, at: reference.payload + idSize + 2, count: UInt32(toCount), entrySize: idSize)
            guard derived[from] == nil else {
                throw .malformed(
                    what: "'iref' box", offset: reference.offset, reason: "item \(from) has two 'dimg' references")
            }
            var to: [UInt32] = []
            to.reserveCapacity(toCount)
            for k in 0..<toCount {
                to.append(
                    UInt32(
                        try field(
                            reference.payload + idSize + 2 + k * idSize, size: idSize, in: reference, "'dimg' item")))
            }
            derived[from] = to
        }
        return derived
    }

    /// The `ispe` size of every item that has one.
    private func imageSizes() throws(CodecError) -> [UInt32: (width: Int, height: Int)] {
        let iprp = try box("iprp")
        let children = try parser.children(of: iprp)
        guard let ipco = children.first(where: { $0.type == "ipco" }),
            let ipma = children.first(where: { $0.type == "ipma" })
        else { throw .malformed(what: "'iprp' box", offset: iprp.offset, reason: "no 'ipco' or 'ipma' box") }
        let properties = try parser.children(of: ipco)
        let (version, flags) = try parser.fullHeader(ipma, minimum: 4)
        let idSize = version == 0 ? 2 : 4
        let indexSize = flags & 1 != 0 ? 2 : 1
        let entries = try count(reader.u32Unchecked(ipma.payload + 4), of: "'ipma' entries", at: ipma.offset)
        var offset = ipma.payload + 8
        var sizes: [UInt32: (width: Int, height: Int)] = [:]
        for _ in 0..<entries {
            let id = UInt32(try field(offset, size: idSize, in: ipma, "'ipma' item ID"))
            let associations = try field(offset + idSize, size: 1, in: ipma, "'ipma' association count")
            offset += idSize + 1
            try parser.checkTable(ipma, at: offset, count: UInt32(associations), entrySize: indexSize)
            for k in 0..<associations {
                let value = try field(offset + k * indexSize, size: indexSize, in: ipma, "'ipma' property index")
                let index = value & (indexSize == 2 ? 0x7FFF : 0x7F)
                guard index != 0 else { continue }
                guard index <= properties.count else {
                    throw .malformed(
                        what: "'ipma' box", offset: ipma.offset,
                        reason: "item \(id) names property \(index) of \(properties.count)")
                }
                let property = properties[index - 1]
                guard property.type == "ispe", sizes[id] == nil else { continue }
                _ = try parser.fullHeader(property, minimum: 8)
                let width = Int(reader.u32Unchecked(property.payload + 4))
                let height = Int(reader.u32Unchecked(property.payload + 8))
                guard width > 0, height > 0 else {
                    throw .malformed(
                        what: "'ispe' of item \(id)", offset: property.offset, reason: "size \(width) × \(height)")
                }
                sizes[id] = (width, height)
            }
            offset += associations * indexSize
        }
        return sizes
    }

    /// The grid item's data (ISO/IEC 23008-12 ImageGrid): rows, columns and output size.
    private func descriptor(of item: UInt32, what: String) throws(CodecError)
        -> (rows: Int, columns: Int, width: Int, height: Int)
    {
        let data = try itemData(item)
        guard data.count >= 8, data[0] == 0 else {
            throw .malformed(
                what: what, offset: 0, reason: "grid data of \(data.count) bytes, version \(data.first ?? 0)")
        }
        var cursor = BigEndianCursor(Array(data[2...]), what: what)
        let rows = Int(try cursor.u8()) + 1
        let columns = Int(try cursor.u8()) + 1
        let large = data[1] & 1 != 0
        let width = large ? Int(try cursor.u32()) : Int(try cursor.u16())
        let height = large ? Int(try cursor.u32()) : Int(try cursor.u16())
        guard cursor.remaining == 0, width > 0, height > 0 else {
            throw .malformed(
                what: what, offset: 0, reason: "grid data of \(data.count) bytes for an output of \(width) × \(height)")
        }
        return (rows, columns, width, height)
    }

    /// The bytes of `item` (at most 16: a grid descriptor) from its `iloc` extents, in the file (construction
    /// method 0) or in `idat` (method 1).
    private func itemData(_ item: UInt32) throws(CodecError) -> [UInt8] {
        let iloc = try box("iloc")
        let (version, _) = try parser.fullHeader(iloc, minimum: 4)
        guard version <= 2 else {
            throw .unsupported(what: "HEIF 'iloc' box", reason: "version \(version)")
        }
        let sizes = Int(reader.u16Unchecked(iloc.payload + 4))
        let offsetSize = sizes >> 12
        let lengthSize = sizes >> 8 & 15
        let baseSize = sizes >> 4 & 15
        let indexSize = version >= 1 ? sizes & 15 : 0
        for size in [offsetSize, lengthSize, baseSize, indexSize] where ![0, 4, 8].contains(size) {
            throw .malformed(what: "'iloc' box", offset: iloc.offset, reason: "field size \(size)")
        }
        let idSize = version < 2 ? 2 : 4
        var offset = iloc.payload + 6
        let entries = try count(
            UInt32(try field(offset, size: idSize, in: iloc, "'iloc' count")), of: "'iloc' items", at: iloc.offset)
        offset += idSize
        var extentsRead = 0
        for _ in 0..<entries {
            let id = UInt32(try field(offset, size: idSize, in: iloc, "'iloc' item ID"))
            offset += idSize
            let method = version >= 1 ? try field(offset, size: 2, in: iloc, "'iloc' construction method") & 15 : 0
            offset += (version >= 1 ? 2 : 0) + 2
            let base = try field(offset, size: baseSize, in: iloc, "'iloc' base offset")
            offset += baseSize
            let extentCount = try field(offset, size: 2, in: iloc, "'iloc' extent count")
            offset += 2
            extentsRead += extentCount
            guard extentsRead <= Self.maximumExtents else {
                throw .limitExceeded(what: "HEIF 'iloc' extents", value: extentsRead, limit: Self.maximumExtents)
            }
            let entrySize = indexSize + offsetSize + lengthSize
            try parser.checkTable(iloc, at: offset, count: UInt32(extentCount), entrySize: entrySize)
            guard id == item else {
                offset += extentCount * entrySize
                continue
            }
            let container: Range<Int>
            switch method {
            case 0: container = 0..<reader.count
            case 1:
                guard let idat = boxes.first(where: { $0.type == "idat" }) else {
                    throw .malformed(what: "'iloc' of item \(id)", offset: iloc.offset, reason: "no 'idat' box")
                }
                container = idat.payload..<idat.end
            default:
                throw .unsupported(what: "'iloc' of item \(id)", reason: "construction method \(method)")
            }
            var data: [UInt8] = []
            for k in 0..<extentCount {
                let at = offset + k * entrySize + indexSize
                let start = try field(at, size: offsetSize, in: iloc, "'iloc' extent offset") + base
                let length = try field(at + offsetSize, size: lengthSize, in: iloc, "'iloc' extent length")
                guard length > 0, length <= 16 - data.count, start <= container.count - length else {
                    throw .malformed(
                        what: "'iloc' of item \(id)", offset: iloc.offset,
                        reason: "extent of \(length) bytes at \(start) is outside its container or too long")
                }
                data += try reader.slice(container.lowerBound + start, length, "item \(id) data")
            }
            return data
        }
        throw .malformed(what: "'iloc' box", offset: iloc.offset, reason: "item \(item) has no location")
    }
}
