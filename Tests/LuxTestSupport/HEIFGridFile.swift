public import Foundation

/// A test-only writer of HEIF grid images whose every cell is the same coded HEVC tile.
///
/// libheif 1.15's `heif-enc` writes no grids, and encoding a 200-megapixel picture with x265 takes many minutes; a
/// grid whose `dimg` references all name one tile item is a valid HEIF file of any size that takes one tile's worth
/// of bytes. The tile comes from a single-image HEIC (as `heif-enc` writes it): its primary item's coded data and
/// properties (`hvcC`, `ispe`, `colr`, `pixi`) are copied, the grid item gets its own `ispe` and the tile's colour
/// properties.
public struct HEIFGridFile: Sendable {
    /// The coded data of the tile, as its `iloc` extents give it.
    var tileData: Data
    /// The tile's item properties (whole boxes), in the order of its `ipma` associations, with their essential flags.
    var tileProperties: [(box: Data, essential: Bool)]
    /// The tile's width from its `ispe`.
    public var tileWidth: Int
    /// The tile's height from its `ispe`.
    public var tileHeight: Int

    /// Reads the primary image of a single-image HEIC file (such as `heif-enc` writes) as the tile.
    public init(tile heic: Data) throws {
        let bytes = [UInt8](heic)
        let top = try ISOBMFFBox.boxes(bytes, in: 0..<bytes.count)
        guard let meta = top.first(where: { $0.type == "meta" }) else {
            throw ExternalTool.ToolError(message: "no meta box")
        }
        let children = try ISOBMFFBox.boxes(bytes, in: meta.payload.lowerBound + 4..<meta.payload.upperBound)
        func child(_ type: String) throws -> Range<Int> {
            guard let box = children.first(where: { $0.type == type }) else {
                throw ExternalTool.ToolError(message: "no \(type) box")
            }
            return box.payload
        }
        var pitm = Reader(bytes: bytes, range: try child("pitm"))
        let primary = try pitm.readVersion() == 0 ? try pitm.read(2) : try pitm.read(4)
        tileData = try Self.itemData(bytes, iloc: try child("iloc"), item: primary)

        let iprp = try ISOBMFFBox.boxes(bytes, in: try child("iprp"))
        guard let ipco = iprp.first(where: { $0.type == "ipco" }), let ipma = iprp.first(where: { $0.type == "ipma" })
        else { throw ExternalTool.ToolError(message: "no ipco or ipma box") }
        let properties = try ISOBMFFBox.boxes(bytes, in: ipco.payload)
        var reader = Reader(bytes: bytes, range: ipma.payload)
        let version = try reader.readVersion()
        let wideIndices = reader.flags & 1 != 0
        var associations: [(index: Int, essential: Bool)] = []
        for _ in 0..<(try reader.read(4)) {
            let item = try reader.read(version == 0 ? 2 : 4)
            for _ in 0..<(try reader.read(1)) {
                let value = try reader.read(wideIndices ? 2 : 1)
                let essentialBit = wideIndices ? 0x8000 : 0x80
                if item == primary { associations.append((value & (essentialBit - 1), value & essentialBit != 0)) }
            }
        }
        tileProperties = try associations.map { index, essential in
            guard index >= 1, index <= properties.count else {
                throw ExternalTool.ToolError(message: "bad property index")
            }
            let box = properties[index - 1]
            return (Data(bytes[box.whole]), essential)
        }
        guard let ispe = associations.map({ properties[$0.index - 1] }).first(where: { $0.type == "ispe" }) else {
            throw ExternalTool.ToolError(message: "the tile has no ispe")
        }
        var size = Reader(bytes: bytes, range: ispe.payload)
        _ = try size.readVersion()
        tileWidth = try size.read(4)
        tileHeight = try size.read(4)
    }

