/// The boxes of a HEIF file Lux writes: `ftyp`, `meta` (items, properties, references) and `mdat`.
///
/// libheif 1.15 cannot write grid images (its `heif_context_add_grid_image` arrived in 1.18), and iOS stores every
/// photo as a grid of 512 × 512 HEVC tiles; so Lux lays out the file itself, as ISO/IEC 23008-12 describes, from HEVC
/// pictures x265 encodes. Readers (libheif, ImageIO, exiftool, vips) see the same structure as an iPhone's file.
struct HEIFContainer {
    /// An item: an image (`hvc1`, `grid`) or metadata (`Exif`, `mime`).
    struct Item {
        var id: UInt16
        var type: String
        var hidden = false
        var contentType: String? = nil
        /// The item's bytes; a grid descriptor goes in `idat`, everything else in `mdat`.
        var data: [UInt8]
        /// Property indices (into ``properties``, 0-based) and whether each is essential.
        var properties: [(index: Int, essential: Bool)] = []

        var inIDAT: Bool { type == "grid" }
    }

    var brands: (major: String, compatible: [String])
    var primary: UInt16
    var items: [Item] = []
    /// Property boxes (`hvcC`, `ispe`, `colr`, `pixi`, `auxC` …), each stored once.
    var properties: [[UInt8]] = []
    /// References: type, from, to.
    var references: [(type: String, from: UInt16, to: [UInt16])] = []

    /// The index of `box` among the properties, adding it when it is new.
    mutating func property(_ box: [UInt8]) -> Int {
        if let i = properties.firstIndex(of: box) { return i }
        properties.append(box)
        return properties.count - 1
    }

    /// The next free item ID.
    var nextID: UInt16 { (items.map(\.id).max() ?? 0) + 1 }

    // MARK: Property boxes

    static func ispe(width: Int, height: Int) -> [UInt8] {
        var b = BoxWriter()
        b.fullBox("ispe", version: 0) {
            $0.u32(UInt32(width))
            $0.u32(UInt32(height))
        }
        return b.data
    }

    static func pixi(bitDepth: Int, channels: Int) -> [UInt8] {
        var b = BoxWriter()
        b.fullBox("pixi", version: 0) { b in
            b.u8(UInt8(channels))
            for _ in 0..<channels { b.u8(UInt8(bitDepth)) }
        }
        return b.data
    }

    static func iccColor(_ profile: [UInt8]) -> [UInt8] {
        var b = BoxWriter()
        b.box("colr") {
            $0.fourCC("prof")
            $0.bytes(profile)
        }
        return b.data
    }

    static func nclxColor(_ nclx: NCLXColorDescription) -> [UInt8] {
        var b = BoxWriter()
        b.box("colr") {
            $0.fourCC("nclx")
            $0.u16(UInt16(nclx.colorPrimaries))
            $0.u16(UInt16(nclx.transferCharacteristics))
            $0.u16(UInt16(nclx.matrixCoefficients))
            $0.u8(nclx.isFullRange ? 0x80 : 0)
        }
        return b.data
    }

    static func auxiliaryType(_ urn: String) -> [UInt8] {
        var b = BoxWriter()
        b.fullBox("auxC", version: 0) { $0.string(urn) }
        return b.data
    }

    /// The `grid` item's data: rows and columns of tiles and the output size.
    static func gridDescriptor(rows: Int, columns: Int, width: Int, height: Int) -> [UInt8] {
        var b = BoxWriter()
        let large = width > 0xFFFF || height > 0xFFFF
        b.u8(0)
        b.u8(large ? 1 : 0)
        b.u8(UInt8(rows - 1))
        b.u8(UInt8(columns - 1))
        if large {
            b.u32(UInt32(width))
            b.u32(UInt32(height))
        } else {
            b.u16(UInt16(width))
            b.u16(UInt16(height))
        }
        return b.data
    }

    // MARK: Writing