    /// The bytes of a HEIC file whose primary item is a grid of `columns` × `rows` copies of the tile.
    public func file(columns: Int, rows: Int) -> Data {
        let references = columns * rows
        precondition(columns <= 256 && rows <= 256 && references <= 0xFFFF, "grid too large for this writer")
        let width = columns * tileWidth
        let height = rows * tileHeight
        let wide = width > 0xFFFF || height > 0xFFFF
        var grid = Data([0, wide ? 1 : 0, UInt8(rows - 1), UInt8(columns - 1)])
        grid.append(wide ? Self.u32(width) + Self.u32(height) : Self.u16(width) + Self.u16(height))

        // Properties: the tile's own, then the grid's ispe; the grid shares the tile's colour properties.
        var ipco = Data()
        for property in tileProperties { ipco.append(property.box) }
        ipco.append(Self.fullBox("ispe", Self.u32(width) + Self.u32(height)))
        let gridIspe = tileProperties.count + 1
        let shared = tileProperties.indices.filter { index in
            let type = String(decoding: tileProperties[index].box[4..<8], as: UTF8.self)
            return type == "colr" || type == "pixi"
        }
        var ipma = Self.u32(2)
        ipma.append(Self.u16(1) + Data([UInt8(1 + shared.count), UInt8(gridIspe)]))
        for index in shared { ipma.append(UInt8(index + 1)) }
        ipma.append(Self.u16(2) + Data([UInt8(tileProperties.count)]))
        for (index, property) in tileProperties.enumerated() {
            ipma.append(UInt8(index + 1) | (property.essential ? 0x80 : 0))
        }

        var dimg = Self.u16(1) + Self.u16(references)
        for _ in 0..<references { dimg.append(Self.u16(2)) }

        let hdlr = Self.fullBox("hdlr", Self.u32(0) + Data("pict".utf8) + Data(count: 12) + Data([0]))
        let pitm = Self.fullBox("pitm", Self.u16(1))
        let iinf = Self.fullBox(
            "iinf",
            Self.u16(2)
                + Self.fullBox("infe", Self.u16(1) + Self.u16(0) + Data("grid".utf8) + Data([0]), version: 2)
                + Self.fullBox("infe", Self.u16(2) + Self.u16(0) + Data("hvc1".utf8) + Data([0]), version: 2, flags: 1))
        let iref = Self.fullBox("iref", Self.box("dimg", dimg))
        let iprp = Self.box("iprp", Self.box("ipco", ipco) + Self.fullBox("ipma", ipma))
        let ftyp = Self.box("ftyp", Data("heic".utf8) + Self.u32(0) + Data("mif1heic".utf8))

        func meta(dataStart: Int) -> Data {
            var iloc = Data([0x44, 0x00]) + Self.u16(2)
            iloc.append(Self.u16(1) + Self.u16(0) + Self.u16(1) + Self.u32(dataStart) + Self.u32(grid.count))
            iloc.append(Self.u16(2) + Self.u16(0) + Self.u16(1))
            iloc.append(Self.u32(dataStart + grid.count) + Self.u32(tileData.count))
            return Self.fullBox("meta", hdlr + pitm + Self.fullBox("iloc", iloc) + iinf + iref + iprp)
        }
        let metaSize = meta(dataStart: 0).count
        let dataStart = ftyp.count + metaSize + 8
        return ftyp + meta(dataStart: dataStart) + Self.box("mdat", grid + tileData)
    }

    // MARK: Box reading

    private struct Reader {
        var bytes: [UInt8]
        var range: Range<Int>
        var flags = 0

        mutating func read(_ count: Int) throws -> Int {
            guard count <= range.count else { throw ExternalTool.ToolError(message: "box too short") }
            var value = 0
            for byte in bytes[range.lowerBound..<range.lowerBound + count] { value = value << 8 | Int(byte) }
            range = range.lowerBound + count..<range.upperBound
            return value
        }

        mutating func readVersion() throws -> Int {
            let versionAndFlags = try read(4)
            flags = versionAndFlags & 0xFF_FFFF
            return versionAndFlags >> 24
        }
    }

    /// The bytes of `item` from its `iloc` extents (construction method 0: offsets in the file).
    private static func itemData(_ bytes: [UInt8], iloc: Range<Int>, item: Int) throws -> Data {
        var reader = Reader(bytes: bytes, range: iloc)
        let version = try reader.readVersion()
        let sizes = try reader.read(2)
        let offsetSize = sizes >> 12
        let lengthSize = sizes >> 8 & 15
        let baseOffsetSize = sizes >> 4 & 15
        let indexSize = version >= 1 ? sizes & 15 : 0
        for _ in 0..<(try reader.read(version < 2 ? 2 : 4)) {
            let id = try reader.read(version < 2 ? 2 : 4)
            let method = version >= 1 ? try reader.read(2) & 15 : 0
            _ = try reader.read(2)
            let base = try reader.read(baseOffsetSize)
            var extents: [Range<Int>] = []
            for _ in 0..<(try reader.read(2)) {
                _ = try reader.read(indexSize)
                let offset = base + (try reader.read(offsetSize))
                extents.append(offset..<offset + (try reader.read(lengthSize)))
            }
            guard id == item else { continue }
            guard method == 0 else { throw ExternalTool.ToolError(message: "construction method \(method)") }
            guard extents.allSatisfy({ $0.upperBound <= bytes.count }) else {
                throw ExternalTool.ToolError(message: "extent outside the file")
            }
            return extents.reduce(into: Data()) { $0.append(contentsOf: bytes[$1]) }
        }
        throw ExternalTool.ToolError(message: "item \(item) has no location")
    }

    // MARK: Box writing

    private static func u16(_ value: Int) -> Data { Data([UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]) }

    private static func u32(_ value: Int) -> Data { u16(value >> 16) + u16(value & 0xFFFF) }

    private static func box(_ type: String, _ payload: Data) -> Data {
        u32(payload.count + 8) + Data(type.utf8) + payload
    }

    private static func fullBox(_ type: String, _ payload: Data, version: UInt8 = 0, flags: Int = 0) -> Data {
        box(type, Data([version, UInt8(flags >> 16 & 0xFF), UInt8(flags >> 8 & 0xFF), UInt8(flags & 0xFF)]) + payload)
    }
}