    /// The file's bytes.
    func bytes() -> [UInt8] {
        var ftyp = BoxWriter()
        ftyp.box("ftyp") { b in
            b.fourCC(brands.major)
            b.u32(0)
            for brand in brands.compatible { b.fourCC(brand) }
        }
        let mdatItems = items.filter { !$0.inIDAT }
        let mdatPayload = mdatItems.reduce(0) { $0 + $1.data.count }
        let largeMDAT = mdatPayload + 8 > Int(UInt32.max)
        // The meta box's size does not depend on the offsets' values, only on their width: lay it out once with
        // placeholders to learn where mdat starts, then again with the real offsets.
        let wide = largeMDAT || ftyp.data.count + mdatPayload + (1 << 20) > Int(UInt32.max)
        let placeholder = meta(mdatStart: 0, wideOffsets: wide)
        let headerSize = largeMDAT ? 16 : 8
        let mdatStart = ftyp.data.count + placeholder.count + headerSize
        var out = ftyp.data + meta(mdatStart: mdatStart, wideOffsets: wide)
        out.reserveCapacity(mdatStart + mdatPayload)
        var header = BoxWriter()
        if largeMDAT {
            header.u32(1)
            header.fourCC("mdat")
            header.u64(UInt64(mdatPayload + 16))
        } else {
            header.u32(UInt32(mdatPayload + 8))
            header.fourCC("mdat")
        }
        out += header.data
        for item in mdatItems { out += item.data }
        return out
    }

    private func meta(mdatStart: Int, wideOffsets: Bool) -> [UInt8] {
        var b = BoxWriter()
        b.fullBox("meta", version: 0) { m in
            m.fullBox("hdlr", version: 0) { h in
                h.u32(0)
                h.fourCC("pict")
                h.u32(0)
                h.u32(0)
                h.u32(0)
                h.string("")
            }
            m.fullBox("pitm", version: 0) { $0.u16(primary) }
            iloc(&m, mdatStart: mdatStart, wideOffsets: wideOffsets)
            m.fullBox("iinf", version: 0) { i in
                i.u16(UInt16(items.count))
                for item in items {
                    i.fullBox("infe", version: 2, flags: item.hidden ? 1 : 0) { e in
                        e.u16(item.id)
                        e.u16(0)
                        e.fourCC(item.type)
                        e.string("")
                        if let contentType = item.contentType { e.string(contentType) }
                    }
                }
            }
            if !references.isEmpty {
                m.fullBox("iref", version: 0) { r in
                    for reference in references {
                        r.box(reference.type) { e in
                            e.u16(reference.from)
                            e.u16(UInt16(reference.to.count))
                            for to in reference.to { e.u16(to) }
                        }
                    }
                }
            }
            m.box("iprp") { p in
                p.box("ipco") { c in for box in properties { c.bytes(box) } }
                let wideIndices = properties.count > 127
                p.fullBox("ipma", version: 0, flags: wideIndices ? 1 : 0) { a in
                    let associated = items.filter { !$0.properties.isEmpty }
                    a.u32(UInt32(associated.count))
                    for item in associated {
                        a.u16(item.id)
                        a.u8(UInt8(item.properties.count))
                        for (index, essential) in item.properties {
                            // Property indices are 1-based in ipma; 0 means "no property".
                            if wideIndices {
                                a.u16((essential ? 0x8000 : 0) | UInt16(index + 1))
                            } else {
                                a.u8((essential ? 0x80 : 0) | UInt8(index + 1))
                            }
                        }
                    }
                }
            }
            let idat = items.filter(\.inIDAT).flatMap(\.data)
            if !idat.isEmpty { m.box("idat") { $0.bytes(idat) } }
        }
        return b.data
    }

    /// Item locations: grid descriptors in `idat` (construction method 1), the rest in `mdat` (method 0).
    private func iloc(_ m: inout BoxWriter, mdatStart: Int, wideOffsets: Bool) {
        m.fullBox("iloc", version: 1) { l in
            l.u8(wideOffsets ? 0x84 : 0x44)  // offset_size, length_size
            l.u8(0)  // base_offset_size 0, index_size 0
            l.u16(UInt16(items.count))
            var mdatOffset = mdatStart
            var idatOffset = 0
            for item in items {
                l.u16(item.id)
                l.u16(item.inIDAT ? 1 : 0)
                l.u16(0)  // data_reference_index: this file
                l.u16(1)  // one extent
                let offset: Int
                if item.inIDAT {
                    offset = idatOffset
                    idatOffset += item.data.count
                } else {
                    offset = mdatOffset
                    mdatOffset += item.data.count
                }
                if wideOffsets { l.u64(UInt64(offset)) } else { l.u32(UInt32(offset)) }
                l.u32(UInt32(item.data.count))
            }
        }
    }
}
